/**
 * JSON with comments and trailing commas, parsed once into both a value and a syntax tree (the
 * tree is what lets every later problem point at a line and column).
 */
import { parse, parseTree, printParseErrorCode } from 'jsonc-parser';
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
  const errors: ParseError[] = [];
  const value = parse(text, errors, OPTIONS) as unknown;
  const first = errors[0];
  if (first !== undefined) {
    const name = printParseErrorCode(first.error);
    return { ok: false, error: { offset: first.offset, message: `JSON syntax error: ${SYNTAX_MESSAGES[name] ?? name}` } };
  }
  return { ok: true, value };
}

/**
 * The syntax tree of a text `parseJsonc` accepted. Built only when a problem must be located:
 * it costs about as much as everything else in loading put together.
 */
export function parseJsoncTree(text: string): Node {
  return parseTree(text, [], OPTIONS) ?? { type: 'null', offset: 0, length: 0, colonOffset: undefined, value: null };
}
