/**
 * The call history as a JSON Lines file: one record a line, appended in order, compacted to the
 * newest records when it grows past its cap. Recording costs a call next to nothing: the call
 * hands over what is kept of it (finished-call.ts), and records are redacted, serialized and
 * written later, in batches, through one open file. A history that cannot be written never fails
 * a call: the first failure is logged once, the rest quietly.
 */
import { readFile } from 'node:fs/promises';
import type { Logger } from '../types';
import { AppendHandle } from './append-handle';
import type { CallRecord } from './call-record';
import { compactIfNeeded } from './compact-history';
import type { HistoryLimits } from './compact-history';

export type { HistoryLimits } from './compact-history';
import type { FinishedCall } from './finished-call';
import { recordOf } from './finished-call';

/**
 * The buffer records are encoded into and compaction copies through, kept for the file's life
 * (only what is used of it is resident).
 */
const SCRATCH_BYTES = 1024 * 1024;

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxRecords: 1_000, maxBytes: 10 * 1024 * 1024, maxPending: 1_000, batchMs: 50 };

/** Where records go; the registry calls `record` when a call ends, before its result is returned. */
export interface CallHistory {
  /**
   * Queues a call that just ended. It is written within `batchMs`, with the calls that ended
   * meanwhile; past `maxPending` waiting records the oldest are dropped and counted.
   */
  record(call: FinishedCall): void;
}

export class HistoryFile implements CallHistory {
  private pending: FinishedCall[] = [];
  /** Records dropped since the last one written: the next record written says so. */
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private readonly handle: AppendHandle;
  private readonly warned = new Set<'write' | 'dropped'>();
  /** Bytes written since the size was last checked against the cap (an estimate is enough). */
  private written = 0;
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
      this.pending.shift();
      this.dropped += 1;
      this.warnOnce('dropped', `[history] calls end faster than ${this.file} is written; the oldest records waiting are dropped, and the next record written says how many`);
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

  /** The newest `limit` records, newest first; unreadable lines are skipped. */
  async read(limit = 50): Promise<CallRecord[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return [];
    }
    return parseLines(text).slice(-limit).reverse();
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
      this.written += await this.handle.appendLines(this.jsonLines(batch), this.scratch);
      if (this.written > this.limits.maxBytes / 4) {
        this.written = 0;
        // Closed first (the next batch opens it again): Windows does not replace an open file.
        await this.handle.close();
        await compactIfNeeded(this.file, this.limits, this.scratch);
      }
    } catch (error) {
      this.warnOnce('write', `[history] cannot write the call history ${this.file}: ${error instanceof Error ? error.message : String(error)}; calls go on without it`);
    }
  }

  /** The batch's records as JSON, one at a time; the first says how many were dropped before it. */
  private *jsonLines(batch: readonly FinishedCall[]): Generator<string> {
    for (const [index, call] of batch.entries()) {
      yield JSON.stringify(recordOf(call, index === 0 ? this.takeDropped() : 0));
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

function parseLines(text: string): CallRecord[] {
  const records: CallRecord[] = [];
  for (const line of text.split('\n')) {
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
