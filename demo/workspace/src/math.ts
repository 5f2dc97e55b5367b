export function add(a: number, b: number): number {
  return a + b; // TODO: overflow checks for big inputs
}

// FIXME: divide by zero returns Infinity; decide what callers want.
export function divide(a: number, b: number): number {
  return a / b;
}
