/**
 * `${env:NAME}`: the one grammar by which a plugin value reads a variable of the host's
 * environment (shell `env` values, http headers, code tool `env` values). NAME is an environment
 * variable name: letters, digits and `_`, not starting with a digit. Any other `${env:` (an
 * unclosed one, `${env:}`, `${env:a-b}`) is a load-time problem, never literal text that would
 * silently reach a program or a server. The value of a reference is inserted once and never
 * scanned again.
 */

const REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const OPENING = '${env:';

/** The problem with the `${env:...}` references of `text`, or undefined when every one names a variable. */
export function envReferenceProblem(text: string): string | undefined {
  if (!text.replace(REFERENCE, '').includes(OPENING)) {
    return undefined;
  }
  return '${env:...} must name an environment variable: letters, digits and _, not starting with a digit (e.g. ${env:API_TOKEN}).';
}

/** Whether `text` has anything that starts a `${env:...}` reference, valid or not. */
export function hasEnvReference(text: string): boolean {
  return text.includes(OPENING);
}

/**
 * `text` with each `${env:NAME}` replaced by `lookup(NAME)`, in one pass: what a value brings
 * (another `${env:...}` included) stays as it is. `lookup` may throw to refuse a variable.
 */
export function fillEnvReferences(text: string, lookup: (name: string) => string): string {
  return text.replace(REFERENCE, (_reference, name: string) => lookup(name));
}
