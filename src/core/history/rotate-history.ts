/**
 * Keeps a history file from growing without end by rotation: past half the cap, `history.jsonl` is
 * renamed to `history.jsonl.1` (the one before removed) and the next record starts a new file.
 * The two files hold at most the cap, and always the newest half of it. A rename costs the same
 * whatever the size, where rewriting the newest records into a new file (the compaction this
 * replaced) read and wrote half the cap every time: about as much disk work as the records
 * themselves. A writer that still holds the renamed file open (another window, the server VS Code
 * starts) appends its next batch to `.1`, which is read too: nothing is lost, where a rewrite lost
 * what was appended to the old file after the copy.
 *
 * Locked against a second writer rotating at the same moment, and checked again under the lock.
 */
import { rm, stat } from 'node:fs/promises';
import { withFileLock } from '../approval/file-lock';
import type { Platform } from '../platform/platform';
import { hostPlatform } from '../platform/platform';
import { replaceFile } from '../platform/replace-file';

/** The file that holds the records before the current file's: `<file>.1`. */
export function rotatedPath(file: string): string {
  return `${file}.1`;
}

/** The size past which a history file is rotated, for a cap of `maxBytes` over both files. */
export function rotationBytes(maxBytes: number): number {
  return Math.floor(maxBytes / 2);
}

/**
 * Rotates `file` if it is past half of `maxBytes`; whether it did. Called once the writer saw the
 * size past it, so the size is checked only under the lock, where it counts: another process may
 * have rotated the file meanwhile. The caller closes its own handle first: Windows does not rename
 * a file this process holds open without sharing deletion.
 */
export async function rotateIfNeeded(file: string, maxBytes: number, platform: Platform = hostPlatform()): Promise<boolean> {
  return withFileLock(`${file}.lock`, async () => {
    // Another process may have rotated it meanwhile: then the path names a new, small file.
    if ((await sizeOf(file)) <= rotationBytes(maxBytes)) {
      return false;
    }
    // Off Windows the file before is removed first, not renamed over: ext4 writes a file back to
    // disk at once, in the renaming thread, when it is renamed over another (its `auto_da_alloc`,
    // against empty files after a crash), which cost the server a 5 MB write-back at every
    // rotation. Removed first, the file is written back whenever the system would write it anyway.
    // A reader in between reads the new file alone: the oldest records, which this drops anyway, a
    // moment early. On Windows a file another process holds open may stay "delete pending" after
    // its removal and refuse the rename: there it is renamed over, with replaceFile's retries.
    if (!platform.windows) {
      await rm(rotatedPath(file), { force: true }).catch(() => undefined);
    }
    await replaceFile(file, rotatedPath(file), platform);
    return true;
  });
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}
