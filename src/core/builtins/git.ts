/**
 * How the built-in tools run git: an argv (never a shell), the folder as cwd, the run
 * context's timeout, output cap and cancellation, and an environment that keeps git quiet,
 * lock-free and stable to parse. Also the input checks every git tool shares.
 */
import * as path from 'node:path';
import { classifyOutcome, endedHow, ProcessEndedError } from '../process/outcome';
import type { LineReader } from '../process/read-lines';
import { runProcessLines } from '../process/read-lines';
import { runProcess } from '../process/run-process';
import type { ProcessOutcome, ProcessRequest } from '../process/run-process';
import { redactSecrets } from '../redact';
import { ToolInputError } from '../tool-errors';
import type { ToolRunContext, WorkspaceFolder } from '../types';
import type { GitConfigPair } from './git-env';
import { gitEnvironment } from './git-env';
import type { GitFilterCache } from './git-filter-cache';
import { checkedAlternatives } from './glob';

/** Thrown when the folder is not inside a git work tree; some tools fall back on it. */
export class NotGitRepositoryError extends Error {
  constructor(folderPath: string) {
    super(`${folderPath} is not a git repository`);
    this.name = 'NotGitRepositoryError';
  }
}

/** What one git run gave back. */
export interface GitOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  /** True when stdout hit the cap and its tail was dropped. */
  readonly truncated: boolean;
}

/** How runGit treats a run beyond the argv. */
export interface GitOptions {
  /** Exit codes that are not errors (default [0]); `git grep` uses 1 for "no match". */
  readonly okExitCodes?: readonly number[];
  /**
   * Switch off every filter driver in the repository's config (status and diff run a changed
   * file through its `clean` filter to compare it), remembered in this cache (the tool's, from
   * its dependencies). See filterOverrides.
   */
  readonly filtersOff?: GitFilterCache;
}

/**
 * Runs `git <args>` in the folder. Throws NotGitRepositoryError when git says the folder is
 * not a repository, an Error when git could not run (missing, the work tree does not contain the
 * folder) or refused the request (an exit code not in okExitCodes, with git's message), and a
 * ProcessEndedError when it ran and ended badly (timeout, cancellation, a signal): the tool's
 * error result (process/outcome.ts).
 */
export async function runGit(
  folder: WorkspaceFolder,
  args: readonly string[],
  context: ToolRunContext,
  options: GitOptions = {},
): Promise<GitOutput> {
  const overrides = options.filtersOff === undefined ? [] : await filterDriverOverrides(folder, context, options.filtersOff);
  const outcome = await runProcess(gitRequest(folder, args, context, overrides));
  throwOnFailure(outcome, folder, args, context, options);
  return { stdout: outcome.stdout, stderr: outcome.stderr, exitCode: outcome.exitCode, truncated: outcome.stdoutDroppedBytes > 0 };
}

/** What a line-by-line git run gave back (see runGitLines). */
export interface GitLinesOutput {
  readonly exitCode: number;
  /** True when the reader had enough and git was stopped before it finished. */
  readonly stoppedEarly: boolean;
}

/**
 * Runs `git <args>` and hands stdout to `reader` line by line; git is killed as soon as the
 * reader returns false. Fails as runGit does, except that stopping early is not a failure.
 */
export async function runGitLines(
  folder: WorkspaceFolder,
  args: readonly string[],
  context: ToolRunContext,
  reader: LineReader,
  options: Omit<GitOptions, 'filtersOff'> = {},
): Promise<GitLinesOutput> {
  const { outcome, stoppedEarly } = await runProcessLines(gitRequest(folder, args, context), reader);
  if (stoppedEarly) {
    return { exitCode: outcome.exitCode ?? 0, stoppedEarly };
  }
  throwOnFailure(outcome, folder, args, context, options);
  return { exitCode: outcome.exitCode ?? 0, stoppedEarly };
}


/** Throws the error a failed git run means (see runGit); returns when the run succeeded. */
function throwOnFailure(
  outcome: ProcessOutcome,
  folder: WorkspaceFolder,
  args: readonly string[],
  context: ToolRunContext,
  options: GitOptions,
): asserts outcome is ProcessOutcome & { exitCode: number } {
  const command = `git ${args[0] ?? ''}`;
  const end = classifyOutcome(outcome, context.limits.timeoutMs, options.okExitCodes);
  if (end.kind === 'not-started') {
    throw new Error(spawnMessage(folder, end.error));
  }
  if (end.kind === 'timeout' || end.kind === 'cancelled' || end.kind === 'signal') {
    throw new ProcessEndedError(`${command} ${endedHow(end)}.`, end);
  }
  if (end.kind === 'exit-code') {
    // 128 from most commands; `git diff` outside a repository prints usage and exits 129.
    if (/not a git repository/i.test(outcome.stderr)) {
      throw new NotGitRepositoryError(folder.path);
    }
    if (outsideWorkTree(outcome.stderr, folder)) {
      throw new Error(
        `The repository's work tree (set by core.worktree or a .git file) does not contain the workspace folder ${folder.path}: refused, so that nothing outside the folder is read.`,
      );
    }
    // git refused what it was asked (a bad ref, pattern or pathspec): thrown, as wrong input is.
    // git's message may quote a remote URL with a token in it.
    const detail = redactSecrets(outcome.stderr.trim()) || `exit code ${end.exitCode}`;
    throw new Error(`${command} failed in ${folder.path}: ${detail}`);
  }
}

