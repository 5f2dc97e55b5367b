/**
 * The call history as a JSON Lines file: one record a line, appended in order; past half its cap
 * the file is rotated to `<file>.1` (rotate-history.ts), and both are read. Recording costs a call
 * little: the call hands over its record (finished-call.ts), and lines are written later, after
 * the answer, in batches (the calls that end within batchMs of each other, or sooner when the
 * records waiting hold batchBytes), through one open file.
 * Records still waiting when the process exits are written before it goes (write-on-exit.ts). A
 * history that cannot be written never fails a call: the first failure is logged once, the rest
 * quietly.
 */
import { readFile } from 'node:fs/promises';
import type { Logger } from '../types';
import { AppendHandle } from './append-handle';
import type { CallRecord } from './call-record';
import type { FinishedCall } from './finished-call';
import { rotateIfNeeded, rotatedPath, rotationBytes } from './rotate-history';
import type { ExitWriter } from './write-on-exit';
import { appendSync, nothingOnExit, writeOnExit } from './write-on-exit';

/** How much history is kept, and how records are batched. */
export interface HistoryLimits {
  /** The most the file and its rotated predecessor hold together (each rotates at half). */
  readonly maxBytes: number;
  /** Records waiting to be written past which the oldest are dropped (and counted). */
  readonly maxPending: number;
  /**
   * How long a record waits for the others of its batch: records that end within it share a write.
   * One that ends while a batch is being written waits for that write and then batchMs more,
   * unless the records waiting are already a full batch (batchBytes, or a quarter of maxPending).
   */
  readonly batchMs: number;
  /**
   * About how many bytes the records waiting may hold (outputs and inputs, in UTF-16 units:
   * FinishedCall.waitingBytes) before they are written without waiting out batchMs. Bounds the
   * memory of a fast stream of large results; a fast stream of small ones is written once a
   * quarter of maxPending waits, so neither reaches maxPending while the disk keeps up.
   */
  readonly batchBytes: number;
}

/**
 * 250 ms: each batch costs a wake-up of the event loop and two trips through the thread pool,
 * ~0.4 ms of CPU on a 2-core VM whatever it holds; at 50 ms a chat's calls paid it about once
 * a block of calls (bench/notes.md, "The call history, fifth pass"). A crash loses the calls of
 * the last 250 ms, and of a write in progress (records waiting at a normal exit are written:
 * write-on-exit.ts).
 */
export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxBytes: 10 * 1024 * 1024, maxPending: 1_000, batchMs: 250, batchBytes: 1024 * 1024 };

/** Where records go; the registry calls `record` when a call ends, before its result is returned. */
export interface CallHistory {
  /**
   * Queues a call that just ended. It is written in the next batch, `batchMs` later (after the
   * batch being written, if one is), with the calls that ended meanwhile, or as soon as the
   * records waiting are a full batch (`batchBytes`, or a quarter of `maxPending`); past
   * `maxPending` waiting records the oldest are dropped and counted.
   */
  record(call: FinishedCall): void;
}

export class HistoryFile implements CallHistory, ExitWriter {
  private pending: FinishedCall[] = [];
  /** What the records in `pending` hold (FinishedCall.waitingBytes). */
  private pendingBytes = 0;
  /** Records dropped since the last one written: the next record written says so. */
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The delay `timer` was set with: a sooner batch replaces it, a later one does not. */
  private timerDelay = 0;
  private writing: Promise<void> | undefined;
  private readonly handle: AppendHandle;
  private readonly warned = new Set<'write' | 'dropped'>();

  constructor(
    readonly file: string,
    private readonly logger: Logger,
    private readonly limits: HistoryLimits = DEFAULT_HISTORY_LIMITS,
  ) {
    this.handle = new AppendHandle(file);
  }

  record(call: FinishedCall): void {
    if (this.pending.length >= this.limits.maxPending) {
      const oldest = this.pending.shift();
      this.pendingBytes -= oldest?.waitingBytes ?? 0;
      oldest?.release();
      this.dropped += 1;
      this.warnOnce('dropped', `[history] calls end faster than ${this.file} is written; the oldest records waiting are dropped, and the next record written says how many`);
    }
    if (this.pending.length === 0) {
      writeOnExit(this);
    }
    this.pending.push(call);
    this.pendingBytes += call.waitingBytes;
    if (this.writing !== undefined) {
      return;
    }
    if (this.fullBatchWaits()) {
      // Right after this call's answer, not before it: a batch's heads are serialized as it starts.
      this.scheduleBatch(0);
    } else {
      this.scheduleBatch();
    }
  }

  /** Resolves when every record queued so far is written (the History view, tests, shutdown). */
  async flush(): Promise<void> {
    while (this.writing !== undefined || this.pending.length > 0) {
      await this.writeBatch();
    }
  }

