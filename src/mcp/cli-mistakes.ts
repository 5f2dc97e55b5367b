/**
 * Words a mistyped command line the way a person reads it: the option or command that was not
 * understood, the closest one that exists, and where to look. Node's `parseArgs` messages are
 * written for programmers (`To specify a positional argument starting with a '-', place it at
 * the end of the command after '--'...`), so its errors are reworded here by their code.
 */
import { closestName } from '../core/plugins/likely-value';

/** "; did you mean X?" (the plugin-file checker's own guess at a typo) or nothing. */
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
