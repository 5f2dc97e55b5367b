/**
 * Path containment: a requested path is served only if its real location (symlinks resolved)
 * stays inside the real base directory. Compared with `path.relative`, never a raw
 * `startsWith`, so a sibling such as `/base-evil` is not taken for `/base`; by the platform's
 * rules (platform/path-rules.ts), so on Windows also across drive-letter case and `/` or `\`,
 * and names Windows treats specially (devices, streams, `\\?\`) are refused first.
 */
import { realpath } from 'node:fs/promises';
import type { Platform } from '../platform/platform';
import { hostPlatform } from '../platform/platform';
import { isInside, specialPathProblem } from '../platform/path-rules';

/** What containment needs from the platform: its path rules and the file system's real paths. */
export interface ContainmentDeps {
  readonly platform: Platform;
  readonly realpath: (file: string) => Promise<string>;
}

/** The host's rules and file system. */
export function hostContainment(): ContainmentDeps {
  return { platform: hostPlatform(), realpath };
}

/**
 * Resolves `requested` (relative to `basePath`; an absolute path is allowed only when it lands
 * inside) and returns its real path when that stays inside the real `basePath`.
 * Throws errors worded for the model; nothing outside the base is touched beyond `realpath`.
 * Only a check: a file opened afterwards by this path may have been swapped meanwhile, so a read
 * goes through files/open-contained, which checks what it opened.
 */
export async function resolveContained(basePath: string, requested: string, deps: ContainmentDeps = hostContainment()): Promise<string> {
  return (await resolveContainedPath(basePath, requested, deps)).real;
}

/** A contained path: its real path, and the real base it was found inside (both at that moment). */
export interface ContainedPath {
  readonly real: string;
  readonly realBase: string;
}

/** resolveContained, also giving the real base the real path was checked against. */
export async function resolveContainedPath(basePath: string, requested: string, deps: ContainmentDeps = hostContainment()): Promise<ContainedPath> {
  if (requested.includes('\0') || basePath.includes('\0')) {
    throw new Error('Path contains a NUL byte, which no file name can contain.');
  }
  if (requested.trim() === '') {
    throw new Error('Path is empty: give a file path relative to the allowed directory.');
  }
  const special = specialPathProblem(requested, deps.platform);
  if (special !== undefined) {
    throw new Error(special);
  }
  const { platform } = deps;
  const lexicalBase = platform.path.resolve(basePath);
  const lexical = platform.path.resolve(lexicalBase, requested);
  const resolution: Resolution = { platform, basePath, requested, realpath: deps.realpath };
  // `../` and outside absolute paths are refused before the file system is asked about them.
  if (isInside(lexicalBase, lexical, platform)) {
    const real = await realpathInside(resolution, lexical);
    // A real path has no symbolic link in it, so when the target's real path is its lexical
    // path, so is every prefix, the base included: the target is inside the real base with no
    // second realpath (one round trip per call, not two).
    if (real === lexical) {
      return { real, realBase: lexicalBase };
    }
    const realBase = await realBaseOf(resolution);
    return { real: checkInside(resolution, realBase, real), realBase };
  }
  const realBase = await realBaseOf(resolution);
  // An absolute path may name the base by its real path (macOS /tmp is /private/tmp).
  if (!isInside(realBase, lexical, platform)) {
    throw new Error(`Path "${requested}" is outside the allowed directory ${realBase}.`);
  }
  return { real: checkInside(resolution, realBase, await realpathOfTarget(resolution, lexical)), realBase };
}

/** One resolution: the rules, the file system, and what was asked for. */
interface Resolution {
  readonly platform: Platform;
  readonly basePath: string;
  readonly requested: string;
  readonly realpath: (file: string) => Promise<string>;
}

/** The real path of a lexically inside target; a missing base is reported as such, first. */
async function realpathInside(resolution: Resolution, lexical: string): Promise<string> {
  try {
    return await resolution.realpath(lexical);
  } catch (error) {
    await realBaseOf(resolution);
    throw describeFsError(error, resolution.requested);
  }
}

function checkInside(resolution: Resolution, realBase: string, real: string): string {
  if (!isInside(realBase, real, resolution.platform)) {
    throw new Error(
      `Path "${resolution.requested}" leads (through a symbolic link) outside the allowed directory ${realBase}.`,
    );
  }
  return real;
}

async function realpathOfTarget(resolution: Resolution, lexical: string): Promise<string> {
  try {
    return await resolution.realpath(lexical);
  } catch (error) {
    throw describeFsError(error, resolution.requested);
  }
}

async function realBaseOf({ basePath, realpath: realpathOf }: Resolution): Promise<string> {
  try {
    return await realpathOf(basePath);
  } catch (error) {
    const code = errorCode(error);
    const reason = code === 'ENOENT' ? 'does not exist' : `cannot be opened (${code ?? 'error'})`;
    throw new Error(`The allowed directory ${basePath} ${reason}.`);
  }
}

/** The `code` of a Node system error, if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    return typeof error.code === 'string' ? error.code : undefined;
  }
  return undefined;
}

/** Turns a file-system error into a sentence for the model that names the path it asked for. */
export function describeFsError(error: unknown, requested: string): Error {
  switch (errorCode(error)) {
    case 'ENOENT':
      return new Error(`File not found: ${requested}`);
    case 'ENOTDIR':
      return new Error(`File not found: ${requested} (a part of the path is not a directory)`);
    case 'EACCES':
    case 'EPERM':
      return new Error(`Permission denied: ${requested}`);
    case 'ELOOP':
      return new Error(`Too many symbolic links while resolving ${requested}`);
    case 'EISDIR':
      return new Error(`${requested} is a directory, not a file.`);
    default:
      return new Error(
        `Cannot read ${requested}: ${error instanceof Error ? error.message : String(error)}`,
      );
  }
}
