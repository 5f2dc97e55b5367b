/**
 * One file kept open for appending, instead of an open, write and close per record. The path is
 * checked before each batch: when it no longer names the file that is open (rotated by another
 * process, removed, replaced), the handle is reopened, so the next records go where readers look.
 * The same check gives the file's size, which rotation needs, without another system call.
 */
import { close, fstat, mkdir, open, stat, writev } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const openFile = promisify(open);
const closeFile = promisify(close);
const statPath = promisify(stat);
const statFile = promisify(fstat);
const makeDirectory = promisify(mkdir);
const writeFiles = promisify(writev);

interface OpenFile {
  readonly fd: number;
  readonly dev: number;
  readonly ino: number;
}

export class AppendHandle {
  private current: OpenFile | undefined;
  /** The open file's size when the path was last checked, plus what this handle wrote since. */
  private size = 0;

  /**
   * `file` is created owner-only (0600), in an owner-only directory (0700) made when missing:
   * inputs are redacted, but outputs are kept as the tools printed them.
   */
  constructor(readonly file: string) {}

  /**
   * Appends `buffers` one after the other to the file the path names now, in one system call
   * where it takes them all (records already encoded: nothing is copied). Resolves to the file's
   * size after them, as far as this handle knows (rotation needs it).
   */
  async append(buffers: readonly Buffer[]): Promise<number> {
    const { fd } = await this.openFile();
    let left = adjacentJoined(buffers);
    while (left.length > 0) {
      const written = (await writeFiles(fd, left)).bytesWritten;
      this.size += written;
      left = after(left, written);
    }
    return this.size;
  }

  /** Closes the file; the next append opens it again. Never rejects. */
  async close(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (current !== undefined) {
      await closeFile(current.fd).catch(() => undefined);
    }
  }

  /** The open file, if the path still names it; else the file the path names now, opened. */
  private async openFile(): Promise<OpenFile> {
    if (this.current !== undefined) {
      const named = await statPath(this.file).catch(() => undefined);
      if (named !== undefined && named.ino === this.current.ino && named.dev === this.current.dev) {
        // Other processes append to the same file: their records count towards its size too.
        this.size = named.size;
        return this.current;
      }
      await this.close();
    }
    const fd = await openFile(this.file, 'a', 0o600).catch(async (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw error;
      }
      await makeDirectory(path.dirname(this.file), { recursive: true, mode: 0o700 });
      return openFile(this.file, 'a', 0o600);
    });
    const { dev, ino, size } = await statFile(fd).catch(async (error: unknown) => {
      await closeFile(fd).catch(() => undefined);
      throw error;
    });
    this.current = { fd, dev, ino };
    this.size = size;
    return this.current;
  }
}

/**
 * `buffers` with each run of views that follow one another in the same memory joined into one
 * view: the records of a batch, encoded one after the other into a chunk, are written as one.
 */
export function adjacentJoined(buffers: readonly Buffer[]): Buffer[] {
  const joined: Buffer[] = [];
  for (const buffer of buffers) {
    const last = joined[joined.length - 1];
    if (last !== undefined && last.buffer === buffer.buffer && last.byteOffset + last.length === buffer.byteOffset) {
      joined[joined.length - 1] = Buffer.from(last.buffer, last.byteOffset, last.length + buffer.length);
    } else if (buffer.length > 0) {
      joined.push(buffer);
    }
  }
  return joined;
}

/** What of `buffers` is left after their first `written` bytes. */
export function after(buffers: readonly Buffer[], written: number): Buffer[] {
  const left: Buffer[] = [];
  let skip = written;
  for (const buffer of buffers) {
    if (skip >= buffer.length) {
      skip -= buffer.length;
    } else {
      left.push(skip === 0 ? buffer : buffer.subarray(skip));
      skip = 0;
    }
  }
  return left;
}
