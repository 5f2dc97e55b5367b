/**
 * Splits a program's output into lines (or NUL-separated names) as it arrives, with a cap per
 * line: a minified file's single 1 MB line is kept as its first `maxLineBytes` and flagged, and
 * memory never holds more than one capped line besides what the consumer keeps.
 */
export interface Line {
  readonly text: string;
  /** True when the line was longer than the cap and its tail was dropped. */
  readonly cut: boolean;
}

export class LineSplitter {
  private parts: Buffer[] = [];
  private kept = 0;
  private cut = false;

  constructor(
    private readonly onLine: (line: Line) => void,
    private readonly separator = 0x0a,
    private readonly maxLineBytes = 64 * 1024,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(this.separator, start); end !== -1; end = chunk.indexOf(this.separator, start)) {
      this.keep(chunk.subarray(start, end));
      this.emit();
      start = end + 1;
    }
    this.keep(chunk.subarray(start));
  }

  /** The last line, when the output did not end with a separator. */
  end(): void {
    if (this.kept > 0 || this.cut) {
      this.emit();
    }
  }

  private keep(piece: Buffer): void {
    const room = this.maxLineBytes - this.kept;
    if (piece.length > room) {
      this.cut = true;
      piece = piece.subarray(0, Math.max(room, 0));
    }
    if (piece.length > 0) {
      this.parts.push(piece);
      this.kept += piece.length;
    }
  }

  private emit(): void {
    // A cut may split a UTF-8 sequence; toString replaces the broken tail with U+FFFD.
    const text = Buffer.concat(this.parts, this.kept).toString('utf8');
    const cut = this.cut;
    this.parts = [];
    this.kept = 0;
    this.cut = false;
    this.onLine({ text, cut });
  }
}
