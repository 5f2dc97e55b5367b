/**
 * Words a mistyped command line the way a person reads it: the option or command that was not
 * understood, the closest one that exists, and where to look. Node's `parseArgs` messages are
 * written for programmers (`To specify a positional argument starting with a '-', place it at
 * the end of the command after '--'...`), so its errors are reworded here by their code.
 */

/** The closest of `known` to `given` within two edits (or sharing a prefix of 3+), if any. */
export function closestName(given: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = name.startsWith(given) && given.length >= 3 ? 0 : editDistance(given, name);
    if (distance <= 2 && (best === undefined || distance < best.distance)) {
      best = { name, distance };
    }
  }
  return best?.name;
}

/** Levenshtein distance, two rows at a time (names are short). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** ", did you mean X?" or nothing. */
export function suggestion(given: string, known: readonly string[]): string {
  const closest = closestName(given, known);
  return closest === undefined ? '' : `; did you mean ${closest}?`;
}

/** A `parseArgs` failure as one plain sentence, naming the option and, if close, the right one. */
export function parseArgsProblem(error: unknown, optionNames: readonly string[], command: string): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  // Node quotes the option as '--name' or '--name <value>'.
  const option = /'(-{1,2}[^'\s]+)[^']*'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) {
    const flags = optionNames.map((name) => `--${name}`);
    return `unknown option ${option} for "${command}"${suggestion(option.replace(/=.*$/, ''), flags)}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined) {
    return /argument missing/.test(message) ? `${option} needs a value` : `${option} takes no value`;
  }
  return message;
}
