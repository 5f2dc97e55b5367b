/**
 * A cap on a process's resident memory, checked by polling. V8's heap cap
 * (--max-old-space-size) bounds JavaScript objects only: Buffers and ArrayBuffers live outside
 * the heap, so a program filling buffers would grow until the machine runs out. Linux only
 * (/proc/<pid>/status); elsewhere nothing is watched.
 */
import { readFile } from 'node:fs/promises';

/** How often the resident memory is read. */
export const MEMORY_POLL_MS = 100;

/**
 * Calls `onExceeded` (once) with the resident memory in MB when `pid` passes `capMb`.
 * Returns the function that stops watching.
 */
export function watchResidentMemory(pid: number, capMb: number, onExceeded: (residentMb: number) => void): () => void {
  if (process.platform !== 'linux') {
    return () => undefined;
  }
  let reading = false;
  const timer = setInterval(() => {
    if (reading) {
      return;
    }
    reading = true;
    void residentMb(pid)
      .then((resident) => {
        if (resident !== undefined && resident > capMb) {
          clearInterval(timer);
          onExceeded(resident);
        }
      })
      .finally(() => {
        reading = false;
      });
  }, MEMORY_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** VmRSS of `pid` in MB, or undefined when it cannot be read (the process is gone). */
async function residentMb(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}
