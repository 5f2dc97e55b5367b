/**
 * The two programs search-text can run, with one meaning: tracked files and untracked files that
 * are not ignored, binaries skipped, symlinks not followed, the glob's rules (glob.ts), case and
 * literal/regex as asked. ripgrep is used when the machine has one (VS Code ships it; `rg` on
 * PATH; WORKSPACE_TOOLS_RIPGREP names one or turns it off), because it is the fastest; otherwise
 * `git grep`. What differs is written in docs/builtin-tools.md#built-in-tools: ripgrep's regex dialect is Rust's, not
 * POSIX ERE, and a tracked file that matches .gitignore is searched by git only.
 *
 * Both report matches line by line as `path:line:text` to a LineReader, which stops the program
 * once it has enough.
 */
import { statSync } from 'node:fs';
import * as path from 'node:path';
import type { Line } from '../process/line-splitter';
import { classifyOutcome, endedHow, ProcessEndedError } from '../process/outcome';
import { runProcessLines } from '../process/read-lines';
import { redactSecrets } from '../redact';
import type { ToolRunContext, WorkspaceFolder } from '../types';
import { ripgrepFromEnvironment } from './dependencies';
import { folderGlobPathspecs, folderPathspec, NotGitRepositoryError, runGitLines } from './git';
import { checkedAlternatives, compileGlob, globPathspecs } from './glob';

/** What to find. */
export interface SearchQuery {
  readonly query: string;
  readonly regex: boolean;
  readonly caseSensitive: boolean;
  readonly glob: string | undefined;
}

/** One matching line; `cut` when it was longer than what was read of it. */
export interface SearchMatch {
  readonly path: string;
  readonly line: number;
  readonly text: string;
  readonly cut: boolean;
}

/** How a search ended. `onMatch` saw every match in order until it returned false. */
export interface SearchOutcome {
  readonly engine: SearchEngineName;
  readonly stoppedEarly: boolean;
}

export type SearchEngineName = 'ripgrep' | 'git grep';

/** The longest line read from the program; the tool shows far less of it. */
const MAX_LINE_BYTES = 4096;
const NO_MATCH = 1;

/**
 * Runs the search with ripgrep at `rg`, or `git grep` when it is undefined. `onMatch` receives
 * each match (path relative to the folder, `cut` when the line was longer than MAX_LINE_BYTES)
 * and returns false once it has enough.
 */
export function search(
  folder: WorkspaceFolder,
  query: SearchQuery,
  context: ToolRunContext,
  rg: string | undefined,
  onMatch: (match: SearchMatch) => boolean,
): Promise<SearchOutcome> {
  return rg === undefined ? searchWithGit(folder, query, context, onMatch) : searchWithRipgrep(rg, folder, query, context, onMatch);
}

/** The ripgrep `env` chooses (dependencies.ts ripgrepFromEnvironment), looked up afresh. */
export function ripgrepPath(env: Readonly<Record<string, string | undefined>>): string | undefined {
  return ripgrepFromEnvironment()(env);
}

/** `git grep` in a repository, `git grep --no-index` (node_modules skipped) outside one. */
async function searchWithGit(
  folder: WorkspaceFolder,
  query: SearchQuery,
  context: ToolRunContext,
  onMatch: (match: SearchMatch) => boolean,
): Promise<SearchOutcome> {
  const reader = {
    maxLineBytes: MAX_LINE_BYTES,
    onLine: (line: Line): boolean => {
      const match = fromGitGrep(line);
      return match === undefined || match.path.startsWith('../') || onMatch(match);
    },
  };
  const ok = { okExitCodes: [0, NO_MATCH] };
  try {
    const pathspecs = query.glob === undefined ? [folderPathspec(folder)] : folderGlobPathspecs(folder, query.glob);
    const { stoppedEarly } = await runGitLines(folder, grepArgs(query, ['--untracked'], pathspecs), context, reader, ok);
    return { engine: 'git grep', stoppedEarly };
  } catch (error) {
    if (!(error instanceof NotGitRepositoryError)) {
      throw error;
    }
    const globs = query.glob === undefined ? [] : globPathspecs(query.glob);
    const pathspecs = [...globs, ':(exclude,glob)**/node_modules/**'];
    const args = grepArgs(query, ['--no-index', '--exclude-standard'], pathspecs);
    const { stoppedEarly } = await runGitLines(folder, args, context, reader, ok);
    return { engine: 'git grep', stoppedEarly };
  }
}

/** The grep argv; `-e` keeps a query such as `--output=x` a pattern, never an option. */
function grepArgs(query: SearchQuery, scope: readonly string[], pathspecs: readonly string[]): string[] {
  return [
    'grep',
    ...scope,
    '-n',
    '-z',
    '-I',
    '--no-color',
    query.regex ? '-E' : '-F',
    ...(query.caseSensitive ? [] : ['-i']),
    '-e',
    query.query,
    '--',
    ...pathspecs,
  ];
}

/**
 * ripgrep over the folder. A glob is not passed as `--glob`, because ripgrep's globs override
 * .gitignore (an ignored `*.log` would be searched): the walk starts at each alternative's
 * literal directory (`src/` for `src/**\/*.ts`) and every path is checked with glob.ts's matcher.
 */
