/**
 * Decides, while a program prints, whether its stdout is large: the first `threshold` bytes wait
 * in memory; once more arrive, they and everything after go to an OutputSink on disk, and only
 * the last TAIL_BYTES stay in memory for the answer. A small output never touches the disk.
 */
import type { OutputResource, OutputSink } from './output-store';

/** What the answer shows of the end of a large output. */
export const TAIL_BYTES = 8 * 1024;

export class LargeOutputTee {
  private pending: Buffer[] = [];
  private total = 0;
  private sink: OutputSink | undefined;
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly createSink: () => OutputSink,
    private readonly thresholdBytes: number,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    this.tail = chunk.length >= TAIL_BYTES ? Buffer.from(chunk.subarray(chunk.length - TAIL_BYTES)) : Buffer.concat([this.tail, chunk]).subarray(-TAIL_BYTES);
    if (this.sink !== undefined) {
      this.sink.write(chunk);
      return;
    }
    this.pending.push(chunk);
    if (this.total > this.thresholdBytes) {
      this.sink = this.createSink();
      this.pending.forEach((piece) => this.sink?.write(piece));
      this.pending = [];
    }
  }

  /** True once the output passed the threshold. */
  get large(): boolean {
    return this.sink !== undefined;
  }

  get totalBytes(): number {
    return this.total;
  }

  /** The last bytes printed, as text (a character cut at the start is dropped). */
  tailText(): string {
    let start = 0;
    while (start < this.tail.length && start < 4 && ((this.tail[start] ?? 0) & 0xc0) === 0x80) {
      start++;
    }
    return this.tail.subarray(start).toString('utf8');
  }

  /** The kept resources (parts) when the output was large (the file is complete), else undefined. */
  async finish(): Promise<OutputResource[] | undefined> {
    this.pending = [];
    return this.sink?.keep();
  }
}
