/**
 * How the built-in tools run git: an argv (never a shell), the folder as cwd, the run
 * context's timeout, output cap and cancellation, and an environment that keeps git quiet,
 * lock-free and stable to parse. Also the input checks every git tool shares.
 */
import * as path from 'node:path';
import { runProcess } from '../process/run-process';
import type { ProcessOutcome } from '../process/run-process';
import type { ToolInput, ToolRunContext, WorkspaceFolder } from '../types';

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
   * file through its `clean` filter to compare it). See filterOverrides.
   */
  readonly noFilters?: boolean;
}

/**
 * Config for every run: paths printed as they are (not octal-quoted), and no fsmonitor hook,
 * because a read-only tool must not run a program named in the repository's own config.
 */
const GIT_CONFIG_ARGS = ['-c', 'core.quotepath=off', '-c', 'core.fsmonitor=false'];

/**
 * Runs `git <args>` in the folder. Throws NotGitRepositoryError when git says the folder is
 * not a repository, and an Error with git's message for any other failure (timeout,
 * cancellation, git missing, an exit code not in okExitCodes).
 */
export async function runGit(
  folder: WorkspaceFolder,
  args: readonly string[],
  context: ToolRunContext,
  options: GitOptions = {},
): Promise<GitOutput> {
  const overrides = options.noFilters === true ? await filterOverrides(folder, context) : [];
  const outcome = await spawnGit(folder, [...overrides, ...args], context);
  const command = `git ${args[0] ?? ''}`;
  if (outcome.cancelled) {
    throw new Error(`${command} was cancelled.`);
  }
  if (outcome.timedOut) {
    throw new Error(`${command} timed out after ${context.limits.shellTimeoutMs} ms.`);
  }
  if (outcome.spawnError !== undefined || outcome.exitCode === null) {
    throw new Error(spawnMessage(folder, outcome.spawnError));
  }
  const ok = options.okExitCodes ?? [0];
  if (!ok.includes(outcome.exitCode)) {
    // 128 from most commands; `git diff` outside a repository prints usage and exits 129.
    if (/not a git repository/i.test(outcome.stderr)) {
      throw new NotGitRepositoryError(folder.path);
    }
    const detail = outcome.stderr.trim() || `exit code ${outcome.exitCode}`;
    throw new Error(`${command} failed in ${folder.path}: ${detail}`);
  }
  return { stdout: outcome.stdout, stderr: outcome.stderr, exitCode: outcome.exitCode, truncated: outcome.stdoutDroppedBytes > 0 };
}

/** One git process in the folder, with GIT_CONFIG_ARGS first and the run context's limits. */
function spawnGit(folder: WorkspaceFolder, args: readonly string[], context: ToolRunContext): Promise<ProcessOutcome> {
  return runProcess({
    file: 'git',
    args: [...GIT_CONFIG_ARGS, ...args],
    cwd: folder.path,
    env: gitEnv(context.env),
    timeoutMs: context.limits.shellTimeoutMs,
    maxOutputBytes: context.limits.maxOutputBytes,
    signal: context.signal,
    // No own process group: setsid per spawn made git-status ~1.35x a bare `git status`. Git
    // exits on SIGKILL; only helpers it might start (none with the config above) could outlive
    // a timeout, and they end with their pipe.
    processGroup: false,
  });
}

/**
 * `-c filter.<name>.clean= -c filter.<name>.smudge= -c filter.<name>.process=` for every filter
 * driver configured for the folder: an empty command is no filter. The repository's config and
 * .gitattributes are files the model can write, and a read-only tool that asks no confirmation
 * must not run a program they name. (Git LFS files whose stat changed may then show as modified.)
 */
async function filterOverrides(folder: WorkspaceFolder, context: ToolRunContext): Promise<string[]> {
  const outcome = await spawnGit(folder, ['config', '--name-only', '--get-regexp', '^filter\\.'], context);
  const names = new Set<string>();
  for (const key of outcome.stdout.split('\n')) {
    const match = /^filter\.(.+)\.[^.]+$/.exec(key.trim());
    if (match?.[1] !== undefined) {
      names.add(match[1]);
    }
  }
  return [...names].flatMap((name) =>
    ['clean', 'smudge', 'process'].flatMap((key) => ['-c', `filter.${name}.${key}=`]),
  );
}

/** The context's environment plus what makes git non-interactive, lock-free and parseable. */
export function gitEnv(
  base: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  return {
    ...base,
    // Never wait for a password on a terminal nobody sees.
    GIT_TERMINAL_PROMPT: '0',
    // `git status` would otherwise refresh the index and take index.lock, racing the user's git.
    GIT_OPTIONAL_LOCKS: '0',
    // English messages (we match "not a git repository") and byte-stable sorting.
    LC_ALL: 'C',
    GIT_PAGER: 'cat',
  };
}

