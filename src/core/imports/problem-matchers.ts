/**
 * tasks.json problem matchers: the built-in `$tsc`, `$eslint-stylish`, `$gcc` and `$msCompile`,
 * and inline ones with `pattern`s (one line, or several with the last one `loop`ing, as
 * `$eslint-stylish` is), compiled once into a function from a task's output to structured
 * problems. The regular expressions come from the workspace, so they run in the linear-time
 * engine (json-schema/linear-regexp.ts): no pattern can stall the server on a long line.
 */
import * as path from 'node:path';
import { linearSearch } from '../json-schema/linear-regexp';
import { combineMatchers, matchLines, severityOf, type CompiledPattern, type FileLocation, type MatchedProblem, type PatternSpec, type ProblemMatcher } from './match-problems';

// What runs a compiled matcher lives in match-problems.ts; its types are known by this module's name too.
export { combineMatchers, matchProblems, matchProblemsInTurns, MAX_MATCH_CHECKS, type MatchedProblem, type MatchOutcome, type ProblemMatcher } from './match-problems';

/** The patterns of the built-in matchers, as VS Code defines them (src/vs/workbench/contrib/tasks/common/problemMatcher.ts). */
const BUILTIN_PATTERNS: Readonly<Record<string, { readonly patterns: readonly PatternSpec[]; readonly fileLocation: FileLocation['kind'] }>> = {
  $tsc: {
    patterns: [{ regexp: '^([^\\s].*)[\\(:](\\d+)[,:](\\d+)(?:\\):\\s+|\\s+-\\s+)(error|warning|info)\\s+TS(\\d+)\\s*:\\s*(.*)$', file: 1, line: 2, column: 3, severity: 4, code: 5, message: 6 }],
    fileLocation: 'relative',
  },
  '$eslint-stylish': {
    patterns: [
      { regexp: '^((?:[a-zA-Z]:)*[./\\\\]+.*?)$', file: 1 },
      { regexp: '^\\s+(\\d+):(\\d+)\\s+(error|warning|info)\\s+(.+?)(?:\\s\\s+(.*))?$', line: 1, column: 2, severity: 3, message: 4, code: 5, loop: true },
    ],
    fileLocation: 'absolute',
  },
  $gcc: {
    patterns: [{ regexp: '^(.*?):(\\d+):(\\d*):?\\s+(?:fatal\\s+)?(warning|error):\\s+(.*)$', file: 1, line: 2, column: 3, severity: 4, message: 5 }],
    fileLocation: 'autoDetect',
  },
  $msCompile: {
    patterns: [{ regexp: '^(?:\\s*\\d+>)?(\\S.*?)(?:\\((\\d+|\\d+,\\d+|\\d+,\\d+,\\d+,\\d+)\\))?\\s*:\\s+(?:(\\S+)\\s+)?((?:fatal +)?error|warning|info)\\s+(\\w+\\d+)?\\s*:\\s*(.*)$', kind: 'location', file: 1, location: 2, severity: 4, code: 5, message: 6 }],
    fileLocation: 'absolute',
  },
};
// $tsc-watch reads the same lines as $tsc (its begin/end patterns only matter to a background task).
const ALIASES: Readonly<Record<string, string>> = { '$tsc-watch': '$tsc' };

/** The names of the built-in matchers this module knows. */
export const BUILTIN_MATCHERS: readonly string[] = Object.keys(BUILTIN_PATTERNS);

/** What a matcher's relative paths are relative to: the task's folder and `${...}` already resolved. */
export interface MatcherContext {
  readonly folder: string;
  /** Resolves `${workspaceFolder}` and the like in a `fileLocation` base. */
  readonly resolve: (text: string) => string;
}

/** A compiled matcher, or why the task's `problemMatcher` value cannot be one. */
export type CompiledMatcher = { readonly matcher?: ProblemMatcher; readonly skipped: readonly string[] } | { readonly reason: string };

/**
 * Compiles a task's `problemMatcher` (a name, an inline object, or an array of either). Names of
 * matchers this module does not know (another extension's) are returned in `skipped`: the task
 * still runs, without their problems.
 */
