/**
 * TypeScript without a build step: types are stripped when the plugin file loads, by Node's own
 * stripper (`module.stripTypeScriptTypes`, Node 22.13+ and the runtime of VS Code 1.101+), the one
 * behind `--experimental-strip-types`. Types become blanks, so every line and column of the output
 * is the same as in the module: stack traces point at the user's source. Syntax that stripping
 * cannot erase (enum, namespace, parameter properties) is a load error, as it is in Node.
 */
import * as nodeModule from 'node:module';

/** Where in the module, and what. Line and column are 1-based. */
export interface SourceProblem {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

type Strip = (code: string, options?: { readonly mode?: 'strip' }) => string;

/** Node's stripper, or undefined on a runtime older than Node 22.13 that has none. */
const nodeStrip = (nodeModule as unknown as { stripTypeScriptTypes?: Strip }).stripTypeScriptTypes;

/** The module as JavaScript, or where stripping its types failed. */
export function stripTypes(source: string, filename: string): { readonly code: string } | { readonly problem: SourceProblem } {
  if (nodeStrip === undefined) {
    const message = `TypeScript code tools need Node 22.13 or later (module.stripTypeScriptTypes); this is Node ${process.versions.node}: run the server with a newer Node, or write ${filename} as JavaScript (.js, .mjs)`;
    return { problem: { line: 1, column: 1, message } };
  }
  try {
    return { code: withoutExperimentalWarning(() => nodeStrip(source, { mode: 'strip' })) };
  } catch (error) {
    return { problem: problemOf(error, source) };
  }
}

/**
 * Where a syntax error is, for a module V8 refused with a SyntaxError that says only what (a
 * module's SyntaxError carries no position). Parsed as TypeScript, a superset of JavaScript's
 * syntax: only asked after V8 refused, so the parse never decides whether valid code runs.
 */
export function locateSyntaxError(source: string, filename: string): SourceProblem | undefined {
  const stripped = stripTypes(source, filename);
  return 'problem' in stripped ? stripped.problem : undefined;
}

/**
 * Runs `strip` with Node's one-time "stripTypeScriptTypes is an experimental feature" warning
 * dropped: the MCP server's stderr is what its users read as its log, and the warning tells them
 * nothing they can act on. Every other warning passes through.
 */
function withoutExperimentalWarning<T>(strip: () => T): T {
  const emitWarning = Reflect.get(process, 'emitWarning') as (...args: unknown[]) => void;
  const filtered = (warning: string | Error, ...rest: unknown[]): void => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (rest[0] !== 'ExperimentalWarning' || !text.includes('stripTypeScriptTypes')) {
      Reflect.apply(emitWarning, process, [warning, ...rest]);
    }
  };
  Reflect.set(process, 'emitWarning', filtered);
  try {
    return strip();
  } finally {
    Reflect.set(process, 'emitWarning', emitWarning);
  }
}

/**
 * Node's error says what in its message and where only in its stack: a first line `<file>:<line>`,
 * then the source lines with a caret line under the offending span (tabs shown as 4 spaces). The
 * column is read off the caret; without one (a span over several lines, or the end of the file)
 * it is the first character of the line.
 */
function problemOf(error: unknown, source: string): SourceProblem {
  const { message = String(error), stack = '' } = (typeof error === 'object' && error !== null ? error : {}) as { message?: string; stack?: string };
  const code = (error as { code?: string } | undefined)?.code;
  const text = code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX' ? `${message} (Node's type stripping erases types only; write it without TypeScript-only runtime syntax)` : message;
  const line = Number(/^[^\n]*:(\d+)\n/.exec(stack)?.[1] ?? 1);
  const sourceLine = source.split(/\r?\n/)[line - 1] ?? '';
  return { line, column: caretColumn(stack, sourceLine) ?? firstCharacterColumn(sourceLine), message: text };
}

/** The 1-based column (UTF-16 units, as editors count) under the snippet's first caret. */
function caretColumn(stack: string, sourceLine: string): number | undefined {
  const lines = stack.split('\n');
  const caretIndex = lines.findIndex((line) => /^\s*\^+\s*$/.test(line));
  const shown = lines[caretIndex - 1];
  if (caretIndex < 1 || shown === undefined) {
    return undefined;
  }
  const expanded = sourceLine.replace(/\t/g, '    ');
  if (!shown.endsWith(expanded)) {
    return undefined;
  }
  const caretAt = (lines[caretIndex] ?? '').indexOf('^') - (widthOf(shown) - widthOf(expanded));
  let width = 0;
  let offset = 0;
  for (const char of sourceLine) {
    if (width >= caretAt) {
      break;
    }
    width += char === '\t' ? 4 : widthOf(char);
    offset += char.length;
  }
  return offset + 1;
}

/** Terminal columns a text takes: wide characters (CJK, emoji) take two. */
function widthOf(text: string): number {
  let width = 0;
  for (const char of text) {
    const point = char.codePointAt(0) ?? 0;
    width += point >= 0x1100 && (point <= 0x115f || (point >= 0x2e80 && point <= 0xa4cf) || (point >= 0xac00 && point <= 0xd7a3) || (point >= 0xf900 && point <= 0xfaff) || (point >= 0xfe30 && point <= 0xfe4f) || (point >= 0xff00 && point <= 0xff60) || point >= 0x1f300) ? 2 : 1;
  }
  return width;
}

function firstCharacterColumn(sourceLine: string): number {
  return sourceLine.search(/\S|$/) + 1;
}
