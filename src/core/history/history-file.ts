/**
 * The call history as a JSON Lines file: one record a line, appended in order; past half its cap
 * the file is rotated to `<file>.1` (rotate-history.ts), and both are read. Recording costs a call
 * next to nothing: the call hands over what is kept of it (finished-call.ts), and records are
 * redacted, serialized and written later, after the answer, in batches, through one open file.
 * Records still waiting when the process exits are written before it goes (write-on-exit.ts). A
 * history that cannot be written never fails a call: the first failure is logged once, the rest
 * quietly.
 */
import { readFile } from 'node:fs/promises';
import type { Logger } from '../types';
import { AppendHandle, lineBytes } from './append-handle';
import type { CallRecord } from './call-record';
import type { FinishedCall } from './finished-call';
import { recordLineParts } from './finished-call';
import { releaseKept } from './kept-bytes';
import { rotateIfNeeded, rotatedPath, rotationBytes } from './rotate-history';
import type { ExitWriter } from './write-on-exit';
import { appendSync, nothingOnExit, writeOnExit } from './write-on-exit';

/** How much history is kept, and how records are batched. */
export interface HistoryLimits {
  /** The most the file and its rotated predecessor hold together (each rotates at half). */
  readonly maxBytes: number;
  /** Records waiting to be written past which the oldest are dropped (and counted). */
  readonly maxPending: number;
  /** The longest a record waits before it is written: records that end within it share a write. */
  readonly batchMs: number;
}

/** The buffer records are encoded into, kept for the file's life (only what is used of it is resident). */
const SCRATCH_BYTES = 1024 * 1024;

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxBytes: 10 * 1024 * 1024, maxPending: 1_000, batchMs: 50 };

/** Where records go; the registry calls `record` when a call ends, before its result is returned. */
export interface CallHistory {
  /**
   * Queues a call that just ended. It is written within `batchMs`, with the calls that ended
   * meanwhile; past `maxPending` waiting records the oldest are dropped and counted.
   */
  record(call: FinishedCall): void;
}

export class HistoryFile implements CallHistory, ExitWriter {
  private pending: FinishedCall[] = [];
  /** Records dropped since the last one written: the next record written says so. */
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private readonly handle: AppendHandle;
  private readonly warned = new Set<'write' | 'dropped'>();
  private scratch: Buffer | undefined;

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
      if (oldest !== undefined) {
        releaseKept(oldest.outputJson);
      }
      this.dropped += 1;
      this.warnOnce('dropped', `[history] calls end faster than ${this.file} is written; the oldest records waiting are dropped, and the next record written says how many`);
    }
    if (this.pending.length === 0) {
      writeOnExit(this);
    }
    this.pending.push(call);
    // Not unref'd: a command that ends right after a call (`call`) still writes its record.
    if (this.timer === undefined && this.writing === undefined) {
      this.timer = setTimeout(() => void this.writeAll(), this.limits.batchMs);
    }
  }

  /** Resolves when every record queued so far is written (the History view, tests, shutdown). */
  flush(): Promise<void> {
    return this.writeAll();
  }

  /** Writes what is queued, then closes the file (a later record opens it again). */
  async close(): Promise<void> {
    await this.writeAll();
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
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) {
      return;
    }
    try {
      appendSync(this.file, Buffer.concat([...this.jsonLines(batch)].map(lineBytes)));
    } catch {
      // Nobody is left to tell: the process is exiting.
    }
    released(batch);
  }

  /** Writes batches until nothing waits; one writer at a time, joined by later callers. */
  private writeAll(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing ??= this.drain().finally(() => {
      this.writing = undefined;
      // A record queued after the last batch was taken, while this promise settled.
      if (this.pending.length > 0) {
        void this.writeAll();
      } else {
        nothingOnExit(this);
      }
    });
    return this.writing;
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      await this.writeBatch(batch);
    }
  }

  private async writeBatch(batch: readonly FinishedCall[]): Promise<void> {
    try {
      this.scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES);
      const size = await this.handle.appendLines(this.jsonLines(batch), this.scratch);
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

  /** The batch's records as JSON lines in parts, one at a time; the first says how many were dropped before it. */
  private *jsonLines(batch: readonly FinishedCall[]): Generator<ReadonlyArray<string | Buffer>> {
    for (const [index, call] of batch.entries()) {
      yield recordLineParts(call, index === 0 ? this.takeDropped() : 0);
    }
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

/** The batch's outputs are written (or could not be): their bytes can be used again (kept-bytes.ts). */
function released(batch: readonly FinishedCall[]): void {
  for (const call of batch) {
    releaseKept(call.outputJson);
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
