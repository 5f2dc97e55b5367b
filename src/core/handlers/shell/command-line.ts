/**
 * Splits a string `command` template into argv with shell-like quoting, without expanding
 * anything, and formats argv back for display.
 *
 * Quoting rules (a subset of POSIX sh):
 * - outside quotes, whitespace separates arguments and `\` makes the next character literal;
 * - inside '...' every character is literal;
 * - inside "..." `\` escapes only `"`, `\`, `$` and `` ` `` (as in sh), other text is literal.
 *
 * Shell operators are refused instead of being passed as arguments, because the author
 * almost certainly meant a shell to interpret them and none will: unquoted `|`, `&`, `;`,
 * `<`, `>`, a newline, and `` ` `` or `$(` anywhere except inside single quotes (sh would
 * substitute them inside double quotes too). Operators inside quotes are literal text.
 */

import { redactSecrets } from '../../redact';

/** The result of splitting: the arguments, or why the string cannot be split. */
export type SplitResult =
  | { readonly ok: true; readonly args: string[] }
  | { readonly ok: false; readonly message: string; readonly span?: { readonly start: number; readonly length: number } };

const OPERATOR_CHARS = new Set(['|', '&', ';', '<', '>', '\n', '\r']);
const DOUBLE_QUOTE_ESCAPABLE = new Set(['"', '\\', '$', '`']);
const SCRIPT_HINT =
  'A command is run without a shell. Use "script" instead of "command" for pipes, redirection, ' +
  '&&, || and substitutions; input values then reach the script as $INPUT_<NAME> environment ' +
  'variables or as $1, $2, ... through "args".';

/** Splits `text` into arguments, or explains the first shell operator or quoting error. */
export function splitCommandLine(text: string): SplitResult {
  const state: SplitState = { args: [], current: '', inToken: false, quote: undefined };
  for (let i = 0; i < text.length; i++) {
    const substitution = state.quote !== "'" ? substitutionAt(text, i) : undefined;
    if (substitution !== undefined) {
      return operatorError(substitution, i);
    }
    const step = state.quote === undefined ? unquotedStep(text, i, state) : quotedStep(text, i, state);
    if (typeof step !== 'number') {
      return step;
    }
    i = step;
  }
  if (state.quote !== undefined) {
    return { ok: false, message: `The command has an unclosed ${state.quote} quote.` };
  }
  if (state.inToken) {
    state.args.push(state.current);
  }
  return { ok: true, args: state.args };
}

interface SplitState {
  readonly args: string[];
  current: string;
  /** True once the current argument has begun (so `''` still makes an empty argument). */
  inToken: boolean;
  quote: "'" | '"' | undefined;
}

/** Consumes the character at i inside quotes; returns the index of the last one consumed. */
function quotedStep(text: string, i: number, state: SplitState): number {
  const ch = text.charAt(i);
  if (ch === state.quote) {
    state.quote = undefined;
  } else if (state.quote === '"' && ch === '\\' && DOUBLE_QUOTE_ESCAPABLE.has(text.charAt(i + 1))) {
    state.current += text.charAt(i + 1);
    return i + 1;
  } else {
    state.current += ch;
  }
  return i;
}

/** Consumes the character at i outside quotes; an error result when it is an operator. */
function unquotedStep(text: string, i: number, state: SplitState): number | SplitResult {
  const ch = text.charAt(i);
  if (ch === ' ' || ch === '\t') {
    if (state.inToken) {
      state.args.push(state.current);
    }
    state.current = '';
    state.inToken = false;
    return i;
  }
  if (OPERATOR_CHARS.has(ch)) {
    return operatorError(operatorAt(text, i), i);
  }
  state.inToken = true;
  if (ch === "'" || ch === '"') {
    state.quote = ch;
  } else if (ch === '\\') {
    if (i + 1 >= text.length) {
      return { ok: false, message: 'The command ends with a lone backslash.', span: { start: i, length: 1 } };
    }
    state.current += text.charAt(i + 1);
    return i + 1;
  } else {
    state.current += ch;
  }
  return i;
}

/** `` ` `` or `$(` at position i, else undefined. */
function substitutionAt(text: string, i: number): string | undefined {
  const ch = text.charAt(i);
  if (ch === '`') {
    return '`';
  }
  return ch === '$' && text.charAt(i + 1) === '(' ? '$(' : undefined;
}

/** The operator starting at i, two characters when it is a doubled one (`||`, `&&`, `>>`). */
function operatorAt(text: string, i: number): string {
  const ch = text.charAt(i);
  if (ch === '\n' || ch === '\r') {
    return 'a line break';
  }
  return text.charAt(i + 1) === ch && ch !== ';' ? ch + ch : ch;
}

function operatorError(operator: string, index: number): SplitResult {
  const shown = operator === 'a line break' ? operator : `"${operator}"`;
  return {
    ok: false,
    message: `The command contains the shell operator ${shown} (at character ${index + 1}). ${SCRIPT_HINT}`,
    span: { start: index, length: operator === 'a line break' ? 1 : operator.length },
  };
}

const SAFE_ARG = /^[A-Za-z0-9_@%+=:,./{}-]+$/;

/** One argument as it would be typed in sh: bare when safe, else single-quoted. */
export function quoteForDisplay(arg: string): string {
  if (SAFE_ARG.test(arg)) {
    return arg;
  }
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * An argv for display, e.g. in the tree view, the approval prompt, a description, the history:
 * credentials in URLs and known token shapes are hidden (redact.ts), wherever a command is shown.
 */
export function formatArgv(argv: readonly string[]): string {
  return redactSecrets(argv.map(quoteForDisplay).join(' '));
}
