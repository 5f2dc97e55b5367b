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
      this.chunks.push(chunk.subarray(0, room));
      this.kept += room;
    }
    this.dropped += chunk.length - Math.max(room, 0);
  }

  /** Bytes that did not fit under the cap. */
  get droppedBytes(): number {
    return this.dropped;
  }

  /** The kept bytes as UTF-8 text, with a visible note when some were dropped. */
  text(): string {
    const body = Buffer.concat(this.chunks, this.kept).toString('utf8');
    if (this.dropped === 0) {
      return body;
    }
    return `${body}\n[output truncated: ${this.dropped} more bytes were not captured (cap ${this.capBytes} bytes)]`;
  }
}