/**
 * Git's answers to a pathspec anchored at the folder (folderPathspec) when the work tree does not
 * contain the folder: "outside repository at", or for a glob "Invalid path '<folder>/...'".
 */
function outsideWorkTree(stderr: string, folder: WorkspaceFolder): boolean {
  return /is outside repository at '/.test(stderr) || stderr.includes(`Invalid path '${absoluteFolder(folder)}/`);
}

/** One git process in the folder, in gitEnvironment with `config` added, and the run context's limits. */
function gitRequest(
  folder: WorkspaceFolder,
  args: readonly string[],
  context: ToolRunContext,
  config: readonly GitConfigPair[] = [],
): ProcessRequest {
  return {
    file: 'git',
    args,
    cwd: folder.path,
    env: gitEnvironment(context.env, config),
    timeoutMs: context.limits.timeoutMs,
    maxOutputBytes: context.limits.maxOutputBytes,
    signal: context.signal,
    // No own process group: setsid per spawn made git-status ~1.35x a bare `git status`. With
    // the environment above git starts no helper program, so killing git itself is enough.
    processGroup: false,
  };
}

/**
 * Overrides that switch off every filter driver configured for the folder (status and diff run a
 * changed file through its `clean` filter to compare it). Reading the names takes `git config`,
 * which runs nothing, and is remembered while no config file changes (git-filter-cache.ts), so a
 * warm call starts one git process. (Git LFS files whose stat changed may show as modified.)
 */
function filterDriverOverrides(folder: WorkspaceFolder, context: ToolRunContext, filterCache: GitFilterCache): Promise<GitConfigPair[]> {
  return filterCache.overridesFor(folder.path, context.env, async (args) => (await runProcess(gitRequest(folder, args, context))).stdout);
}

function spawnMessage(folder: WorkspaceFolder, spawnError: string): string {
  if (/ENOENT/.test(spawnError)) {
    // spawn reports a missing cwd as ENOENT too, so say which one it is not.
    return `Could not run git in ${folder.path}: git is not installed or not on PATH, or the folder does not exist.`;
  }
  return `Could not run git in ${folder.path}: ${spawnError}`;
}

/**
 * Checks a path the model gave and returns it relative to the folder ('.' for the folder).
 * Refuses a leading `-` (it would be read as an option, e.g. `--output=/tmp/x`), NUL bytes,
 * and anything that resolves outside the folder (`..`, `/etc`). Lexical: git does not follow
 * symlinks out of the work tree for pathspecs, so no realpath is needed here.
 */
export function folderRelativePath(value: string, folder: WorkspaceFolder, what = 'path'): string {
  if (value.startsWith('-')) {
    throw new ToolInputError(`The ${what} "${value}" starts with "-", which git would read as an option. Refused.`);
  }
  if (value.includes('\0')) {
    throw new ToolInputError(`The ${what} contains a NUL byte. Refused.`);
  }
  const base = path.resolve(folder.path);
  const relative = path.relative(base, path.resolve(base, value));
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    throw new ToolInputError(`The ${what} "${value}" is outside the workspace folder ${folder.path}. Refused.`);
  }
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

/**
 * Pathspecs are absolute, anchored at the folder: git refuses them ("outside repository") when a
 * `core.worktree` or `.git` file the model wrote points the work tree somewhere that does not
 * contain the folder, instead of quietly listing that other tree. Output paths stay relative.
 */
function absoluteFolder(folder: WorkspaceFolder): string {
  return path.resolve(folder.path).split(path.sep).join('/');
}

/** `:(literal)<folder>/<relative>`: wildcards and `:(magic)` in the user's path are not interpreted. */
export function folderPathspec(folder: WorkspaceFolder, relative = '.'): string {
  const base = absoluteFolder(folder);
  return `:(literal)${relative === '.' ? base : `${base}/${relative}`}`;
}

/** The glob's `:(glob)` pathspecs (see glob.ts), anchored at the folder with its own wildcards escaped. */
export function folderGlobPathspecs(folder: WorkspaceFolder, glob: string): string[] {
  const base = absoluteFolder(folder).replace(/[*?[\]\\]/g, '\\$&');
  return checkedAlternatives(glob).flatMap((one) => [`:(glob)${base}/${one}`, `:(glob)${base}/${one}/**`]);
}

/**
 * True for a path git printed relative to the folder that stays inside it. Results are filtered
 * with it because a `core.worktree` or `.git` file the model wrote could make git look elsewhere.
 */
export function insideFolder(relative: string): boolean {
  return relative !== '..' && !relative.startsWith('../') && !relative.startsWith('/');
}
