/**
 * Runs the file read path once, in the background, on a file of the server's own, so that the
 * first tool call that reads a file does not pay for what Node and V8 do only the first time:
 * compiling the containment and read code, and, on a file system that answers slowly
 * (platform/file-access.ts), starting libuv's thread pool and fs/promises' FileHandle. Harmless:
 * it reads the first line of a file the process already loaded.
 */
import * as path from 'node:path';
import { readContainedFile } from './read-contained';
import { DEFAULT_MAX_FILE_BYTES } from './read-text';

/** Reads line 1 of `ownFile` through readContainedFile: whether it did; never rejects (nothing to report). */
export async function warmUpFileReads(ownFile: string): Promise<boolean> {
  try {
    await readContainedFile({ basePath: path.dirname(ownFile), path: path.basename(ownFile), startLine: 1, endLine: 1, maxSize: DEFAULT_MAX_FILE_BYTES });
    return true;
  } catch {
    // A script that moved or cannot be read: the first real read pays, as without this.
    return false;
  }
}
