/**
 * Where the kept outputs of calls wait to be written, as UTF-8 bytes outside V8's heap. A record
 * waits up to 50 ms for its batch; held as a 10 KB string it survived the garbage collections
 * that ran meanwhile, each of which copied it (at a few calls a millisecond that is a megabyte or
 * more a collection), and moved it to the old generation, which a full collection then had to
 * clear. Bytes are taken from large chunks one after the other (a chunk is freed once no waiting
 * record uses it any more), so a record costs one UTF-8 encoding and no allocation of its own.
 */

/** The size of a chunk: many records each, and few enough chunks that allocating them costs nothing. */
const CHUNK_BYTES = 256 * 1024;

/** The chunk being filled: none until the first record (a process that records nothing allocates nothing). */
let chunk: Buffer | undefined;
let used = 0;

/** `text` encoded as UTF-8, in bytes that are this caller's alone (a view of a shared chunk). */
export function keptBytes(text: string): Buffer {
  // The worst case, 3 bytes a UTF-16 unit: measuring the text first would cost as much as encoding it.
  const bound = text.length * 3;
  if (bound > CHUNK_BYTES / 4) {
    return Buffer.from(text, 'utf8');
  }
  if (chunk === undefined || used + bound > CHUNK_BYTES) {
    chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
    used = 0;
  }
  const start = used;
  used += chunk.write(text, start);
  return chunk.subarray(start, used);
}
