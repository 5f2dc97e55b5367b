/**
 * Keeps a history file from growing without end: past `maxBytes` it is rewritten with only the
 * newest records, at most `maxRecords` of them in at most half the cap, so the next compaction is
 * half a cap of calls away. Locked against a second writer (another window, the server VS Code
 * starts), and replaced by rename, so a reader never sees half a file.
 */
import { open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { withFileLock } from '../approval/file-lock';

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

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxRecords: 1_000, maxBytes: 10 * 1024 * 1024, maxPending: 1_000, batchMs: 50 };

const NEWLINE = 0x0a;

/** Compacts `file` if it is past its cap; whether it did. */
export async function compactIfNeeded(file: string, limits: Pick<HistoryLimits, 'maxRecords' | 'maxBytes'>): Promise<boolean> {
  if ((await stat(file)).size <= limits.maxBytes) {
    return false;
  }
  // Checked again under the lock: another process may have compacted it meanwhile.
  return withFileLock(`${file}.lock`, async () => {
    const kept = await keptRecords(file, limits);
    if (kept === undefined) {
      return false;
    }
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, kept, { mode: 0o600 });
    await rename(temp, file);
    return true;
  });
}

/**
 * What compaction keeps of `file`, or undefined when it is not past its cap. Only the end of the
 * file that can be kept is read (half the cap), unless the newest record alone is longer.
 */
async function keptRecords(file: string, limits: Pick<HistoryLimits, 'maxRecords' | 'maxBytes'>): Promise<Buffer | undefined> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size <= limits.maxBytes) {
      return undefined;
    }
    const budget = Math.floor(limits.maxBytes / 2);
    // One byte more than the budget: the byte before the kept part (a newline, when a record starts there).
    const length = Math.min(size, budget + 1);
    const tail = Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(tail, 0, length, size - length);
    const content = tail.subarray(0, bytesRead);
    const start = keptStart(content, limits.maxRecords, budget);
    if (start > 0 || length === size) {
      return withFinalNewline(content.subarray(start));
    }
    // The newest record is longer than the budget: it is kept whole, so read it whole.
    const whole = await readFile(file);
    return withFinalNewline(whole.subarray(keptStart(whole, limits.maxRecords, budget)));
  } finally {
    await handle.close();
  }
}

/**
 * Where the newest non-empty lines of `content` start: as many as fit in `budget` bytes (with
 * their newlines), at most `maxRecords`, and always the newest one.
 */
export function keptStart(content: Buffer, maxRecords: number, budget: number): number {
  const end = content.length > 0 && content[content.length - 1] === NEWLINE ? content.length - 1 : content.length;
  let start = end;
  let kept = 0;
  // `scan` is where the next older line ends (exclusive); -1 once the first line was taken.
  for (let scan = end; kept < maxRecords && scan >= 0; ) {
    const lineStart = scan === 0 ? 0 : content.lastIndexOf(NEWLINE, scan - 1) + 1;
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

/** The kept lines as they are in the file, with a newline after the last (a crash may have cut it). */
function withFinalNewline(kept: Buffer): Buffer {
  return kept.length > 0 && kept[kept.length - 1] === NEWLINE ? kept : Buffer.concat([kept, Buffer.from('\n')]);
}
