/**
 * tasks.json problem matchers: the built-in `$tsc`, `$eslint-stylish`, `$gcc` and `$msCompile`,
 * and inline ones with `pattern`s (one line, or several with the last one `loop`ing, as
 * `$eslint-stylish` is), compiled once into a function from a task's output to structured
 * problems. The regular expressions come from the workspace, so they run in the linear-time
 * engine (json-schema/linear-regexp.ts): no pattern can stall the server on a long line.
 */
import * as path from 'node:path';
import { linearSearch, type LinearMatch } from '../json-schema/linear-regexp';
import { finishInTurns, finishNow, type Pausable } from '../turns';

/** One problem a task's output reports. */
export interface MatchedProblem {
  /** The file as the matcher resolves it (absolute when its base is known). */
  readonly file: string;
  readonly line: number;
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly code?: string;
}

/**
 * Most checks of one pattern against one line a task's matchers make on one output (a line
 * longer than CHECK_CHARS counts once per CHECK_CHARS). The patterns come from the workspace:
 * 301 of them over 1 MB of output took 21 s of the server's thread. Real matchers have one or
 * two patterns, so this reads 100,000 lines of compiler output.
 */
export const MAX_MATCH_CHECKS = 200_000;
const CHECK_CHARS = 1_000;

/** What a task's matchers may still spend on one output, and where they stopped when it ran out. */
export interface MatchBudget {
  left: number;
  stopped?: { readonly matcher: string; readonly line: number };
}

/** The problems found in one output, and, when the budget ran out, what says so. */
export interface MatchOutcome {
  readonly problems: readonly MatchedProblem[];
  readonly stopped?: string;
}

/** A compiled matcher: what it is, in words, and the work that reads the lines of an output. */
export interface ProblemMatcher {
  /** `$tsc`, or `inline pattern /.../`, joined by `, ` for several. */
  readonly describe: string;
  /** The problems of `lines`, each check taken from `budget`; pausable between checks (turns.ts). */
  scan(lines: readonly string[], budget: MatchBudget): Pausable<MatchedProblem[]>;
}

/** The problems of `output`, at once (tests, small outputs). */
export function matchProblems(matcher: ProblemMatcher, output: string): MatchOutcome {
  return finishNow(scanOutput(matcher, output));
}

/** The problems of `output`, giving the event loop a turn every few ms: the server keeps answering. */
export function matchProblemsInTurns(matcher: ProblemMatcher, output: string): Promise<MatchOutcome> {
  return finishInTurns(scanOutput(matcher, output));
}

function* scanOutput(matcher: ProblemMatcher, output: string): Pausable<MatchOutcome> {
  const lines = splitLines(output);
  const budget: MatchBudget = { left: MAX_MATCH_CHECKS };
  const problems = yield* matcher.scan(lines, budget);
  const stopped = budget.stopped;
  if (stopped === undefined) {
    return { problems };
  }
  return {
    problems,
    stopped:
      `the problem matcher ${stopped.matcher} stopped at line ${stopped.line} of ${lines.length}: reading on would take more than ` +
      `${MAX_MATCH_CHECKS} checks of a pattern against a line; problems after that line are not reported`,
  };
}

/** Several matchers as one: each reads the whole output in turn, from one budget. */
export function combineMatchers(matchers: readonly ProblemMatcher[]): ProblemMatcher | undefined {
  if (matchers.length <= 1) {
    return matchers[0];
  }
  return {
    describe: matchers.map((matcher) => matcher.describe).join(', '),
    *scan(lines, budget) {
      const problems: MatchedProblem[] = [];
      for (const matcher of matchers) {
        problems.push(...(yield* matcher.scan(lines, budget)));
      }
      return problems;
    },
  };
}

interface PatternSpec {
  readonly regexp: string;
  readonly kind?: string;
  readonly file?: number;
  readonly location?: number;
  readonly line?: number;
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly severity?: number;
  readonly code?: number;
  readonly message?: number;
  readonly loop?: boolean;
}

type FileLocation = { readonly kind: 'absolute' | 'relative' | 'autoDetect'; readonly base: string };

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

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

function splitLines(output: string): string[] {
  return output.replace(ANSI, '').split(/\r\n|\r|\n/);
}

type Fields = Partial<Record<'file' | 'line' | 'column' | 'endLine' | 'endColumn' | 'severity' | 'code' | 'message', string>>;

/** A matcher's words short enough for one line (301 inline patterns are 3 KB of them). */
function shortened(describe: string): string {
  return describe.length <= 80 ? describe : `${describe.slice(0, 79)}…`;
}

type CompiledPattern = { readonly spec: PatternSpec; readonly search: (line: string) => LinearMatch | undefined };

