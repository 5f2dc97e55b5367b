/**
 * How a value reads as text wherever a template inserts it (shell argv, stdin, env, INPUT_*
 * variables, the http url before percent-encoding, a tool step's `with`): one rule for all.
 */

/** Strings as-is, numbers and booleans by String, anything else as JSON. */
export function stringForm(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return JSON.stringify(value) ?? '';
}

/** A value a template treats as not given: undefined or null (it fills in as empty text). */
export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}
