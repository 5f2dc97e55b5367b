/**
 * Reads a whole file that someone else may have put in place of the expected one: a symlink to a
 * FIFO (a plain read would wait for a writer forever), to a device such as /dev/zero (endless), or
 * to something huge. Opened non-blocking, regular files only, at most `maxBytes`.
 */
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ReadHandle } from '../platform/file-access';

/** The file's bytes; throws (with a sentence saying why) for anything but a regular file up to `maxBytes`. */
export async function readBoundedFile(file: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    return await readBoundedHandle(handle, await handle.stat(), maxBytes);
  } finally {
    await handle.close();
  }
}

/**
 * The bytes of an open file whose fstat is `info` (the caller opened it, non-blocking, and
 * closes it); the same refusals as readBoundedFile.
 */
export async function readBoundedHandle(handle: ReadHandle, info: Stats, maxBytes: number): Promise<Buffer> {
  if (!info.isFile()) {
    throw new Error('not a regular file (device, pipe or directory); it was not read');
  }
  const tooBig = (): Error => new Error(`the file is larger than ${maxBytes} bytes; it was not read`);
  if (info.size > maxBytes) {
    throw tooBig();
  }
  // Read to EOF but never past the cap, in case the file grows after the fstat. The first
  // buffer fits the whole file (one read); one byte more tells whether it grew.
  const chunks: Buffer[] = [];
  let length = 0;
  for (let room = info.size + 1; ; room = 64 * 1024) {
    const chunk = Buffer.allocUnsafe(room);
    const { bytesRead } = await handle.read(chunk, 0, room, null);
    if (bytesRead === 0) {
      break;
    }
    chunks.push(chunk.subarray(0, bytesRead));
    length += bytesRead;
    if (length > maxBytes) {
      throw tooBig();
    }
  }
  // Almost always one chunk (the file did not grow): no copy of it.
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
}