/** What a scan of one matcher needs besides the lines and patterns. */
interface ScanScope {
  readonly fileLocation: FileLocation;
  readonly defaultSeverity: MatchedProblem['severity'];
  readonly describe: string;
  readonly budget: MatchBudget;
}

/**
 * Every problem: the first pattern starts one, the next lines must match the next patterns; a
 * last `loop` pattern reports one per line it matches. Each check is paid from the budget, and
 * the scan may pause after each (turns.ts); when the budget is spent it stops and says where.
 */
function* matchLines(lines: readonly string[], patterns: readonly CompiledPattern[], scope: ScanScope): Pausable<MatchedProblem[]> {
  const problems: MatchedProblem[] = [];
  const last = patterns.length - 1;
  const { budget } = scope;
  const check = (pattern: CompiledPattern | undefined, at: number): LinearMatch | undefined | 'spent' => {
    const line = lines[at] ?? '';
    if (budget.left <= 0) {
      budget.stopped ??= { matcher: shortened(scope.describe), line: at + 1 };
      return 'spent';
    }
    budget.left -= Math.max(1, Math.ceil(line.length / CHECK_CHARS));
    return pattern?.search(line);
  };
  for (let start = 0; start < lines.length; start++) {
    let fields: Fields = {};
    let index = 0;
    let at = start;
    for (; index < last && at < lines.length; index++, at++) {
      const found = check(patterns[index], at);
      yield;
      if (found === 'spent') {
        return problems;
      }
      if (found === undefined) {
        break;
      }
      fields = { ...fields, ...fieldsOf(patterns[index]?.spec, found, patterns.length === 1) };
    }
    if (index < last) {
      continue;
    }
    const final = patterns[last];
    const loops = final?.spec.loop === true;
    let matchedAny = false;
    for (; at < lines.length; at++) {
      const found = check(final, at);
      yield;
      if (found === 'spent') {
        return problems;
      }
      if (found === undefined) {
        break;
      }
      matchedAny = true;
      const problem = problemOf({ ...fields, ...fieldsOf(final?.spec, found, patterns.length === 1) }, scope.fileLocation, scope.defaultSeverity);
      if (problem !== undefined) {
        problems.push(problem);
      }
      if (!loops) {
        break;
      }
    }
    if (matchedAny && patterns.length > 1) {
      start = at - (loops ? 1 : 0);
    }
  }
  return problems;
}

/** The fields one pattern's match gives; a lone pattern takes VS Code's default group numbers. */
function fieldsOf(spec: PatternSpec | undefined, found: LinearMatch, alone: boolean): Fields {
  if (spec === undefined) {
    return {};
  }
  const usesLocation = spec.location !== undefined;
  const defaults = alone ? { file: 1, ...(usesLocation ? { message: 4 } : { line: 2, column: 3, message: 5 }) } : {};
  const groups = { ...defaults, ...spec };
  const fields: Fields = {};
  for (const key of ['file', 'line', 'column', 'endLine', 'endColumn', 'severity', 'code', 'message'] as const) {
    const group = groups[key];
    const value = typeof group === 'number' ? found[group] : undefined;
    if (value !== undefined && value !== '') {
      fields[key] = value;
    }
  }
  const location = typeof groups.location === 'number' ? found[groups.location] : undefined;
  if (location !== undefined && location !== '') {
    const [line, column, endLine, endColumn] = location.split(',');
    Object.assign(fields, { line, column, endLine, endColumn });
  }
  return fields;
}

function problemOf(fields: Fields, fileLocation: FileLocation, defaultSeverity: MatchedProblem['severity']): MatchedProblem | undefined {
  const line = numberOf(fields.line);
  if (fields.file === undefined || line === undefined || fields.message === undefined) {
    return undefined;
  }
  const file = fields.file.trim();
  const absolute = path.isAbsolute(file) || path.win32.isAbsolute(file);
  const optional = (key: 'column' | 'endLine' | 'endColumn'): Partial<MatchedProblem> => {
    const value = numberOf(fields[key]);
    return value === undefined ? {} : { [key]: value };
  };
  return {
    file: fileLocation.kind === 'absolute' || absolute ? file : path.resolve(fileLocation.base, file),
    line,
    ...optional('column'),
    ...optional('endLine'),
    ...optional('endColumn'),
    severity: severityOf(fields.severity) ?? defaultSeverity,
    message: fields.message,
    ...(fields.code === undefined ? {} : { code: fields.code }),
  };
}

function numberOf(text: string | undefined): number | undefined {
  const value = text === undefined ? NaN : Number.parseInt(text, 10);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function severityOf(value: unknown): MatchedProblem['severity'] | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  const text = value.toLowerCase();
  if (text.includes('error')) {
    return 'error';
  }
  if (text.startsWith('warn')) {
    return 'warning';
  }
  return text.startsWith('info') || text === 'hint' || text === 'note' ? 'info' : undefined;
}
