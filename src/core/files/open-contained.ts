/**
 * The one way a workspace file is opened for reading: containment decided on what was opened,
 * not on a path looked at before. A path checked and then opened again by name can be swapped in
 * between (rename a folder away, put a symbolic link to an outside folder in its place), so:
 *   1. the path is checked by paths/containment (lexically, then its real path), which also keeps
 *      a plain outside path, a device or a FIFO behind a link from ever being opened;
 *   2. that real path is opened;
 *   3. what was opened is checked: where the open handle's file lives now (Linux: the kernel's
 *      own path of the descriptor, /proc/self/fd/N; elsewhere: the real path again, whose file
 *      must have the handle's device and inode), inside the real base and every enclosing root;
 *   4. the caller reads from the handle only.
 * On Linux a swap at any moment yields the inside file or a refusal, never an outside byte. The
 * portable check is by path again: it refuses a file swapped before or after the open, but a link
 * put back exactly between its realpath and its stat would pass it (Node cannot ask macOS or
 * Windows for a descriptor's path), a far narrower window than checking before opening. Every door
 * that reads a workspace file (file-reader, file-read, resources, prompt embeds, images, a code
 * tool's module) comes through here.
 */
import { constants, readlinkSync } from 'node:fs';
import type { Stats } from 'node:fs';
import type { ContainmentDeps } from '../paths/containment';
import { describeFsError, errorCode, hostContainment, resolveContainedPath } from '../paths/containment';
import { isInside } from '../platform/path-rules';
import type { FileAccess, ReadHandle } from '../platform/file-access';
import { hostFileAccessFor } from '../platform/file-access';
import { readBoundedHandle } from './read-bounded';

/** What to open. */
export interface ContainedOpenRequest {
  /** Directory the path is relative to and must stay inside (its real path is what counts). */
  readonly basePath: string;
  /** The path asked for. */
  readonly path: string;
  /**
   * Real paths of directories around `basePath` the file must stay inside as well (the workspace
   * folder around a tool's basePath): `basePath` itself could be swapped for a link between the
   * moment it was resolved and this open.
   */
  readonly within?: readonly string[];
  /** Refuse a file with a `.git` segment in its path or its real path (resources, prompt embeds). */
  readonly refuseGitDirectory?: boolean;
  /** Refuse a regular file with more than one hard link (resources, prompt embeds). */
  readonly refuseHardLinks?: boolean;
}

/** An opened, contained file: read it through `handle`, then close it. */
export interface ContainedFile {
  readonly handle: ReadHandle;
  /** fstat of the handle. */
  readonly info: Stats;
  /** Where the opened file lives, inside the real base. */
  readonly realPath: string;
}

/** Where the open handle's file lives now, from the handle itself; undefined where the system cannot say. */
export type HandlePath = (handle: ReadHandle) => string | undefined;

/** The steps openContained passes; a test pauses at one to swap the file system under it. */
export type OpenStep = 'resolved' | 'opened';

/** What openContained needs from the system. */
export interface OpenContainedDeps {
  readonly containment: ContainmentDeps;
  /** How the file at a real path is opened and read (the path is resolved by `containment`, through the pool). */
  readonly accessFor: (realPath: string) => FileAccess;
  readonly handlePath: HandlePath;
  /** Called between steps (tests only: a real swap at the worst moment). */
  readonly between?: (step: OpenStep) => Promise<void>;
}

let procFdWorks = process.platform === 'linux';

/**
 * Linux: the kernel's path of the descriptor (/proc/self/fd/N), which no later rename or link can
 * make lie about which file was opened. Elsewhere (or without /proc): undefined. Synchronous on
 * purpose: procfs answers from memory, without the disk, in a few microseconds, where a trip
 * through the thread pool costs tens of them on every read.
 */
export const kernelHandlePath: HandlePath = (handle) => {
  if (!procFdWorks) {
    return undefined;
  }
  try {
    return readlinkSync(`/proc/self/fd/${handle.fd}`);
  } catch {
    procFdWorks = false;
    return undefined;
  }
};

/**
 * The host's containment rules and file system: the path resolved through the thread pool, the
 * file opened and read directly where platform/file-access.ts says that is safe, else through the
 * pool too. A test gives `accessFor` to run both ways.
 */
export function hostOpenDeps(accessFor: (realPath: string) => FileAccess = hostFileAccessFor): OpenContainedDeps {
  return { containment: hostContainment(), accessFor, handlePath: kernelHandlePath };
}

/** An opened, contained file, with what `early` read from it meanwhile. */
export interface ContainedFileWith<T> extends ContainedFile {
  readonly early: PromiseSettledResult<T> | undefined;
}

/**
 * Opens `request.path` for reading if, and only if, the file opened lies inside the real base.
 * Throws errors worded for the model (naming the path asked for). `early` (optional) starts a
 * read from the handle while the checks run, so they cost no extra round trip; what it read is
 * handed back only when they pass, never otherwise.
 */
