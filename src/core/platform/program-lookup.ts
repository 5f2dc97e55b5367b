/**
 * Which file a program name runs, on Windows, and how. Node's spawn without a shell finds only
 * `.com` and `.exe` files, looks in the working directory before PATH (where a workspace could
 * plant a `git.exe`), and refuses batch files (CVE-2024-27980). So on Windows the program is
 * looked up here, as cmd.exe would but without the working directory: PATH, each directory with
 * every PATHEXT extension, and spawn is given the file it found. Elsewhere spawn's own PATH
 * search (execvp) is the platform's and is left alone.
 */
import { statSync } from 'node:fs';
import type { Platform } from './platform';

/** What a program name resolved to. */
export type ResolvedProgram =
  /** Spawn this file directly (POSIX: the name as given; Windows: an .exe or .com). */
  | { readonly kind: 'executable'; readonly file: string }
  /** A `.cmd` or `.bat`: only cmd.exe runs it, and it cannot take values safely. */
  | { readonly kind: 'batch'; readonly file: string }
  /** Another PATHEXT type (.js, .vbs, .ps1 ...), run by Windows through a file association. */
  | { readonly kind: 'associated'; readonly file: string }
  | { readonly kind: 'missing'; readonly tried: readonly string[] };

/** What the look-up needs from the outside world. */
export interface ProgramLookupDeps {
  readonly platform: Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory a relative program path (`.\tools\x.exe`) starts from. */
  readonly cwd: string;
  /** True when `file` is a regular file (Windows file systems: case-insensitively). */
  readonly isFile?: (file: string) => boolean;
}

/** PATHEXT when the environment has none: what cmd.exe uses. */
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** The value of an environment variable; Windows names are case-insensitive (`Path`). */
export function envValue(env: Readonly<Record<string, string | undefined>>, name: string, platform: Platform): string | undefined {
  if (!platform.windows) {
    return env[name];
  }
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

function isRegularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Resolves `program` as the platform runs it (see the file's comment). */
export function resolveProgram(program: string, deps: ProgramLookupDeps): ResolvedProgram {
  const { platform } = deps;
  if (!platform.windows) {
    return { kind: 'executable', file: program };
  }
  const isFile = deps.isFile ?? isRegularFile;
  const extensions = (envValue(deps.env, 'PATHEXT', platform) ?? DEFAULT_PATHEXT)
    .split(';')
    .map((extension) => extension.trim().toLowerCase())
    .filter((extension) => /^\.[^.\\/]+$/.test(extension));
  const own = platform.path.extname(program).toLowerCase();
  // A name that already has a runnable extension is taken as is; any other gets each in turn.
  const names = own !== '' && extensions.includes(own) ? [program] : extensions.map((extension) => `${program}${extension}`);
  const hasDirectory = /[\\/]/.test(program) || /^[A-Za-z]:/.test(program);
  const directories = hasDirectory
    ? [platform.path.resolve(deps.cwd)]
    : (envValue(deps.env, 'PATH', platform) ?? '').split(platform.delimiter).map(unquote).filter((directory) => directory !== '' && platform.path.isAbsolute(directory));
  const tried: string[] = [];
  for (const directory of directories) {
    for (const name of names) {
      const candidate = platform.path.resolve(directory, name);
      tried.push(candidate);
      if (isFile(candidate)) {
        return classify(candidate, platform);
      }
    }
  }
  return { kind: 'missing', tried };
}

/**
 * The file spawn is given for `file`. On Windows a bare program name (`git`) is looked up on PATH
 * here, because spawn would look in the working directory first, where a workspace could have
 * put a `git.exe` for the read-only built-ins to run; a name PATH does not have as an .exe or
 * .com throws ENOENT (not started at all). Elsewhere spawn's own PATH search is kept.
 */
export function spawnableProgram(file: string, env: Readonly<Record<string, string | undefined>>, cwd: string, platform: Platform, isFile?: (file: string) => boolean): string {
  if (!platform.windows || /[\\/]/.test(file) || /^[A-Za-z]:/.test(file)) {
    return file;
  }
  const found = resolveProgram(file, { platform, env, cwd, ...(isFile === undefined ? {} : { isFile }) });
  if (found.kind !== 'executable') {
    throw Object.assign(new Error(`spawn ${file} ENOENT (not found on PATH as a program; the working directory is not searched)`), { code: 'ENOENT' });
  }
  return found.file;
}

/** PATH entries may be quoted ("C:\Program Files\x"), as cmd.exe allows. */
function unquote(directory: string): string {
  const trimmed = directory.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

function classify(file: string, platform: Platform): ResolvedProgram {
  const extension = platform.path.extname(file).toLowerCase();
  if (extension === '.exe' || extension === '.com') {
    return { kind: 'executable', file };
  }
  return extension === '.cmd' || extension === '.bat' ? { kind: 'batch', file } : { kind: 'associated', file };
}

/** cmd.exe's special characters, each escaped with `^` outside quotes (as cross-spawn does). */
const CMD_META = /[()[\]%!^"`<>&|;, *?]/g;

/**
 * One argument for a program started by `cmd.exe /d /s /c "..."`: quoted for the program's
 * argument parser (CommandLineToArgvW: backslashes before a quote doubled, the quote escaped),
 * then every cmd.exe special character, the quotes included, escaped with `^`, so cmd.exe
 * expands nothing (`%PATH%` stays text) and splits nothing (`&`, `|`).
 */
export function quoteCmdArgument(arg: string): string {
  const quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1')}"`;
  return quoted.replace(CMD_META, '^$&');
}

/**
 * The argv that runs a batch file with literal arguments through cmd.exe (spawned with
 * windowsVerbatimArguments): `/d` skips AutoRun, `/s` strips exactly the outer quotes.
 */
export function batchFileArgv(comspec: string, batchFile: string, args: readonly string[]): string[] {
  const line = [batchFile.replace(CMD_META, '^$&'), ...args.map(quoteCmdArgument)].join(' ');
  return [comspec, '/d', '/s', '/c', `"${line}"`];
}
