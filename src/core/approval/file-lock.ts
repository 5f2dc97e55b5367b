/**
 * A lock file for read-modify-write of a small shared file by several processes (two VS Code
 * windows, a window and a terminal). Atomic rename alone keeps readers from seeing half a file,
 * but two writers that read the same old content would each drop the other's change.
 */
import { open, stat, unlink } from 'node:fs/promises';

/** How a lock is waited for and when a leftover one is taken over. */
export interface LockOptions {
  /** Give up after this long (ms). */
  readonly timeoutMs?: number;
  /** A lock file older than this (ms) was left by a process that died: it is removed. */
  readonly staleMs?: number;
  /** Pause between attempts (ms). */
  readonly retryMs?: number;
}

const DEFAULTS = { timeoutMs: 10_000, staleMs: 30_000, retryMs: 20 };

/**
 * Runs `critical` while holding `lockPath` (created exclusively, removed afterwards). The
 * critical section must be short: a holder that takes longer than `staleMs` loses the lock.
 */
export async function withFileLock<T>(lockPath: string, critical: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const { timeoutMs, staleMs, retryMs } = { ...DEFAULTS, ...options };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(`${process.pid}\n`).finally(() => handle.close());
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
    }
    if (await isStale(lockPath, staleMs)) {
      await unlink(lockPath).catch(() => undefined);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new Error(`${lockPath} is held by another process; if none is running, delete it and try again`);
    }
    await new Promise((resolve) => setTimeout(resolve, retryMs));
  }
  try {
    return await critical();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

async function isStale(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(lockPath)).mtimeMs > staleMs;
  } catch {
    return false; // gone meanwhile: the next attempt takes it
  }
}
