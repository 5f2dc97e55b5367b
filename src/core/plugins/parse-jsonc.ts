/**
 * JSON with comments and trailing commas, parsed once into both a value and a syntax tree (the
 * tree is what lets every later problem point at a line and column).
 */
import { ScanError, SyntaxKind, createScanner, parse, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';

const OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };

/** Readable wording for jsonc-parser's error names. */
const SYNTAX_MESSAGES: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':' after the property name",
  CommaExpected: "expected ',' between items",
  CloseBraceExpected: "expected '}' to close the object",
  CloseBracketExpected: "expected ']' to close the array",
  EndOfFileExpected: 'unexpected content after the end of the JSON value',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'unterminated comment (missing */)',
  UnexpectedEndOfString: 'unterminated string (missing closing quote)',
  UnexpectedEndOfNumber: 'unexpected end of number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape sequence in a string',
  InvalidCharacter: 'invalid character in a string (control characters must be escaped)',
};

/** The first syntax error of a document: where it is and what it is, in words. */
export interface SyntaxProblem {
  readonly offset: number;
  /** How many characters the offending token takes (0 at the end of the text). */
  readonly length: number;
  readonly message: string;
}

/** A parsed document: its value when the text is valid, else the first syntax error. */
export type ParsedJsonc =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: SyntaxProblem };

/**
 * Parses JSONC. Most plugin files are plain JSON, and `JSON.parse` reads them ~30 times faster
 * than jsonc-parser's scanner, so it goes first; files with comments or trailing commas (or
 * errors) take the jsonc-parser path. Only the first syntax error is reported: later ones are
 * usually its echoes, and the editor underlines all of them anyway.
 */
export function parseJsonc(text: string): ParsedJsonc {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // Not strict JSON: comments, trailing commas, or a real syntax error.
  }
  // Most JSONC files are JSON plus comments: blanked out, JSON.parse still reads them ~30 times
  // faster than the scanner below. A real syntax error fails here too and falls through, so
  // its message and position always come from jsonc-parser.
  const stripped = stripJsoncExtras(text);
  if (stripped !== undefined) {
    try {
      return { ok: true, value: JSON.parse(stripped) as unknown };
    } catch {
      // A syntax error: jsonc-parser says where.
    }
  }
  const errors: ParseError[] = [];
  const value = parse(text, errors, OPTIONS) as unknown;
  const first = errors[0];
  if (first !== undefined) {
    const name = printParseErrorCode(first.error);
    return { ok: false, error: { offset: first.offset, length: first.length, message: `JSON syntax error: ${SYNTAX_MESSAGES[name] ?? name}` } };
  }
  return { ok: true, value };
}

const TRIVIA = new Set([SyntaxKind.Trivia, SyntaxKind.LineBreakTrivia, SyntaxKind.LineCommentTrivia, SyntaxKind.BlockCommentTrivia]);

/** Whether `text` holds no value at all: only whitespace and comments (a file just created). */
export function isBlankJsonc(text: string): boolean {
  const scanner = createScanner(text, false);
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    if (!TRIVIA.has(token) || scanner.getTokenError() !== ScanError.None) {
      return false;
    }
  }
  return true;
}

/**
 * The syntax tree of a text `parseJsonc` accepted. Built only when a problem must be located:
 * it costs about as much as everything else in loading put together.
 */
export function parseJsoncTree(text: string): Node {
  return parseTree(text, [], OPTIONS) ?? { type: 'null', offset: 0, length: 0, colonOffset: undefined, value: null };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;
const COMMA = 0x2c;

/**
 * The text with comments and trailing commas blanked out (same length, so offsets still match),
 * or undefined when it has neither (then JSON.parse already said it is not valid). Strings are
 * skipped whole, so `//` inside a URL stays. Garbage in, garbage out: a text this cannot make
 * sense of simply fails JSON.parse afterwards.
 */
export function stripJsoncExtras(text: string): string | undefined {
  const cuts: (readonly [number, number])[] = [];
  let lastComma = -1;
  // The last significant character: a comma right after `[`, `{`, `:` or another comma is an
  // error that jsonc-parser must report, not a trailing comma to drop.
  let previous = 0;
  // Whitespace (<= 0x20) changes nothing below, so the regex engine skips it and strings are
  // skipped with indexOf: a character loop in JavaScript cost ~15-40 ms per 800 KB cold.
  const significant = /[^\x00-\x20]/g;
  while (significant.test(text)) {
    let i = significant.lastIndex - 1;
    const code = text.charCodeAt(i);
    if (code === SLASH) {
      const end = commentEnd(text, i);
      if (end === -1) {
        return undefined; // unterminated block comment: jsonc-parser reports it
      }
      if (end !== i) {
        cuts.push([i, end + 1]);
        significant.lastIndex = end + 1;
        continue;
      }
    }
    if (code === QUOTE) {
      i = stringEnd(text, i);
      significant.lastIndex = i + 1;
    } else if (code === COMMA) {
      lastComma = NOT_AFTER.has(previous) ? -1 : i;
    } else if ((code === 0x7d /* } */ || code === 0x5d) /* ] */ && lastComma !== -1) {
      cuts.push([lastComma, lastComma + 1]);
    }
    if (code !== COMMA) {
      lastComma = -1;
    }
    previous = code;
  }
  return cuts.length === 0 ? undefined : blank(text, cuts);
}

/** Characters after which a comma is not a trailing comma: `[`, `{`, `:`, `,` and the start. */
const NOT_AFTER = new Set([0, 0x5b, 0x7b, 0x3a, COMMA]);

/** `text` with each [start, end) range of `cuts` replaced by spaces (newlines kept). */
function blank(text: string, cuts: (readonly [number, number])[]): string {
  // A trailing comma is cut when its bracket is reached, after any comment in between.
  cuts.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let from = 0;
  for (const [start, end] of cuts) {
    parts.push(text.slice(from, start), text.slice(start, end).replace(/[^\n]/g, ' '));
    from = end;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/** Index of the quote that closes the string opening at `start` (the text's end if none). */
export function stringEnd(text: string, start: number): number {
  for (let quote = text.indexOf('"', start + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    // Escaped only by an odd run of backslashes (`\\"` ends the string). The run stops at the
    // opening quote at the latest.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) {
      backslashes++;
    }
    if (backslashes % 2 === 0) {
      return quote;
    }
  }
  return text.length;
}

/**
 * Index of the last character of the comment starting at `start`: `start` when none starts
 * there, -1 for a block comment that never ends.
 */
export function commentEnd(text: string, start: number): number {
  const next = text.charCodeAt(start + 1);
  if (next === SLASH) {
    // A line comment ends at the line's end: `\n`, or `\r` (CRLF files, and a lone `\r` as
    // jsonc-parser and VS Code have it).
    const lineEnd = /[\r\n]/g;
    lineEnd.lastIndex = start;
    const end = lineEnd.exec(text)?.index;
    return end === undefined ? text.length - 1 : end - 1;
  }
  if (next === STAR) {
    const end = text.indexOf('*/', start + 2);
    return end === -1 ? -1 : end + 1;
  }
  return start;
}