export function compileProblemMatchers(value: unknown, context: MatcherContext): CompiledMatcher {
  const entries = value === undefined ? [] : Array.isArray(value) ? (value as unknown[]) : [value];
  const matchers: ProblemMatcher[] = [];
  const skipped: string[] = [];
  for (const entry of entries) {
    const compiled = compileOne(entry, context);
    if ('reason' in compiled) {
      return compiled;
    }
    if ('skip' in compiled) {
      skipped.push(compiled.skip);
    } else {
      matchers.push(compiled.matcher);
    }
  }
  const matcher = combineMatchers(matchers);
  return matcher === undefined ? { skipped } : { skipped, matcher };
}

function compileOne(entry: unknown, context: MatcherContext): { matcher: ProblemMatcher } | { skip: string } | { reason: string } {
  if (typeof entry === 'string') {
    const builtin = BUILTIN_PATTERNS[ALIASES[entry] ?? entry];
    return builtin === undefined ? { skip: entry } : build(entry, builtin.patterns, { kind: builtin.fileLocation, base: context.folder }, 'error');
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return { reason: `a problem matcher is a name such as "$tsc" or an object with a "pattern"; this one is ${JSON.stringify(entry)}` };
  }
  const spec = entry as Record<string, unknown>;
  const base = typeof spec['base'] === 'string' ? BUILTIN_PATTERNS[ALIASES[spec['base']] ?? spec['base']] : undefined;
  if (typeof spec['base'] === 'string' && base === undefined) {
    return { skip: spec['base'] };
  }
  const patterns = spec['pattern'] === undefined ? base?.patterns : patternsOf(spec['pattern']);
  if (patterns === undefined || typeof patterns === 'string') {
    return { reason: typeof patterns === 'string' ? patterns : 'the problem matcher has no "pattern" (and no "base" to take one from)' };
  }
  const fileLocation = fileLocationOf(spec['fileLocation'], base?.fileLocation ?? 'relative', context);
  if (typeof fileLocation === 'string') {
    return { reason: fileLocation };
  }
  const severity = severityOf(spec['severity']) ?? 'error';
  return build(typeof spec['base'] === 'string' ? `${spec['base']} (adjusted)` : 'an inline pattern', patterns, fileLocation, severity);
}

function patternsOf(value: unknown): readonly PatternSpec[] | string {
  if (typeof value === 'string') {
    const named = BUILTIN_PATTERNS[value];
    return named === undefined ? `the named pattern ${JSON.stringify(value)} is not known here (only the patterns of ${BUILTIN_MATCHERS.join(', ')})` : named.patterns;
  }
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  if (list.length === 0 || list.some((item) => typeof item !== 'object' || item === null || typeof (item as PatternSpec).regexp !== 'string')) {
    return 'every problem pattern needs a "regexp" string';
  }
  return list as PatternSpec[];
}

function fileLocationOf(value: unknown, fallback: FileLocation['kind'], context: MatcherContext): FileLocation | string {
  const [kind, base] = Array.isArray(value) ? (value as unknown[]) : [value ?? fallback];
  if (kind !== 'absolute' && kind !== 'relative' && kind !== 'autoDetect' && kind !== 'search') {
    return `the problem matcher's "fileLocation" ${JSON.stringify(value)} is not absolute, relative, autoDetect or search`;
  }
  const resolvedBase = typeof base === 'string' ? path.resolve(context.folder, context.resolve(base)) : context.folder;
  // "search" looks for the file under the base; relative to it is what it finds for a path the tool printed from there.
  return { kind: kind === 'search' ? 'autoDetect' : kind, base: resolvedBase };
}

function build(describe: string, patterns: readonly PatternSpec[], fileLocation: FileLocation, defaultSeverity: MatchedProblem['severity']): { matcher: ProblemMatcher } | { reason: string } {
  const compiled: CompiledPattern[] = [];
  for (const spec of patterns) {
    try {
      compiled.push({ spec, search: linearSearch(spec.regexp) });
    } catch (error) {
      return { reason: `the problem pattern ${JSON.stringify(spec.regexp)} cannot be run by the linear-time regular expression engine (${error instanceof Error ? error.message : String(error)}); lookahead, lookbehind and backreferences are not supported` };
    }
  }
  const shown = describe === 'an inline pattern' ? `inline pattern ${patterns.map((pattern) => `/${pattern.regexp}/`).join(' then ')}` : describe;
  return { matcher: { describe: shown, scan: (lines, budget) => matchLines(lines, compiled, { fileLocation, defaultSeverity, describe: shown, budget }) } };
}

