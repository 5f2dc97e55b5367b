/**
 * Collects the lines of a range from a file's bytes as they are read, chunk after chunk, so a
 * read stops as soon as the last wanted line is complete (files/read-text).
 */

/** The lines read. */
export interface TextRange {
  /** The text, line endings as in the file. */
  readonly text: string;
  /** First and last line returned (lastLine < firstLine when nothing was returned). */
  readonly firstLine: number;
  readonly lastLine: number;
  /** Lines in the file, known only when the read reached the end of the file. */
  readonly totalLines?: number;
  /** Whether a range was asked for (a whole-file read is returned without a note). */
  readonly ranged: boolean;
}

const NEWLINE = 0x0a;

/** Keeps the bytes of lines start..end as chunks stream past. */
export class LineCollector {
  /** Number of the line the next byte belongs to. */
  private line = 1;
  private readonly parts: Buffer[] = [];
  private consumed = 0;
  private stoppedAtEnd = false;
  private lastByte: number | undefined;

  /** `size` is the file's size when opened: reaching it means the whole file was seen. */
  constructor(
    private readonly start: number,
    private readonly end: number,
    private readonly size: number,
  ) {}

  /** Whether every line is wanted. */
  get wantsWholeFile(): boolean {
    return this.start === 1 && this.end === Number.POSITIVE_INFINITY;
  }

  /** Takes one chunk; true once line `end` is complete and reading can stop. */
  push(chunk: Buffer): boolean {
    if (this.wantsWholeFile) {
      return this.pushWhole(chunk);
    }
    let position = 0;
    while (position < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, position);
      const stop = newline === -1 ? chunk.length : newline + 1;
      if (this.line >= this.start) {
        this.parts.push(chunk.subarray(position, stop));
      }
      this.consumed += stop - position;
      this.lastByte = chunk[stop - 1];
      if (newline === -1) {
        return false;
      }
      if (this.line === this.end) {
        this.stoppedAtEnd = true;
        return true;
      }
      this.line += 1;
      position = stop;
    }
    return false;
  }

  /** Every line is wanted: the chunk is kept whole and its newlines only counted. */
  private pushWhole(chunk: Buffer): false {
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, newline + 1)) {
      this.line += 1;
    }
    this.parts.push(chunk);
    this.consumed += chunk.length;
    this.lastByte = chunk[chunk.length - 1];
    return false;
  }

  result(start: number, ranged: boolean, shown: string): TextRange {
    const totalLines = this.totalLines();
    if (totalLines !== undefined && start > Math.max(totalLines, 1)) {
      const plural = totalLines === 1 ? '' : 's';
      throw new Error(`startLine ${start} is past the end of ${shown}, which has ${totalLines} line${plural}.`);
    }
    const lastLine = totalLines === undefined ? this.line : Math.min(this.end, totalLines);
    // One part (a small file, or a whole file read at once) is decoded as it is, not copied first.
    const text = (this.parts.length === 1 && this.parts[0] !== undefined ? this.parts[0] : Buffer.concat(this.parts)).toString('utf8');
    return { text, firstLine: start, lastLine, ranged, ...(totalLines === undefined ? {} : { totalLines }) };
  }

  /** Lines in the file when the read saw all of it (cheaply known), else undefined. */
  private totalLines(): number | undefined {
    if (this.stoppedAtEnd) {
      // Stopped right after line `end`'s newline: the total is known only if that was the end.
      return this.consumed >= this.size ? this.line : undefined;
    }
    if (this.lastByte === undefined) {
      return 0;
    }
    // Read to the end: `line` was advanced past every newline, so a final newline ends no line.
    return this.lastByte === NEWLINE ? this.line - 1 : this.line;
  }
}
