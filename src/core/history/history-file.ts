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
import type { HistoryLimits } from './compact-history';
import { DEFAULT_HISTORY_LIMITS, compactIfNeeded } from './compact-history';
import type { FinishedCall } from './finished-call';
import { recordOf } from './finished-call';

const NEWLINE = 0x0a;

export type { HistoryLimits } from './compact-history';
export { DEFAULT_HISTORY_LIMITS } from './compact-history';

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
      const bytes = jsonLines(batch.map((call, index) => recordOf(call, index === 0 ? this.takeDropped() : 0)));
      await this.handle.append(bytes);
      this.written += bytes.length;
      if (this.written > this.limits.maxBytes / 4) {
        this.written = 0;
        if (await compactIfNeeded(this.file, this.limits)) {
          await this.handle.close();
        }
      }
    } catch (error) {
      this.warnOnce('write', `[history] cannot write the call history ${this.file}: ${error instanceof Error ? error.message : String(error)}; calls go on without it`);
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

/**
 * The records as JSON Lines, UTF-8, in one buffer. Each line is encoded straight into a buffer
 * sized for the worst case (3 bytes a UTF-16 unit): joining the long strings first (Array.join,
 * a template per line) or measuring each (Buffer.byteLength) cost as much as JSON.stringify.
 */
function jsonLines(records: readonly CallRecord[]): Buffer {
  const lines = records.map((record) => JSON.stringify(record));
  const bytes = Buffer.allocUnsafe(lines.reduce((sum, line) => sum + line.length * 3 + 1, 0));
  let offset = 0;
  for (const line of lines) {
    offset += bytes.write(line, offset);
    bytes[offset++] = NEWLINE;
  }
  return bytes.subarray(0, offset);
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
