/**
 * A script as the words of its simple commands, each word marked where it holds a value: a
 * reference to a variable that carries an input (`"$INPUT_MSG"`, `!INPUT_MSG!`, `$env:INPUT_MSG`,
 * a positional `$1` / `"$@"` / `%1` when the script's arguments carry inputs), or a `{{x}}`-like
 * piece the caller already marked. Only what nested-code.ts needs to tell where a value lands:
 * not a shell parser, and where it cannot follow the text it errs towards "a value is here".
 */
import type { ShellKind } from './shell-kind';

/** A piece of a word: the author's own text, or a value (a noun phrase naming it, for the message: `the value {{msg}}`). */
export type WordPart = { readonly text: string } | { readonly value: string };
/** One word of a command, in pieces. */
export type CommandWord = readonly WordPart[];

/** One simple command of a script; `fedByValue` when an earlier command of its pipeline holds a value. */
export interface ScriptCommand {
  readonly words: readonly CommandWord[];
  readonly fedByValue: boolean;
}

/** Which variables carry values in a script. */
export interface ValueNames {
  /** Environment variables whose value comes from an input (INPUT_X, an `env` entry with `{{x}}`), each with its noun phrase. */
  readonly variables: ReadonlyMap<string, string>;
  /** The script's positional arguments carry inputs (`args`, or the values after `sh -c script`). */
  readonly positional: boolean;
}

interface Scan {
  readonly text: string;
  readonly kind: ShellKind;
  readonly names: ValueNames;
  readonly commands: ScriptCommand[];
  i: number;
  words: CommandWord[];
  word: WordPart[] | undefined;
  piped: boolean;
  pipelineValue: boolean;
}

/** The simple commands of `parts` (text scanned as `kind` script text, values kept as values). */
export function scriptCommands(parts: readonly WordPart[], kind: ShellKind, names: ValueNames): ScriptCommand[] {
  const commands: ScriptCommand[] = [];
  // A value the caller marked is spliced as a private marker, then found again as a value.
  const values: string[] = [];
  const text = parts.map((part) => ('text' in part ? part.text : `\u0000${values.push(part.value) - 1}\u0000`)).join('');
  const scan: Scan = { text, kind, names, commands, i: 0, words: [], word: undefined, piped: false, pipelineValue: false };
  scanUntil(scan, undefined, values);
  endCommand(scan, false);
  return commands;
}

function scanUntil(scan: Scan, closing: string | undefined, values: readonly string[]): void {
  let depth = 0;
  while (scan.i < scan.text.length) {
    const ch = scan.text.charAt(scan.i);
    if (ch === closing && depth === 0) {
      scan.i++;
      return;
    }
    if (ch === '\u0000') {
      const end = scan.text.indexOf('\u0000', scan.i + 1);
      push(scan, { value: values[Number(scan.text.slice(scan.i + 1, end))] ?? 'a value' });
      scan.i = end + 1;
    } else if (separatorAt(scan)) {
      depth += ch === '(' ? 1 : ch === ')' && depth > 0 ? -1 : 0;
    } else if (ch === ' ' || ch === '\t') {
      endWord(scan);
      scan.i++;
    } else if (ch === '#' && scan.word === undefined && scan.kind !== 'cmd') {
      const end = scan.text.indexOf('\n', scan.i);
      scan.i = end === -1 ? scan.text.length : end;
    } else {
      wordCharacter(scan, values);
    }
  }
}

/** Consumes a command separator at the cursor (ending the command); false when there is none. */
function separatorAt(scan: Scan): boolean {
  const { text, i, kind } = scan;
  const ch = text.charAt(i);
  const separators = kind === 'cmd' ? '&|()\n\r' : kind === 'pwsh' ? ';&|(){}\n\r' : ';&|()\n\r';
  if (!separators.includes(ch)) {
    return false;
  }
  const doubled = text.charAt(i + 1) === ch && (ch === '&' || ch === '|');
  endCommand(scan, ch === '|' && !doubled);
  scan.i += doubled ? 2 : 1;
  return true;
}

function wordCharacter(scan: Scan, values: readonly string[]): void {
  const { text, kind } = scan;
  const ch = text.charAt(scan.i);
  const escape = kind === 'posix' ? '\\' : kind === 'pwsh' ? '`' : '^';
  if (ch === escape) {
    push(scan, { text: text.charAt(scan.i + 1) });
    scan.i += 2;
  } else if (ch === "'" && kind !== 'cmd') {
    const end = closingQuote(text, scan.i + 1, "'");
    push(scan, { text: text.slice(scan.i + 1, end) });
    scan.i = end + 1;
  } else if (ch === '"') {
    scan.i++;
    doubleQuoted(scan, values);
  } else if (!reference(scan, values)) {
    push(scan, { text: ch });
    scan.i++;
  }
}

