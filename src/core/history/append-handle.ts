/**
 * One file kept open for appending, instead of an open, write and close per record. The path is
 * checked before each batch: when it no longer names the file that is open (rotated by another
 * process, removed, replaced), the handle is reopened, so the next records go where readers look.
 * The same check gives the file's size, which rotation needs, without another system call.
 */
import { close, fstat, mkdir, open, stat, write } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const openFile = promisify(open);
const closeFile = promisify(close);
const statPath = promisify(stat);
const statFile = promisify(fstat);
const makeDirectory = promisify(mkdir);
const writeFile = promisify(write);

const NEWLINE = 0x0a;

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
   * Appends each line and a newline to the file the path names now, encoded into `scratch` and
   * written a buffer-full at a time (a line too long for it, on its own). A line comes in parts,
   * strings encoded and bytes copied one after the other: joining them first would copy a record's
   * 10 KB output into a new string only to encode it. One buffer for every batch: a fresh buffer
   * per batch (megabytes at tens of calls in flight) made V8 collect garbage. Resolves to the
   * file's size after the batch, as far as this handle knows (rotation needs it).
   */
  async appendLines(lines: Iterable<ReadonlyArray<string | Buffer>>, scratch: Buffer): Promise<number> {
    let offset = 0;
    const write = async (bytes: Buffer): Promise<void> => {
      // Opened (or the path checked) once the first bytes are ready, as before any write.
      const { fd } = await this.openFile();
      for (let done = 0; done < bytes.length; ) {
        done += (await writeFile(fd, bytes, done, bytes.length - done)).bytesWritten;
      }
      this.size += bytes.length;
    };
    const flush = async (): Promise<void> => {
      if (offset > 0) {
        await write(scratch.subarray(0, offset));
        offset = 0;
      }
    };
    for (const parts of lines) {
      // The worst case, 3 bytes a UTF-16 unit: measuring each line first cost as much as encoding it.
      let bound = 1;
      for (const part of parts) {
        bound += typeof part === 'string' ? part.length * 3 : part.length;
      }
      if (offset + bound > scratch.length) {
        await flush();
      }
      if (bound > scratch.length) {
        await write(lineBytes(parts));
        continue;
      }
      for (const part of parts) {
        offset += typeof part === 'string' ? scratch.write(part, offset) : part.copy(scratch, offset);
      }
      scratch[offset++] = NEWLINE;
    }
    await flush();
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

/** A line's parts and its newline, as one buffer. */
export function lineBytes(parts: ReadonlyArray<string | Buffer>): Buffer {
  return Buffer.concat([...parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)), Buffer.of(NEWLINE)]);
}
