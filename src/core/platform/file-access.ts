/**
 * How the read path asks the file system: each call straight to the kernel (synchronous) while
 * the file system answers quickly, through libuv's thread pool (fs/promises) once it has not.
 *
 * Why: reading a small workspace file takes five calls (realpath, open, fstat, read, close).
 * Through the pool each one hands its work to a pool thread, which wakes the event loop when done:
 * about 25 µs of CPU a call on a 2-core VM, between the threads' wake-ups, against 1-3 µs for the
 * system call itself. A 10 KB read cost ~140 µs of CPU where its calls took ~10 (bench/notes.md,
 * "Reads without the thread pool"). A synchronous call holds the event loop while it runs, which
 * costs nothing when it takes microseconds (a local disk, the page cache), and would hold every
 * other call up on a slow file system (a network mount, WSL's /mnt/c, a spinning disk waking
 * up). So each synchronous call is timed: SLOW_CALLS of them slower than SLOW_CALL_MS within a few
 * seconds send the calls of the next SLOW_FOR_MS through the pool; and a read of more than
 * DIRECT_READ_MAX_BYTES always goes through it.
 * What is read, and every check made on it (files/open-contained.ts), is the same either way.
 */
import { closeSync, fstatSync, openSync, read as readCallback, readSync, realpathSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { promisify } from 'node:util';

/** An open file as the read path uses it (fs/promises' FileHandle has this shape). */
export interface ReadHandle {
  readonly fd: number;
  stat(): Promise<Stats>;
  /** Reads at `position`, or from the current position when null. */
  read(buffer: Buffer, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** The calls the read path makes. */
export interface FileAccess {
  readonly realpath: (file: string) => Promise<string>;
  readonly stat: (file: string) => Promise<Stats>;
  readonly open: (file: string, flags: number) => Promise<ReadHandle>;
}

/** A synchronous call slower than this may mean the file system is not a fast local one (a network mount, a disk waking up). */
export const SLOW_CALL_MS = 4;
/**
 * Slow calls within SLOW_WINDOW_MS that send the next calls through the pool: one alone may be
 * the machine's doing (the thread preempted on a busy machine, a garbage collection), a slow
 * file system is slow call after call.
 */
export const SLOW_CALLS = 3;
export const SLOW_WINDOW_MS = 10_000;
/** How long calls go through the pool after that; then they are tried directly again. */
export const SLOW_FOR_MS = 60_000;
/** Larger reads go through the pool whatever the file system: copying them holds the loop too long. */
export const DIRECT_READ_MAX_BYTES = 1024 * 1024;
/** What a read may take beyond SLOW_CALL_MS for its size before it counts as slow: 100 MB/s (a megabyte, 10 ms). */
const READ_BYTES_PER_MS = 100 * 1024;

/** Through libuv's thread pool: never holds the event loop. */
export const POOLED_ACCESS: FileAccess = { realpath, stat, open };

const readPooled = promisify(readCallback);

/**
 * Direct calls while they are fast, pooled calls for a while after one was not. One for the
 * process (hostFileAccess); a test makes its own with a clock of its own.
 */
export class DirectWhileFast {
  /** The clock time until which calls go through the pool (after slow ones). */
  private pooledUntil = Number.NEGATIVE_INFINITY;
  /** When the recent slow calls ended (within SLOW_WINDOW_MS). */
  private slowCalls: number[] = [];

  /** Straight to the kernel, each call timed. */
  readonly direct: FileAccess = {
    realpath: (file) => this.call(() => realpathSync.native(file)),
    stat: (file) => this.call(() => statSync(file)),
    open: async (file, flags) => new DirectHandle(await this.call(() => openSync(file, flags)), this),
  };

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The access for the next read: direct, unless SLOW_CALLS calls were slow in the last SLOW_FOR_MS. */
  access(): FileAccess {
    return this.now() < this.pooledUntil ? POOLED_ACCESS : this.direct;
  }

  /**
   * What the synchronous system call `call` returns or throws, as a settled promise (the pooled
   * calls' contract, without the pool), timed: a call slower than SLOW_CALL_MS (plus `allowanceMs`,
   * for a large read) counts towards sending the next calls through the pool. Only the system
   * call is in the timed stretch, no allocation that could start a garbage collection.
   */
  call<T>(call: () => T, allowanceMs = 0): Promise<T> {
    const started = this.now();
    let value: T;
    try {
      value = call();
    } catch (error) {
      this.timed(started, allowanceMs);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.timed(started, allowanceMs);
    return Promise.resolve(value);
  }

  /** Notes how long a call that began at `started` took. */
  private timed(started: number, allowanceMs: number): void {
    const ended = this.now();
    if (ended - started <= SLOW_CALL_MS + allowanceMs) {
      return;
    }
    this.slowCalls = [...this.slowCalls.filter((at) => ended - at < SLOW_WINDOW_MS), ended];
    if (this.slowCalls.length >= SLOW_CALLS) {
      this.pooledUntil = ended + SLOW_FOR_MS;
      this.slowCalls = [];
    }
  }
}

/** An open descriptor read with direct calls; a large read goes through the pool. */
class DirectHandle implements ReadHandle {
  constructor(
    readonly fd: number,
    private readonly calls: DirectWhileFast,
  ) {}

  stat(): Promise<Stats> {
    return this.calls.call(() => fstatSync(this.fd));
  }

  read(buffer: Buffer, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }> {
    if (length > DIRECT_READ_MAX_BYTES) {
      return readPooled(this.fd, buffer, offset, length, position);
    }
    return this.calls.call(() => readSync(this.fd, buffer, offset, length, position), length / READ_BYTES_PER_MS).then((bytesRead) => ({ bytesRead }));
  }

  close(): Promise<void> {
    return this.calls.call(() => closeSync(this.fd));
  }
}

const HOST = new DirectWhileFast();

/** The access for the next read of this process: direct, unless the file system was slow lately. */
export function hostFileAccess(): FileAccess {
  return HOST.access();
}
