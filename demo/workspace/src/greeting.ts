// TODO: localise the greeting.
export function greet(name: string): string {
  return `Hello, ${name}!`;
}