export async function openContained<T = never>(
  request: ContainedOpenRequest,
  options: { readonly deps?: OpenContainedDeps; readonly early?: (handle: ReadHandle) => Promise<T> } = {},
): Promise<ContainedFileWith<T>> {
  const deps = options.deps ?? hostOpenDeps();
  const shown = request.path;
  if (request.refuseGitDirectory === true && hasGitSegment(request.path)) {
    throw new Error(gitRefusal(shown));
  }
  const { real, realBase } = await resolveContainedPath(request.basePath, request.path, deps.containment);
  await deps.between?.('resolved');
  const access = deps.accessFor(real);
  let handle: ReadHandle;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer (POSIX only; a
    // no-op for regular files). Callers refuse anything but a regular file on its fstat.
    handle = await access.open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw describeFsError(error, shown);
  }
  try {
    await deps.between?.('opened');
    const kernelPath = deps.handlePath(handle);
    if (access.direct) {
      // Direct calls save no round trip by overlapping: the file is checked before any byte of
      // it is read, and only a regular file is read early.
      const info = await handle.stat();
      const realPath = kernelPath ?? (await realPathOfHandle(real, info, shown, deps, access));
      checkOpened({ request, realBase, realPath, info, deps });
      const early = info.isFile() ? await settle(options.early?.(handle)) : undefined;
      return { handle, info, realPath, early };
    }
    const [info, early] = await Promise.all([handle.stat(), settle(options.early?.(handle))]);
    const realPath = kernelPath ?? (await realPathOfHandle(real, info, shown, deps, access));
    checkOpened({ request, realBase, realPath, info, deps });
    return { handle, info, realPath, early };
  } catch (error) {
    handle.close().catch(() => undefined);
    throw errorCode(error) === undefined ? error : describeFsError(error, shown);
  }
}

/** The outcome of a read started early, without letting its failure reject the checks. */
async function settle<T>(promise: Promise<T> | undefined): Promise<PromiseSettledResult<T> | undefined> {
  if (promise === undefined) {
    return undefined;
  }
  try {
    return { status: 'fulfilled', value: await promise };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
}

/**
 * Without the kernel's word: the real path again, and the file there must be the one open (same
 * device and inode), else it was swapped after the open.
 */
async function realPathOfHandle(real: string, info: Stats, shown: string, deps: OpenContainedDeps, access: FileAccess): Promise<string> {
  const now = await deps.containment.realpath(real);
  const there = await access.stat(now);
  if (there.dev !== info.dev || there.ino !== info.ino) {
    throw new Error(`${shown} changed while it was being opened (it was replaced or moved); it was not read. Try again.`);
  }
  return now;
}

interface OpenedCheck {
  readonly request: ContainedOpenRequest;
  readonly realBase: string;
  readonly realPath: string;
  readonly info: Stats;
  readonly deps: OpenContainedDeps;
}

/** The opened file must lie inside the real base and every root around it, and pass the door's rules. */
function checkOpened({ request, realBase, realPath, info, deps }: OpenedCheck): void {
  const { platform } = deps.containment;
  const shown = request.path;
  for (const root of [realBase, ...(request.within ?? [])]) {
    if (!isInside(root, realPath, platform)) {
      throw new Error(`Path "${shown}" leads (through a symbolic link, or one swapped in while it was opened) outside the allowed directory ${root}; it was not read.`);
    }
  }
  if (request.refuseGitDirectory === true && hasGitSegment(platform.path.relative(realBase, realPath))) {
    throw new Error(gitRefusal(shown));
  }
  if (request.refuseHardLinks === true && info.isFile() && info.nlink > 1) {
    throw new Error(
      `${shown} has ${info.nlink} hard links; a file with more than one is not served here, since another of its names may lie outside the workspace folder.`,
    );
  }
}

/** Whether a path (either separator) has a `.git` segment, in any case (Windows and macOS ignore it). */
export function hasGitSegment(relative: string): boolean {
  return relative.split(/[\\/]/).some((segment) => segment.toLowerCase() === '.git');
}

function gitRefusal(shown: string): string {
  return `${shown} is or lies inside .git, which is never served (it can hold credentials, such as a token in a remote URL).`;
}

/**
 * Opens a contained file and reads all of it, a regular file of at most `maxBytes`; throws a
 * sentence saying why not.
 */
export async function readContainedBytes(request: ContainedOpenRequest, maxBytes: number, deps?: OpenContainedDeps): Promise<Buffer> {
  const opened = await openContained(request, deps === undefined ? {} : { deps });
  try {
    return await readBoundedHandle(opened.handle, opened.info, maxBytes);
  } finally {
    opened.handle.close().catch(() => undefined);
  }
}
