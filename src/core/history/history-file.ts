/**
 * The call history as a JSON Lines file: one record a line, appended in order, compacted to the
 * newest records when it grows past its cap. A history that cannot be written never fails a
 * call: the first failure is logged once, the rest quietly.
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { withFileLock } from '../approval/file-lock';
import type { Logger } from '../types';
import type { CallRecord } from './call-record';
import { replaceFile } from '../platform/replace-file';

/** Where records go; the registry calls `record` after each call's result was returned. */
export interface CallHistory {
  /**
   * Queues the record of a call that just ended. `build` runs later, after a turn of the event
   * loop, so building and writing the record cost the call nothing: the door sends the result
   * first.
   */
  record(build: () => CallRecord): void;
}

export interface HistoryLimits {
  /** Records kept when compacting. */
  readonly maxRecords: number;
  /** Size past which the file is compacted. */
  readonly maxBytes: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxRecords: 1_000, maxBytes: 10 * 1024 * 1024 };

export class HistoryFile implements CallHistory {
  private queue: Promise<void> = Promise.resolve();
  private warned = false;
  private directoryMade: Promise<unknown> | undefined;
  /** Bytes written since the size was last known to be under the cap (an estimate is enough). */
  private written = 0;

  constructor(
    readonly file: string,
    private readonly logger: Logger,
    private readonly limits: HistoryLimits = DEFAULT_HISTORY_LIMITS,
  ) {}

  record(build: () => CallRecord): void {
    this.queue = this.queue
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => this.append(build));
  }

  /** Resolves when every record queued so far is written (the History view, tests, shutdown). */
  flush(): Promise<void> {
    return this.queue;
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

  private async append(build: () => CallRecord): Promise<void> {
    try {
      const line = `${JSON.stringify(build())}\n`;
      // Owner-only: inputs are redacted, but outputs are kept as the tool printed them. The
      // directory is made on the first write, and again only if it has gone since.
      this.directoryMade ??= mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      await this.directoryMade;
      await appendFile(this.file, line, { mode: 0o600 }).catch(async (error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
          throw error;
        }
        await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
        await appendFile(this.file, line, { mode: 0o600 });
      });
      this.written += Buffer.byteLength(line);
      if (this.written > this.limits.maxBytes / 4) {
        this.written = 0;
        await this.compactIfNeeded();
      }
    } catch (error) {
      if (!this.warned) {
        this.warned = true;
        this.logger.warn(`[history] cannot write the call history ${this.file}: ${error instanceof Error ? error.message : String(error)}; calls go on without it`);
      }
    }
  }

  /** Keeps the newest records when the file is past its cap; locked against a second writer. */
  private async compactIfNeeded(): Promise<void> {
    await withFileLock(`${this.file}.lock`, async () => {
      const text = await readFile(this.file, 'utf8');
      if (Buffer.byteLength(text) <= this.limits.maxBytes) {
        return;
      }
      let kept = text.split('\n').filter((line) => line !== '').slice(-this.limits.maxRecords);
      while (kept.length > 1 && Buffer.byteLength(kept.join('\n')) > this.limits.maxBytes / 2) {
        kept = kept.slice(Math.ceil(kept.length / 4));
      }
      const temp = `${this.file}.${process.pid}.tmp`;
      await writeFile(temp, `${kept.join('\n')}\n`, { mode: 0o600 });
      await replaceFile(temp, this.file);
    });
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
