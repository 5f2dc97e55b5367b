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

/** The result of splitting: the arguments, or why the string cannot be split. */
export type SplitResult =
  | { readonly ok: true; readonly args: string[] }
  | { readonly ok: false; readonly message: string };

const OPERATOR_CHARS = new Set(['|', '&', ';', '<', '>', '\n', '\r']);
const DOUBLE_QUOTE_ESCAPABLE = new Set(['"', '\\', '$', '`']);
const SCRIPT_HINT =
  'A command is run without a shell. Use "script" instead of "command" for pipes, redirection, ' +
  '&&, || and substitutions; input values then reach the script as $INPUT_<NAME> environment ' +
  'variables or as $1, $2, ... through "args".';

/** Splits `text` into arguments, or explains the first shell operator or quoting error. */
export function splitCommandLine(text: string): SplitResult {
  const args: string[] = [];
  let current = '';
  let inToken = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    const substitution = quote !== "'" ? substitutionAt(text, i) : undefined;
    if (substitution !== undefined) {
      return operatorError(substitution, i);
    }
    if (quote === "'") {
      if (ch === "'") {
        quote = undefined;
      } else {
        current += ch;
      }
    } else if (quote === '"') {
      if (ch === '"') {
        quote = undefined;
      } else if (ch === '\\' && DOUBLE_QUOTE_ESCAPABLE.has(text.charAt(i + 1))) {
        current += text.charAt(++i);
      } else {
        current += ch;
      }
    } else if (ch === ' ' || ch === '\t') {
      if (inToken) {
        args.push(current);
      }
      current = '';
      inToken = false;
    } else if (OPERATOR_CHARS.has(ch)) {
      return operatorError(operatorAt(text, i), i);
    } else {
      inToken = true;
      if (ch === "'" || ch === '"') {
        quote = ch;
      } else if (ch === '\\') {
        if (i + 1 >= text.length) {
          return { ok: false, message: 'The command ends with a lone backslash.' };
        }
        current += text.charAt(++i);
      } else {
        current += ch;
      }
    }
  }
  if (quote !== undefined) {
    return { ok: false, message: `The command has an unclosed ${quote} quote.` };
  }
  if (inToken) {
    args.push(current);
  }
  return { ok: true, args };
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

/** An argv for display, e.g. in the tree view and the approval prompt. */
export function formatArgv(argv: readonly string[]): string {
  return argv.map(quoteForDisplay).join(' ');
}
