/**
 * Collects a stream's bytes up to a cap and only counts the rest, so a command that prints
 * 100 MB costs the cap in memory, not 100 MB.
 */
export class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly capBytes: number) {}

  push(chunk: Buffer): void {
    const room = this.capBytes - this.kept;
    if (room >= chunk.length) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
      return;
    }
    if (room > 0) {
      // A copy, so the kept slice does not pin the whole (possibly large) chunk in memory.
      this.chunks.push(Buffer.from(chunk.subarray(0, room)));
      this.kept += room;
    }
    this.dropped += chunk.length - Math.max(room, 0);
  }

  /** Bytes that did not fit under the cap (0: nothing was cut). */
  get droppedBytes(): number {
    return this.dropped;
  }

  /**
   * The kept bytes as UTF-8 text. When some were dropped, a character the cap cut in half is left
   * out too; whoever shows the text says that it was cut (droppedBytes), not this text.
   */
  text(): string {
    const bytes = Buffer.concat(this.chunks, this.kept);
    return (this.dropped === 0 ? bytes : bytes.subarray(0, completeUtf8Length(bytes))).toString('utf8');
  }
}

/** The visible note after output that was cut at its cap. */
export function truncationNote(droppedBytes: number, capBytes: number): string {
  return `[output truncated: ${droppedBytes} more bytes were not captured (cap ${capBytes} bytes)]`;
}

/**
 * Length of `bytes` without a multi-byte UTF-8 character that the cap cut in half, so the
 * truncated text does not end in a replacement character.
 */
function completeUtf8Length(bytes: Buffer): number {
  // A UTF-8 character is at most 4 bytes: look back at most 3 bytes for its lead byte.
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) {
      continue; // continuation byte: keep looking for the lead byte
    }
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}