async function searchWithRipgrep(
  rg: string,
  folder: WorkspaceFolder,
  query: SearchQuery,
  context: ToolRunContext,
  onMatch: (match: SearchMatch) => boolean,
): Promise<SearchOutcome> {
  const matcher = query.glob === undefined ? undefined : compileGlob(query.glob);
  const roots = query.glob === undefined ? ['./'] : searchRoots(folder, checkedAlternatives(query.glob));
  if (roots.length === 0) {
    return { engine: 'ripgrep', stoppedEarly: false };
  }
  const args = [
    '--no-config',
    '--no-messages',
    '--no-heading',
    '--with-filename',
    '--line-number',
    '--null',
    '--color=never',
    // ripgrep skips hidden files by default; git does not. .git itself is never searched.
    '--hidden',
    '--glob=!.git',
    // Only .gitignore and git's excludes, as git grep: not .ignore or .rgignore files.
    '--no-ignore-dot',
    '--no-require-git',
    ...(insideGitRepository(folder.path) ? [] : ['--glob=!node_modules/']),
    ...(query.regex ? [] : ['--fixed-strings']),
    ...(query.caseSensitive ? ['--case-sensitive'] : ['--ignore-case']),
    // One argument: a query such as `--output=x` stays the pattern, never an option.
    `--regexp=${query.query}`,
    '--',
    ...roots,
  ];
  const { outcome, stoppedEarly } = await runProcessLines(
    {
      file: rg,
      args,
      cwd: folder.path,
      env: context.env,
      timeoutMs: context.limits.timeoutMs,
      maxOutputBytes: context.limits.maxOutputBytes,
      signal: context.signal,
      processGroup: false,
    },
    {
      maxLineBytes: MAX_LINE_BYTES,
      onLine: (line) => {
        const match = fromRipgrep(line);
        if (match === undefined || (matcher !== undefined && !matcher.matches(match.path))) {
          return true;
        }
        return onMatch(match);
      },
    },
  );
  if (stoppedEarly) {
    return { engine: 'ripgrep', stoppedEarly };
  }
  // The rule of process/outcome.ts: could not start, or a refused request (an invalid pattern:
  // exit code 2), is thrown; timed out, cancelled or killed is the tool's error result.
  const end = classifyOutcome(outcome, context.limits.timeoutMs, [0, NO_MATCH]);
  if (end.kind === 'not-started') {
    throw new Error(`Could not run ripgrep (${rg}): ${end.error}`);
  }
  if (end.kind === 'exit-code') {
    const detail = redactSecrets(outcome.stderr.trim()) || `exit code ${end.exitCode}`;
    throw new Error(`ripgrep failed in ${folder.path}: ${detail}`);
  }
  if (end.kind !== 'ok') {
    throw new ProcessEndedError(`ripgrep ${endedHow(end)}.`, end);
  }
  return { engine: 'ripgrep', stoppedEarly: false };
}

/** `path\0line\0text` (git grep -z -n) as a match. */
function fromGitGrep(line: Line): SearchMatch | undefined {
  const first = line.text.indexOf('\0');
  const second = first === -1 ? -1 : line.text.indexOf('\0', first + 1);
  if (second === -1) {
    return undefined;
  }
  return { path: line.text.slice(0, first), line: Number(line.text.slice(first + 1, second)), text: line.text.slice(second + 1), cut: line.cut };
}

/** `./path\0line:text` (rg --null -n) as a match; a path outside the folder is dropped. */
function fromRipgrep(line: Line): SearchMatch | undefined {
  const nul = line.text.indexOf('\0');
  const colon = nul === -1 ? -1 : line.text.indexOf(':', nul + 1);
  if (colon === -1) {
    return undefined;
  }
  const file = line.text.slice(0, nul).replace(/^\.\//, '');
  if (file === '..' || file.startsWith('../')) {
    return undefined;
  }
  return { path: file, line: Number(line.text.slice(nul + 1, colon)), text: line.text.slice(colon + 1), cut: line.cut };
}

/**
 * The directories where the glob's alternatives can match: each one's leading segments without
 * wildcards, `./` when one starts with a wildcard; directories that do not exist are dropped.
 */
function searchRoots(folder: WorkspaceFolder, alternatives: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const alternative of alternatives) {
    const segments = alternative.split('/');
    const literal: string[] = [];
    for (const segment of segments.slice(0, -1)) {
      if (/[*?[\\]/.test(segment)) {
        break;
      }
      literal.push(segment);
    }
    roots.add(literal.length === 0 ? './' : `./${literal.join('/')}/`);
  }
  if (roots.has('./')) {
    return ['./'];
  }
  return [...roots].filter((root) => {
    try {
      return statSync(path.join(folder.path, root)).isDirectory();
    } catch {
      return false;
    }
  });
}

/** Whether the folder or a parent has `.git`: decides whether node_modules is skipped by name. */
function insideGitRepository(folderPath: string): boolean {
  for (let dir = path.resolve(folderPath); ; dir = path.dirname(dir)) {
    try {
      statSync(path.join(dir, '.git'));
      return true;
    } catch {
      if (path.dirname(dir) === dir) {
        return false;
      }
    }
  }
}
