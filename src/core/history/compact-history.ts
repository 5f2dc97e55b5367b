/**
 * Keeps a history file from growing without end: past `maxBytes` it is rewritten with only the
 * newest records, at most `maxRecords` of them in at most half the cap, so the next compaction is
 * half a cap of calls away. Locked against a second writer (another window, the server VS Code
 * starts), and replaced by rename, so a reader never sees half a file.
 *
 * The file is read backwards and copied through one buffer the caller keeps (`scratch`): a fresh
 * 5 MB buffer per compaction made V8 collect garbage for ~10 ms each time.
 */
import type { FileHandle } from 'node:fs/promises';
import { open, stat } from 'node:fs/promises';
import { withFileLock } from '../approval/file-lock';
import { replaceFile } from '../platform/replace-file';

/** How much history is kept, and how records are batched (history-file.ts uses them all). */
export interface HistoryLimits {
  /** Records kept when compacting. */
  readonly maxRecords: number;
  /** Size past which the file is compacted. */
  readonly maxBytes: number;
  /** Records waiting to be written past which the oldest are dropped (and counted). */
  readonly maxPending: number;
  /** The longest a record waits before it is written: records that end within it share a write. */
  readonly batchMs: number;
}

const NEWLINE = 0x0a;

/** Compacts `file` if it is past its cap; whether it did. */
export async function compactIfNeeded(file: string, limits: Pick<HistoryLimits, 'maxRecords' | 'maxBytes'>, scratch: Buffer): Promise<boolean> {
  if ((await stat(file)).size <= limits.maxBytes) {
    return false;
  }
  // Checked again under the lock: another process may have compacted it meanwhile.
  return withFileLock(`${file}.lock`, async () => {
    const temp = `${file}.${process.pid}.tmp`;
    const source = await open(file, 'r');
    try {
      const { size } = await source.stat();
      if (size <= limits.maxBytes) {
        return false;
      }
      const reader = new BackwardReader(source, size, scratch);
      const end = (await reader.byteAt(size - 1)) === NEWLINE ? size - 1 : size;
      const start = await keptStart(end, limits.maxRecords, Math.floor(limits.maxBytes / 2), (position) => reader.lastNewlineBefore(position));
      await copyRange(source, start, end, temp, scratch);
    } finally {
      await source.close();
    }
    // After the source is closed: Windows refuses to replace a file this process holds open.
    await replaceFile(temp, file);
    return true;
  });
}

/**
 * Where the newest non-empty lines of a text that ends at `end` (its final newline excluded)
 * start: as many as fit in `budget` bytes with their newlines, at most `maxRecords`, and always
 * the newest one. `lastNewlineBefore(position)` is the offset of the last newline before
 * `position`, or -1.
 */
export async function keptStart(end: number, maxRecords: number, budget: number, lastNewlineBefore: (position: number) => number | Promise<number>): Promise<number> {
  let start = end;
  let kept = 0;
  // `scan` is where the next older line ends (exclusive); -1 once the first line was taken.
  for (let scan = end; kept < maxRecords && scan >= 0; ) {
    const lineStart = scan === 0 ? 0 : (await lastNewlineBefore(scan)) + 1;
    if (kept > 0 && end + 1 - lineStart > budget) {
      break;
    }
    if (lineStart < scan) {
      kept += 1;
    }
    start = lineStart;
    scan = lineStart - 1;
  }
  return start;
}

/** Bytes `start` to `end` of `source`, and a newline, into a new owner-only file `target`. */
async function copyRange(source: FileHandle, start: number, end: number, target: string, scratch: Buffer): Promise<void> {
  const output = await open(target, 'w', 0o600);
  try {
    for (let position = start; position < end; ) {
      const { bytesRead } = await source.read(scratch, 0, Math.min(scratch.length, end - position), position);
      if (bytesRead === 0) {
        break;
      }
      await output.write(scratch, 0, bytesRead);
      position += bytesRead;
    }
    await output.write('\n');
  } finally {
    await output.close();
  }
}

/** Random reads near the end of a file, one buffer-sized chunk at a time. */
class BackwardReader {
  /** File offset of the chunk in `scratch`, and its length. */
  private chunkStart = 0;
  private chunkLength = 0;

  constructor(
    private readonly source: FileHandle,
    private readonly size: number,
    private readonly scratch: Buffer,
  ) {}

  async byteAt(position: number): Promise<number | undefined> {
    if (position < 0 || position >= this.size) {
      return undefined;
    }
    await this.load(position);
    return this.scratch[position - this.chunkStart];
  }

  async lastNewlineBefore(position: number): Promise<number> {
    for (let before = position; before > 0; before = this.chunkStart) {
      await this.load(before - 1);
      const found = this.scratch.lastIndexOf(NEWLINE, before - 1 - this.chunkStart);
      if (found !== -1) {
        return this.chunkStart + found;
      }
    }
    return -1;
  }

  /** Makes the chunk in `scratch` hold `position`: the chunk that ends just after it. */
  private async load(position: number): Promise<void> {
    if (position >= this.chunkStart && position < this.chunkStart + this.chunkLength) {
      return;
    }
    const chunkEnd = Math.min(this.size, position + 1);
    const start = Math.max(0, chunkEnd - this.scratch.length);
    const { bytesRead } = await this.source.read(this.scratch, 0, chunkEnd - start, start);
    this.chunkStart = start;
    this.chunkLength = bytesRead;
  }
}
