/**
 * TypeScript without a build step: types are stripped when the plugin file loads, by amaro (the
 * stripper Node itself uses for `--experimental-strip-types`), in strip-only mode. Types become
 * blanks, so every line and column of the output is the same as in the module: stack traces point
 * at the user's source. Syntax that strip-only cannot erase (enum, namespace, parameter
 * properties) is a load error, as it is in Node.
 *
 * amaro is 3.7 MB of WebAssembly: the bundles load it from its own file (dist/amaro.js) on the
 * first TypeScript module, so a server without code tools never parses it.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** Where in the module, and what. Line and column are 1-based. */
export interface SourceProblem {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** The part of amaro's API used here. */
interface Amaro {
  transformSync(source: string, options: { readonly mode: 'strip-only'; readonly filename?: string }): { readonly code: string };
}

/** amaro's error for a source it cannot strip: 0-based column, 1-based line. */
interface SwcError {
  readonly code?: string;
  readonly message?: string;
  readonly startLine?: number;
  readonly startColumn?: number;
}

let amaro: Amaro | undefined;

function loadAmaro(): Amaro {
  if (amaro === undefined) {
    // Bundled: dist/amaro.js beside this code. From source (tests): the package itself.
    const bundled = path.join(__dirname, 'amaro.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    amaro = (existsSync(bundled) ? require(bundled) : require('amaro')) as Amaro;
  }
  return amaro;
}

/** The module as JavaScript, or where stripping its types failed. */
export function stripTypes(source: string, filename: string): { readonly code: string } | { readonly problem: SourceProblem } {
  try {
    return { code: loadAmaro().transformSync(source, { mode: 'strip-only', filename }).code };
  } catch (error) {
    return { problem: problemOf(error) };
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

function problemOf(error: unknown): SourceProblem {
  const swc = (typeof error === 'object' && error !== null ? error : {}) as SwcError;
  const message = swc.message ?? String(error);
  const kind = swc.code === 'UnsupportedSyntax' ? `${message} (Node's type stripping erases types only; write it without TypeScript-only runtime syntax)` : message;
  return { line: swc.startLine ?? 1, column: (swc.startColumn ?? 0) + 1, message: kind };
}
