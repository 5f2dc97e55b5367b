/**
 * Where the records of calls wait to be written, as UTF-8 bytes outside V8's heap, in chunks that
 * are filled again once their records are written.
 *
 * Why bytes: a record's output waits 250 ms or more for its batch; held as a 10 KB string it survived the
 * garbage collections that ran meanwhile, each of which copied it, and moved it to the old
 * generation, which a full collection then had to clear.
 *
 * Why chunks used again: a fresh chunk every few records lived as long as its records waited,
 * long enough to be moved to the old generation, and only a full collection frees the memory of an
 * old buffer. So the memory outside the heap grew by the size of every output until V8 ran a full
 * collection for it: about one a second at a few calls a millisecond, each marking the whole heap
 * on V8's helper threads (measured: 5 full collections against 1 without the history in 13 s, and
 * ~30 µs of helper-thread CPU a call). A chunk whose records are all written (KeptLine.release)
 * now waits in a small pool for the next records; a chunk nobody releases is left to the garbage
 * collector as before.
 *
 * Each line knows its chunk, rather than a weak map from bytes to chunk and a weak set of the bytes
 * released: every entry of those was an ephemeron, which each young-generation collection had to
 * visit, for about a microsecond a call.
 */

/** The size of a chunk: many records each, and few enough chunks that allocating them costs nothing. */
const CHUNK_BYTES = 256 * 1024;
/**
 * Chunks kept for later once emptied (4 MB): the records of a batch being written and of the next
 * one filling, at the fastest calls measured (10 KB reads back to back, ~300 in one batch).
 */
const POOLED_CHUNKS = 16;

/** A chunk, and how many of its lines are not released yet. */
interface Chunk {
  readonly bytes: Buffer;
  waiting: number;
}

/** The chunk being filled: none until the first line (a process that records nothing allocates nothing). */
let filling: Chunk | undefined;
let used = 0;
/** Emptied chunks, to be filled again. */
const pool: Chunk[] = [];
/** How many chunks were allocated: tests see that emptied chunks are filled again. */
let allocated = 0;

/** A line's bytes, this holder's alone (a view of a shared chunk) until it releases them. */
export class KeptLine {
  /** The chunk the bytes are in, until released; none for a line too long for a chunk. */
  private chunk: Chunk | undefined;

  constructor(
    readonly line: Buffer,
    chunk: Chunk | undefined,
  ) {
    this.chunk = chunk;
  }

  /**
   * The bytes are written or dropped and will not be read again: their chunk is filled again once
   * none of its lines waits. A second release does nothing: it would let the chunk be filled while
   * another line waits in it.
   */
  release(): void {
    const chunk = this.chunk;
    if (chunk === undefined) {
      return;
    }
    this.chunk = undefined;
    chunk.waiting -= 1;
    if (chunk.waiting > 0) {
      return;
    }
    if (chunk === filling) {
      used = 0;
    } else if (pool.length < POOLED_CHUNKS) {
      pool.push(chunk);
    }
  }
}

/** `parts` one after the other, encoded as UTF-8, kept until released (see KeptLine). */
export function keptLine(...parts: readonly string[]): KeptLine {
  // The worst case, 3 bytes a UTF-16 unit: measuring the text first would cost as much as encoding it.
  let bound = 0;
  for (const part of parts) {
    bound += part.length * 3;
  }
  if (bound > CHUNK_BYTES / 4) {
    return new KeptLine(Buffer.from(parts.join(''), 'utf8'), undefined);
  }
  if (filling === undefined || used + bound > CHUNK_BYTES) {
    filling = nextChunk(filling);
    used = 0;
  }
  const start = used;
  for (const part of parts) {
    used += filling.bytes.write(part, used);
  }
  filling.waiting += 1;
  return new KeptLine(filling.bytes.subarray(start, used), filling);
}

/** A chunk to fill after `full`: `full` itself when none of its lines waits, else one from the pool or a new one. */
function nextChunk(full: Chunk | undefined): Chunk {
  if (full !== undefined && full.waiting === 0) {
    return full;
  }
  const pooled = pool.pop();
  if (pooled !== undefined) {
    return pooled;
  }
  allocated += 1;
  return { bytes: Buffer.allocUnsafeSlow(CHUNK_BYTES), waiting: 0 };
}

/** The number of chunks allocated so far in this process. */
export function keptChunksAllocated(): number {
  return allocated;
}
