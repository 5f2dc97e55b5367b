/**
 * Where the bin keeps Node's compile cache: a folder only the current user can write, so no other
 * local user can put V8 code there for the server to run (Node's default, the OS temporary
 * directory, is shared by every user on Linux). The per-user cache folder, beside the project's
 * other per-user files (docs/platforms.md#windows-and-macos, "per-user files"): %LOCALAPPDATA% on Windows, $XDG_CACHE_HOME or
 * ~/.cache elsewhere (macOS too, as for the approvals and the history); then
 * workspace-tools/node-compile-cache, made with mode 0700. Undefined when there is no such
 * folder or it cannot be made (a read-only home, no home at all): the server then starts uncached.
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';

export function compileCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  try {
    const base = userCacheBase(env, platform);
    if (base === undefined) {
      return undefined;
    }
    const directory = path.join(base, 'workspace-tools', 'node-compile-cache');
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    return directory;
  } catch {
    return undefined;
  }
}

function userCacheBase(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  if (platform === 'win32') {
    return absoluteOrUndefined(env.LOCALAPPDATA) ?? inHome('AppData', 'Local');
  }
  // The XDG spec: a relative XDG_CACHE_HOME is invalid and must be ignored.
  return absoluteOrUndefined(env.XDG_CACHE_HOME) ?? inHome('.cache');
}

function absoluteOrUndefined(value: string | undefined): string | undefined {
  return value !== undefined && path.isAbsolute(value) ? value : undefined;
}

function inHome(...segments: string[]): string | undefined {
  const home = homedir();
  return home === '' ? undefined : path.join(home, ...segments);
}
