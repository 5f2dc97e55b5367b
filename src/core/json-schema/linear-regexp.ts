/**
 * Regular expressions from plugin schemas (`pattern`, `patternProperties`) run in RE2JS, an
 * engine whose matching time is linear in the input: with JavaScript's backtracking engine, one
 * pattern such as `^([a-z0-9]+-?)+$` and a 41-character input froze the whole server. RE2 has no
 * lookaround and no backreferences; a plugin file that uses them is told so when it loads
 * (linearPatternProblem), so nothing fails later, at call time.
 */
import type { RE2JS } from 're2js';
import { requireBundled } from '../bundled-module';

/** What Ajv calls a regular expression engine: a factory of objects with `test`. */
export interface LinearRegExpEngine {
  (pattern: string, flags: string): { test(input: string): boolean };
  /** Ajv's name for the factory in generated code; unused without standalone code. */
  code: string;
}

let engine: typeof RE2JS | undefined;

/**
 * RE2JS, loaded on first use, from dist/re2js.js in the bundles: start-up and servers with no
 * pattern never parse or run its 150 KB.
 */
function re2(): typeof RE2JS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  engine ??= requireBundled('re2js.js', () => require('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return engine;
}

/** Compiles a JSON Schema (ECMAScript) pattern for RE2: `(?<name>` and friends are translated. */
function compile(pattern: string): RE2JS {
  const RE2 = re2();
  return RE2.compile(RE2.translateRegExp(pattern));
}

/** Ajv's `code.regExp`: every schema pattern is compiled with RE2JS. Ajv passes the "u" flag. */
export const linearRegExp: LinearRegExpEngine = Object.assign(
  (pattern: string): { test(input: string): boolean } => {
    const compiled = compile(pattern);
    return { test: (input: string) => compiled.test(input) };
  },
  { code: 'linearRegExp' },
);

/** Why RE2 cannot run the pattern (lookaround, backreference, bad syntax), or undefined when it can. */
export function linearPatternProblem(pattern: string): string | undefined {
  try {
    compile(pattern);
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `the pattern ${JSON.stringify(pattern)} cannot be run by the linear-time regular expression engine (${reason}); lookahead, lookbehind and backreferences are not supported`;
  }
}

/** One match of a linear-time pattern: its groups by number (undefined when a group took no part). */
export type LinearMatch = readonly (string | undefined)[];

/**
 * Compiles an ECMAScript pattern from a user's file (a problem matcher's `regexp`) for RE2JS, or
 * throws with why it cannot run there. The search finds the first match anywhere in the input,
 * as `RegExp.prototype.exec` without the `g` flag does.
 */
export function linearSearch(pattern: string, flags = ''): (input: string) => LinearMatch | undefined {
  const RE2 = re2();
  const compiled = RE2.compile(RE2.translateRegExp(pattern), flags.includes('i') ? RE2.CASE_INSENSITIVE : 0);
  return (input) => {
    const matcher = compiled.matcher(input);
    if (!matcher.find()) {
      return undefined;
    }
    const groups: (string | undefined)[] = [];
    for (let index = 0; index <= matcher.groupCount(); index++) {
      groups.push(matcher.group(index) ?? undefined);
    }
    return groups;
  };
}