function spawnMessage(folder: WorkspaceFolder, spawnError: string | undefined): string {
  if (spawnError !== undefined && /ENOENT/.test(spawnError)) {
    // spawn reports a missing cwd as ENOENT too, so say which one it is not.
    return `Could not run git in ${folder.path}: git is not installed or not on PATH, or the folder does not exist.`;
  }
  return `Could not run git in ${folder.path}: ${spawnError ?? 'killed by a signal'}`;
}

/**
 * Checks a path the model gave and returns it relative to the folder ('.' for the folder).
 * Refuses a leading `-` (it would be read as an option, e.g. `--output=/tmp/x`), NUL bytes,
 * and anything that resolves outside the folder (`..`, `/etc`). Lexical: git does not follow
 * symlinks out of the work tree for pathspecs, so no realpath is needed here.
 */
export function folderRelativePath(value: string, folder: WorkspaceFolder, what = 'path'): string {
  if (value.startsWith('-')) {
    throw new Error(`The ${what} "${value}" starts with "-", which git would read as an option. Refused.`);
  }
  if (value.includes('\0')) {
    throw new Error(`The ${what} contains a NUL byte. Refused.`);
  }
  const base = path.resolve(folder.path);
  const relative = path.relative(base, path.resolve(base, value));
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    throw new Error(`The ${what} "${value}" is outside the workspace folder ${folder.path}. Refused.`);
  }
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

/** A literal pathspec: wildcards and `:(magic)` in the user's path are not interpreted. */
export function literalPathspec(relative: string): string {
  return `:(literal)${relative}`;
}

/**
 * Glob pathspecs for git. A glob without `/` matches names at any depth (as in .gitignore), so
 * `*.ts` finds `src/a.ts`; `*` never crosses `/`, `**` does. A glob that names a directory also
 * matches everything below it. Refuses absolute globs and `..`, which would leave the folder.
 */
export function globPathspecs(glob: string): string[] {
  if (glob.includes('\0')) {
    throw new Error('The glob contains a NUL byte. Refused.');
  }
  if (path.isAbsolute(glob) || glob.startsWith('/') || glob.split(/[\\/]/).includes('..')) {
    throw new Error(`The glob "${glob}" must be relative to the workspace folder, without "..". Refused.`);
  }
  return expandBraces(glob).flatMap((one) => {
    const trimmed = normalizeGlob(one);
    return trimmed === '' ? [] : [`:(glob)${trimmed}`, `:(glob)${trimmed}/**`];
  });
}

/** Drops `./` and a trailing `/`; a glob without `/` matches at any depth, as in .gitignore. */
export function normalizeGlob(glob: string): string {
  const trimmed = glob.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  return trimmed === '' || trimmed.includes('/') ? trimmed : `**/${trimmed}`;
}

const MAX_BRACE_EXPANSIONS = 64;

/**
 * `{a,b}` alternatives expanded into separate globs (git's glob magic has no braces), nested
 * braces included; capped so `{a,b}{c,d}...` cannot explode.
 */
export function expandBraces(glob: string): string[] {
  const open = glob.indexOf('{');
  if (open === -1) {
    return [glob];
  }
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < glob.length; i++) {
    const char = glob[i];
    depth += char === '{' ? 1 : char === '}' ? -1 : 0;
    if (char === ',' && depth === 1) {
      commas.push(i);
    }
    if (depth === 0) {
      const cuts = [open, ...commas, i];
      const head = glob.slice(0, open);
      const tails = expandBraces(glob.slice(i + 1));
      const options = cuts.slice(1).flatMap((cut, k) => expandBraces(glob.slice((cuts[k] ?? 0) + 1, cut)));
      const all = options.flatMap((option) => tails.map((tail) => `${head}${option}${tail}`));
      if (all.length > MAX_BRACE_EXPANSIONS) {
        throw new Error(`The glob "${glob}" expands to more than ${MAX_BRACE_EXPANSIONS} patterns. Simplify it.`);
      }
      return all;
    }
  }
  return [glob]; // an unclosed "{" is a literal character
}

/** A string input, or undefined when absent or empty. */
export function optionalString(input: ToolInput, key: string): string | undefined {
  const value = input[key];
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new Error(`"${key}" must be a string.`);
  }
  return value;
}

/** An integer input clamped to [min, max], or the default when absent. */
export function boundedInteger(
  input: ToolInput,
  key: string,
  bounds: { readonly min: number; readonly max: number; readonly fallback: number },
): number {
  const value = input[key];
  if (value === undefined || value === null) {
    return bounds.fallback;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`"${key}" must be a number.`);
  }
  return Math.min(bounds.max, Math.max(bounds.min, Math.trunc(value)));
}

/** True only for the boolean `true`. */
export function flag(input: ToolInput, key: string): boolean {
  return input[key] === true;
}
