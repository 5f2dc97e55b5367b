/**
 * Path containment: a requested path is served only if its real location (symlinks resolved)
 * stays inside the real base directory. Compared with `path.relative`, never a raw
 * `startsWith`, so a sibling such as `/base-evil` is not taken for `/base`.
 */
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * True when `candidate` is `base` itself or below it. Both must be absolute and normalized the
 * same way (both real paths, or both lexical). `path.relative` handles Windows' case-insensitive
 * drive and folder names; a relative result that starts with a `..` segment, or an absolute one
 * (another drive), is outside. A name like `..foo` is a child, hence the separator check.
 */
export function isInside(base: string, candidate: string): boolean {
  const relative = path.relative(base, candidate);
  if (relative === '') {
    return true;
  }
  if (path.isAbsolute(relative)) {
    return false;
  }
  return relative !== '..' && !relative.startsWith(`..${path.sep}`);
}

/**
 * Resolves `requested` (relative to `basePath`; an absolute path is allowed only when it lands
 * inside) and returns its real path when that stays inside the real `basePath`.
 * Throws errors worded for the model; nothing outside the base is touched beyond `realpath`.
 */
export async function resolveContained(basePath: string, requested: string): Promise<string> {
  if (requested.includes('\0') || basePath.includes('\0')) {
    throw new Error('Path contains a NUL byte, which no file name can contain.');
  }
  if (requested.trim() === '') {
    throw new Error('Path is empty: give a file path relative to the allowed directory.');
  }
  const lexicalBase = path.resolve(basePath);
  const lexical = path.resolve(lexicalBase, requested);
  // `../` and outside absolute paths are refused before the file system is asked about them.
  if (isInside(lexicalBase, lexical)) {
    const real = await realpathInside(basePath, lexical, requested);
    // A real path has no symbolic link in it, so when the target's real path is its lexical
    // path, so is every prefix, the base included: the target is inside the real base with no
    // second realpath (one round trip per call, not two).
    if (real === lexical) {
      return real;
    }
    return checkInside(await realBaseOf(basePath), real, requested);
  }
  const realBase = await realBaseOf(basePath);
  // An absolute path may name the base by its real path (macOS /tmp is /private/tmp).
  if (!isInside(realBase, lexical)) {
    throw new Error(`Path "${requested}" is outside the allowed directory ${realBase}.`);
  }
  return checkInside(realBase, await realpathOf(lexical, requested), requested);
}

/** The real path of a lexically inside target; a missing base is reported as such, first. */
async function realpathInside(basePath: string, lexical: string, requested: string): Promise<string> {
  try {
    return await realpath(lexical);
  } catch (error) {
    await realBaseOf(basePath);
    throw describeFsError(error, requested);
  }
}

function checkInside(realBase: string, real: string, requested: string): string {
  if (!isInside(realBase, real)) {
    throw new Error(
      `Path "${requested}" leads (through a symbolic link) outside the allowed directory ${realBase}.`,
    );
  }
  return real;
}

async function realpathOf(lexical: string, requested: string): Promise<string> {
  try {
    return await realpath(lexical);
  } catch (error) {
    throw describeFsError(error, requested);
  }
}

async function realBaseOf(basePath: string): Promise<string> {
  try {
    return await realpath(basePath);
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