/** Inside "...": references and substitutions stay live, the rest is text. */
function doubleQuoted(scan: Scan, values: readonly string[]): void {
  const escape = scan.kind === 'posix' ? '\\' : scan.kind === 'pwsh' ? '`' : undefined;
  push(scan, { text: '' });
  while (scan.i < scan.text.length && scan.text.charAt(scan.i) !== '"') {
    const ch = scan.text.charAt(scan.i);
    if (ch === escape) {
      push(scan, { text: scan.text.charAt(scan.i + 1) });
      scan.i += 2;
    } else if (ch === '\u0000') {
      const end = scan.text.indexOf('\u0000', scan.i + 1);
      push(scan, { value: values[Number(scan.text.slice(scan.i + 1, end))] ?? 'a value' });
      scan.i = end + 1;
    } else if (!reference(scan, values)) {
      push(scan, { text: ch });
      scan.i++;
    }
  }
  scan.i++;
}

/** A variable reference or a command substitution at the cursor, consumed; false when there is none. */
function reference(scan: Scan, values: readonly string[]): boolean {
  const rest = scan.text.slice(scan.i);
  if (scan.kind === 'posix' && (rest.startsWith('$(') || rest.startsWith('`'))) {
    substitution(scan, values, rest.startsWith('`') ? '`' : ')', rest.startsWith('`') ? 1 : 2);
    return true;
  }
  const match = referencePattern(scan.kind).exec(rest);
  if (match === null) {
    return false;
  }
  const name = match.slice(1).find((group) => group !== undefined) ?? '';
  const positional = /^(?:[0-9]+|[@*]|args)$/.test(name);
  const label = positional && scan.names.positional ? 'the script\'s arguments, which carry values,' : scan.names.variables.get(name);
  push(scan, label !== undefined ? { value: label } : { text: match[0] });
  scan.i += match[0].length;
  return true;
}

function referencePattern(kind: ShellKind): RegExp {
  switch (kind) {
    case 'posix':
      return /^\$(?:\{#?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])[^}]*\}|([A-Za-z_][A-Za-z0-9_]*|[0-9@*]))/;
    case 'cmd':
      return /^(?:%([A-Za-z_][A-Za-z0-9_]*)(?::[^%]*)?%|!([A-Za-z_][A-Za-z0-9_]*)(?::[^!]*)?!|%~?[a-z]*([0-9*]))/i;
    case 'pwsh':
      return /^\$(?:\{env:([A-Za-z_][A-Za-z0-9_]*)\}|env:([A-Za-z_][A-Za-z0-9_]*)|(args)\b)/i;
  }
}

/** `$(...)` or `` `...` ``: its commands are commands of the script; its output is a value when they hold one. */
function substitution(scan: Scan, values: readonly string[], closing: string, opening: number): void {
  const inner: Scan = { ...scan, i: scan.i + opening, words: [], word: undefined, piped: false, pipelineValue: false, commands: [] };
  scanUntil(inner, closing, values);
  endCommand(inner, false);
  scan.commands.push(...inner.commands);
  const holdsValue = inner.commands.some((command) => command.words.some((word) => word.some((part) => 'value' in part)));
  push(scan, holdsValue ? { value: 'a command substitution that reads a value' } : { text: scan.text.slice(scan.i, inner.i) });
  scan.i = inner.i;
}

function closingQuote(text: string, from: number, quote: string): number {
  const end = text.indexOf(quote, from);
  return end === -1 ? text.length : end;
}

/** Adds to the current word, joining text to text so a word's first piece is its whole leading text. */
function push(scan: Scan, part: WordPart): void {
  const word = scan.word ?? [];
  const last = word.at(-1);
  if (last !== undefined && 'text' in last && 'text' in part) {
    word[word.length - 1] = { text: last.text + part.text };
  } else {
    word.push(part);
  }
  scan.word = word;
}

function endWord(scan: Scan): void {
  if (scan.word !== undefined) {
    scan.words.push(scan.word);
    scan.word = undefined;
  }
}

function endCommand(scan: Scan, pipe: boolean): void {
  endWord(scan);
  const holdsValue = scan.words.some((word) => word.some((part) => 'value' in part));
  if (scan.words.length > 0) {
    scan.commands.push({ words: scan.words, fedByValue: scan.piped && scan.pipelineValue });
  }
  scan.pipelineValue = pipe && (scan.pipelineValue || holdsValue);
  scan.piped = pipe;
  scan.words = [];
}
