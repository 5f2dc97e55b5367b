/**
 * What a task's problem matchers (problem-matchers.ts compiles them) do with its output: every
 * check of a pattern against a line is paid from one budget per output, and the scan can pause
 * between checks (turns.ts), so 301 patterns over a megabyte of output neither stall the server
 * nor run on without end; past the budget the outcome says where the matcher stopped.
 */
import * as path from 'node:path';
import type { LinearMatch } from '../json-schema/linear-regexp';
import { finishInTurns, finishNow, type Pausable } from '../turns';
import type { ToolResult } from '../types';

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

export interface PatternSpec {
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

export type FileLocation = { readonly kind: 'absolute' | 'relative' | 'autoDetect'; readonly base: string };

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

function splitLines(output: string): string[] {
  return output.replace(ANSI, '').split(/\r\n|\r|\n/);
}

type Fields = Partial<Record<'file' | 'line' | 'column' | 'endLine' | 'endColumn' | 'severity' | 'code' | 'message', string>>;

/** A matcher's words short enough for one line (301 inline patterns are 3 KB of them). */
function shortened(describe: string): string {
  return describe.length <= 80 ? describe : `${describe.slice(0, 79)}…`;
}

export type CompiledPattern = { readonly spec: PatternSpec; readonly search: (line: string) => LinearMatch | undefined };

/** What a scan of one matcher needs besides the lines and patterns. */
export interface ScanScope {
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
export function* matchLines(lines: readonly string[], patterns: readonly CompiledPattern[], scope: ScanScope): Pausable<MatchedProblem[]> {
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

export function severityOf(value: unknown): MatchedProblem['severity'] | undefined {
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

/**
 * The result with the problems its matcher found as `structured.problems`; when the matcher ran
 * out of its budget (problem-matchers.ts), `structured.problemsStopped` and a last line of the
 * text say where it stopped, so no one takes a partial list for all the problems.
 */
export function withProblems(result: ToolResult, outcome: MatchOutcome): ToolResult {
  const structured = { ...(result.structured ?? {}), problems: outcome.problems, ...(outcome.stopped === undefined ? {} : { problemsStopped: outcome.stopped }) };
  const note = outcome.stopped === undefined ? undefined : `${result.text.endsWith('\n') || result.text === '' ? '' : '\n'}[${outcome.stopped}]`;
  return { ...result, ...(note === undefined ? {} : { text: `${result.text}${note}` }), structured };
}
