/**
 * How the read path opens and reads a workspace file: with direct (synchronous) system calls
 * where that is safe and fast, through libuv's thread pool (fs/promises) everywhere else.
 *
 * Why: a read of a small file takes five calls (realpath, open, fstat, read, close). Through the
 * pool each one hands its work to a pool thread, which wakes the event loop when done: about 25 µs
 * of CPU a call on a 2-core VM, against 1-3 µs for the system call itself (bench/notes.md, "Reads
 * without the thread pool"). A direct call holds the event loop while it runs: nothing on a local
 * disk, and every other call held up (in the extension host, every extension) when a file system
 * hangs. So a file is read directly only when all of these hold:
 *   - the process turned direct reads on (the MCP server and the CLI; not the extension host,
 *     which other extensions share): enableDirectReads;
 *   - its real path lies on a local disk file system (local-mounts.ts: Linux's mount table), not
 *     a network mount, FUSE, WSL's /mnt/c or an automount, where a call can wait on a network;
 *   - the direct calls have been fast: SLOW_CALLS over SLOW_CALL_MS within SLOW_WINDOW_MS (a disk
 *     spinning up) send the reads of the next SLOW_FOR_MS through the pool;
 * and a handle reads its first DIRECT_READ_MAX_BYTES directly, the rest through the pool, so a
 * large file never holds the loop for long and a cancellation can still land between its reads.
 * The path is always resolved through the pool (its links may lead anywhere), and what is read,
 * and every check made on it (files/open-contained.ts), is the same either way.
 */
import { closeSync, fstatSync, openSync, read as readCallback, readSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { MountTable } from './local-mounts';

/** An open file as the read path uses it (fs/promises' FileHandle has this shape). */
export interface ReadHandle {
  readonly fd: number;
  stat(): Promise<Stats>;
  /** Reads at `position`, or from the current position when null. */
  read(buffer: Buffer, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** How a file is opened and stat'ed. */
export interface FileAccess {
  /** Whether its calls are direct (they hold the event loop while they run). */
  readonly direct: boolean;
  readonly stat: (file: string) => Promise<Stats>;
  readonly open: (file: string, flags: number) => Promise<ReadHandle>;
}

/** A direct call slower than this may mean the disk is slow (spinning up, failing). */
export const SLOW_CALL_MS = 4;
/**
 * Slow calls within SLOW_WINDOW_MS that send the next reads through the pool: one alone may be the
 * machine's doing (the thread preempted on a busy machine, a garbage collection).
 */
export const SLOW_CALLS = 3;
export const SLOW_WINDOW_MS = 10_000;
/** How long reads go through the pool after that; then they are tried directly again. */
export const SLOW_FOR_MS = 60_000;
/** What a handle reads directly; the rest of the file through the pool. */
export const DIRECT_READ_MAX_BYTES = 1024 * 1024;

/** Through libuv's thread pool: never holds the event loop. */
export const POOLED_ACCESS: FileAccess = { direct: false, stat, open };

const readPooled = promisify(readCallback);

/**
 * Direct calls while they are fast, the pool for a while after they were not. One for the process
 * (hostFileAccessFor); a test makes its own, with a clock of its own.
 */
export class DirectWhileFast {
  /** The clock time until which reads go through the pool (after slow calls). */
  private pooledUntil = Number.NEGATIVE_INFINITY;
  /** When the recent slow calls ended (within SLOW_WINDOW_MS). */
  private slowCalls: number[] = [];

  /** Straight to the kernel, each call timed. */
  readonly direct: FileAccess = {
    direct: true,
    stat: (file) => this.call(() => statSync(file)),
    open: async (file, flags) => new DirectHandle(await this.call(() => openSync(file, flags)), this),
  };

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Whether the direct calls have been fast: no SLOW_CALLS slow ones in the last SLOW_FOR_MS. */
  get fast(): boolean {
    return this.now() >= this.pooledUntil;
  }

  /**
   * What the synchronous system call `call` returns or throws, as a settled promise (the pooled
   * calls' contract, without the pool), timed: a call slower than SLOW_CALL_MS counts towards
   * sending the next reads through the pool (a garbage collection in it can make one slow too,
   * which is why one alone does not).
   */
  call<T>(call: () => T): Promise<T> {
    const started = this.now();
    try {
      return Promise.resolve(call());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.timed(started);
    }
  }

  /** Notes how long a call that began at `started` took. */
  private timed(started: number): void {
    const ended = this.now();
    if (ended - started <= SLOW_CALL_MS) {
      return;
    }
    this.slowCalls = [...this.slowCalls.filter((at) => ended - at < SLOW_WINDOW_MS), ended];
    if (this.slowCalls.length >= SLOW_CALLS) {
      this.pooledUntil = ended + SLOW_FOR_MS;
      this.slowCalls = [];
    }
  }
}

/**
 * An open descriptor read with direct calls: its first DIRECT_READ_MAX_BYTES, and while the calls
 * are fast; the rest through the pool. Closed once: a second close does not close a descriptor
 * number the system has since given to another file, and waits for a pooled read still running.
 */
class DirectHandle implements ReadHandle {
  private readDirectly = 0;
  private closed: Promise<void> | undefined;
  private pooledReads = new Set<Promise<unknown>>();

  constructor(
    readonly fd: number,
    private readonly calls: DirectWhileFast,
  ) {}

  stat(): Promise<Stats> {
    return this.closed === undefined ? this.calls.call(() => fstatSync(this.fd)) : closedError();
  }

  read(buffer: Buffer, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }> {
    if (this.closed !== undefined) {
      return closedError();
    }
    if (this.readDirectly + length > DIRECT_READ_MAX_BYTES || !this.calls.fast) {
      const pooled = readPooled(this.fd, buffer, offset, length, position);
      this.pooledReads.add(pooled);
      const settled = (): void => void this.pooledReads.delete(pooled);
      pooled.then(settled, settled);
      return pooled;
    }
    this.readDirectly += length;
    return this.calls.call(() => ({ bytesRead: readSync(this.fd, buffer, offset, length, position) }));
  }

  close(): Promise<void> {
    this.closed ??= Promise.allSettled([...this.pooledReads]).then(() => closeSync(this.fd));
    return this.closed;
  }
}

/** What fs/promises says of a call on a closed FileHandle. */
function closedError<T>(): Promise<T> {
  return Promise.reject(Object.assign(new Error('EBADF: bad file descriptor, the file was closed'), { code: 'EBADF' }));
}

const HOST = new DirectWhileFast();
const MOUNTS = new MountTable();
let directReads = false;

/**
 * Turns direct reads on for this process: the MCP server and the CLI. The extension host leaves
 * them off: it is shared with every other extension, which a hanging call would hold up too.
 */
export function enableDirectReads(): void {
  directReads = true;
}

/** How to open and read the file at `realPath` in this process now (see the file comment). */
export function hostFileAccessFor(realPath: string): FileAccess {
  return directReads && HOST.fast && MOUNTS.isLocal(realPath) ? HOST.direct : POOLED_ACCESS;
}