  /** Writes what is queued, then closes the file (a later record opens it again). */
  async close(): Promise<void> {
    await this.flush();
    await this.handle.close();
  }

  /**
   * The newest `limit` records, newest first, from the file and, when it holds fewer, the file it
   * was rotated from; unreadable lines are skipped.
   */
  async read(limit = 50): Promise<CallRecord[]> {
    const newest = newestRecords(await readText(this.file), limit);
    if (newest.length >= limit) {
      return newest;
    }
    return [...newest, ...newestRecords(await readText(rotatedPath(this.file)), limit - newest.length)];
  }

  /**
   * Writes the records waiting, synchronously (the process is exiting: write-on-exit.ts). A batch
   * already handed to the system is not written again. Never throws: an exit must go on.
   */
  writePendingSync(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.takePending();
    if (batch.length === 0) {
      return;
    }
    try {
      appendSync(this.file, Buffer.concat(this.lines(batch)));
    } catch {
      // Nobody is left to tell: the process is exiting.
    }
    released(batch);
  }

  /**
   * The records waiting are written within batchMs (or `delay`, when sooner), together with those
   * that end meanwhile. The timer does not keep the process alive: a command whose work is done
   * (`call`, `test`) exits at once, and what waits is written as it exits (write-on-exit.ts);
   * before, `call` waited out the batch, 50 ms and then 250 ms after its result.
   */
  private scheduleBatch(delay = this.limits.batchMs): void {
    if (this.timer !== undefined && delay < this.timerDelay) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.timer === undefined) {
      this.timerDelay = delay;
      this.timer = setTimeout(() => void this.writeBatch(), delay).unref();
    }
  }

  /**
   * Writes the records waiting now as one batch, or joins the batch being written. Records that end
   * while a batch is written wait for the next one, batchMs later, not for the write to finish: at a
   * steady stream of calls, a batch begun as soon as the last was written held one or two records,
   * and every call paid for a write and a `stat` through the thread pool.
   */
  private writeBatch(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing === undefined && this.pending.length > 0) {
      const batch = this.takePending();
      this.writing = this.write(batch).finally(() => {
        this.writing = undefined;
        if (this.fullBatchWaits()) {
          void this.writeBatch();
        } else if (this.pending.length > 0) {
          this.scheduleBatch();
        } else {
          nothingOnExit(this);
        }
      });
    }
    return this.writing ?? Promise.resolve();
  }

  private async write(batch: readonly FinishedCall[]): Promise<void> {
    try {
      const size = await this.handle.append(this.lines(batch));
      if (size > rotationBytes(this.limits.maxBytes)) {
        // Closed first (the next batch opens the new file): Windows does not rename an open file.
        await this.handle.close();
        await rotateIfNeeded(this.file, this.limits.maxBytes);
      }
    } catch (error) {
      this.warnOnce('write', `[history] cannot write the call history ${this.file}: ${error instanceof Error ? error.message : String(error)}; calls go on without it`);
    }
    released(batch);
  }

  /** Whether the records waiting are a batch to write now rather than after batchMs. */
  private fullBatchWaits(): boolean {
    return this.pendingBytes >= this.limits.batchBytes || this.pending.length >= this.limits.maxPending / 4;
  }

  private takePending(): FinishedCall[] {
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    return batch;
  }

  /**
   * The batch's lines as bytes to write one after the other, each record's head serialized now;
   * the first says how many records were dropped before it.
   */
  private lines(batch: readonly FinishedCall[]): Buffer[] {
    const dropped = this.takeDropped();
    return batch.flatMap((call, index) => call.parts(index === 0 ? dropped : 0));
  }

  private takeDropped(): number {
    const dropped = this.dropped;
    this.dropped = 0;
    return dropped;
  }

  private warnOnce(kind: 'write' | 'dropped', message: string): void {
    if (!this.warned.has(kind)) {
      this.warned.add(kind);
      this.logger.warn(message);
    }
  }
}

/** The batch's lines are written (or could not be): their bytes can be used again (kept-bytes.ts). */
function released(batch: readonly FinishedCall[]): void {
  for (const call of batch) {
    call.release();
  }
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return '';
  }
}

/** The last `limit` records of a JSON Lines text, newest first; only those lines are parsed. */
function newestRecords(text: string, limit: number): CallRecord[] {
  const records: CallRecord[] = [];
  for (let end = text.length; end > 0 && records.length < limit; ) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    end = start - 1;
    if (line.trim() === '') {
      continue;
    }
    try {
      records.push(JSON.parse(line) as CallRecord);
    } catch {
      // a line cut by a crash: skip it
    }
  }
  return records;
}
