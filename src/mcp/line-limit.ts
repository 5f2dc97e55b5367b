/**
 * The lines of stdin, each within the longest line the stdio server reads. The SDK's stdio
 * transport closes the whole connection when its buffer passes 10 MB (said only at debug level);
 * here a line over the limit is skipped as it streams in (never held whole) and reported, and
 * every other line is handed on, one at a time, so the connection keeps serving (wire-transport.ts
 * answers the skipped request with an error and logs a warning). A plain class fed by stdin's
 * `data` events, not a stream: every message passes here, and a Transform between stdin and the
 * transport cost each call its own stream bookkeeping.
 */

/** The SDK's own limit (STDIO_DEFAULT_MAX_BUFFER_SIZE): what a client may already rely on. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** How much of each end of a skipped line is kept, to find its id and method. */
const EDGE_BYTES = 1024;

/** A skipped line: its length, and its first and last bytes as text. */
export interface OversizedLine {
  readonly bytes: number;
  readonly head: string;
  readonly tail: string;
}

/** Splits chunks into lines (without their newline), each at most `maxBytes` long; skips and reports longer ones. */
export class LineReader {
  /** The start of the line being read, while it is within the limit. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The line being skipped: how long so far, its head and its latest bytes. */
  private skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onOversized: (line: OversizedLine) => void,
  ) {}

  /** A chunk of input: every line it ends is handed on before this returns. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      this.addPiece(chunk.subarray(start, end));
      if (newline === -1) {
        break;
      }
      this.finishLine();
      start = newline + 1;
    }
  }

  /**
   * The end of input. A skipped line is reported; a last line without its newline is dropped, as
   * the SDK's reader drops it (nothing says it was whole).
   */
  end(): void {
    if (this.skipping !== undefined) {
      this.finishLine();
    }
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** A piece of the current line. */
  private addPiece(piece: Buffer): void {
    if (this.skipping === undefined && this.pendingBytes + piece.length <= this.maxBytes) {
      if (piece.length > 0) {
        this.pending.push(piece);
        this.pendingBytes += piece.length;
      }
      return;
    }
    if (this.skipping === undefined) {
      const start = Buffer.concat([...this.pending, piece]);
      this.skipping = { bytes: 0, head: Buffer.from(start.subarray(0, EDGE_BYTES)), tail: Buffer.alloc(0) };
      this.pending = [];
      this.pendingBytes = 0;
      piece = start;
    }
    this.skipping.bytes += piece.length;
    this.skipping.tail = Buffer.from(Buffer.concat([this.skipping.tail, piece.subarray(-EDGE_BYTES)]).subarray(-EDGE_BYTES));
  }

  /** The current line ended (its newline, or the end of input). */
  private finishLine(): void {
    if (this.skipping !== undefined) {
      const { bytes, head, tail } = this.skipping;
      this.skipping = undefined;
      this.onOversized({ bytes, head: head.toString('utf8'), tail: tail.toString('utf8') });
      return;
    }
    // One piece (the usual case: a whole line in one chunk) is handed on as it is, not copied.
    const line = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.onLine(line);
  }
}

/**
 * What to answer a skipped line: the error response for a request whose id shows at either end
 * (`{"jsonrpc":"2.0","id":7,...` or `...,"id":7}`), undefined for a notification or a response
 * (nothing answers those), and the id null JSON-RPC prescribes when the id cannot be found.
 */
export function oversizedReply(line: OversizedLine, maxBytes: number): { readonly id: string | number | null; readonly message: string } | undefined {
  const id = idOf(line);
  const text = `${line.head}${line.tail}`;
  const method = /"method"\s*:\s*"([^"]*)"/.exec(text)?.[1];
  const unanswered = method === undefined ? /"(?:result|error)"\s*:/.test(text) : id === undefined && method.startsWith('notifications/');
  if (unanswered) {
    return undefined;
  }
  return { id: id ?? null, message: `Invalid Request: the message is ${line.bytes} bytes long, over the ${maxBytes} bytes this server reads in one line; it was not read` };
}

function idOf(line: OversizedLine): string | number | undefined {
  const value = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(line.head)?.[1] ?? /,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(line.tail.replace(/\r$/, ''))?.[1];
  return value === undefined ? undefined : (JSON.parse(value) as string | number);
}
