/**
 * Replacing a file by renaming a finished temporary file over it (so no reader sees half a
 * file). On Windows that rename fails for a moment while another process has the target open
 * without sharing deletion (a virus scanner, the search indexer, an editor): EPERM, EACCES or
 * EBUSY that goes away on its own, so it is tried again for a while, as npm's graceful-fs does.
 * Elsewhere a rename over a file never fails that way, and a failure is final.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Platform } from './platform';
import { hostPlatform } from './platform';

/** How long, in all, a Windows rename is retried. */
const WINDOWS_RETRY_MS = 2_000;
const TRANSIENT = new Set(['EPERM', 'EACCES', 'EBUSY']);

/** Renames `temporary` over `target`; see the file's comment for the retries on Windows. */
export async function replaceFile(
  temporary: string,
  target: string,
  platform: Platform = hostPlatform(),
  renameFile: (from: string, to: string) => Promise<void> = rename,
): Promise<void> {
  const deadline = Date.now() + WINDOWS_RETRY_MS;
  for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
    try {
      await renameFile(temporary, target);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (!platform.windows || !TRANSIENT.has(code) || Date.now() + pause > deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/**
 * Writes `text` to `file` (its directory made when missing) through a temporary file renamed over
 * it, so no reader sees half a file. The temporary's name is unique to the write: two writes in
 * the same millisecond of one process must not share one. `mode` is the new file's mode (as
 * `writeFile` takes it, the umask applied; default 0o666): the temporary is made with it, and the
 * rename keeps it, so a private file (0o600) is never readable by others, not even for a moment.
 */
export async function writeFileReplacing(file: string, text: string, options: { readonly mode?: number } = {}): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = temporaryFor(file);
  try {
    await writeFile(temporary, text, { encoding: 'utf8', ...(options.mode === undefined ? {} : { mode: options.mode }) });
    await replaceFile(temporary, file);
  } catch (error) {
    // Each write has its own temporary name: one left by a failure would stay for good.
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * `writeFileReplacing` done synchronously, for a process that may exit right after (a `dispose`
 * on shutdown). It renames once: waiting out a Windows rename here would hold up the exit.
 */
export function writeFileReplacingSync(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = temporaryFor(file);
  try {
    writeFileSync(temporary, text, 'utf8');
    renameSync(temporary, file);
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // The write's own error is the one to tell.
    }
    throw error;
  }
}

/** A temporary file's name beside `file`, unique to one write of one process. */
function temporaryFor(file: string): string {
  return `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
}
