/**
 * The stdio wire of the server: the SDK's stdio transport (its start, close, back-pressure and
 * error handling), reading its own lines. Each line is read within a size limit (line-limit.ts),
 * parsed once, offered to the hot lane (hot-lane.ts), and only otherwise checked against the
 * SDK's JSON-RPC schema and delivered to the SDK. A message `serialized` knows (a cached
 * `tools/list` page) is written with ready-made bytes for its tools instead of stringifying them
 * again, an answer whose text the call history escaped already reuses that (answer-json.ts), and
 * an observer sees the messages both ways (serveStdio answers `subscriptions/listen`
 * before any server instance could).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { ProtocolErrorCode, parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Logger } from '../core/types';
import { answerJson } from './answer-json';
import type { HotWire } from './hot-lane';
import type { OversizedLine } from './line-limit';
import { LineReader, MAX_LINE_BYTES, oversizedReply } from './line-limit';
import type { TransportObserver } from './listen-streams';

/** What the wire asks of the server factory (server.ts). */
export interface WireRoutes {
  /** The whole message as bytes when it is one the server keeps serialized (a tools/list page); else undefined. */
  serialized(message: JSONRPCMessage): Buffer | undefined;
  /** Whether the hot lane takes `message` (parsed JSON, unchecked), answering it itself. */
  take(message: unknown, wire: HotWire): boolean;
}

export class WireTransport extends StdioServerTransport {
  private readonly hotWire: HotWire = {
    send: (message) => this.send(message),
    deliver: (message) => this.deliver(message),
  };

  constructor(
    private readonly routes: WireRoutes,
    /** Sees every message both ways, and the close (the listen streams, listen-streams.ts). */
    private readonly observer?: TransportObserver,
    /** Where a line too long to read is reported (a warning). */
    private readonly logger?: Logger,
    private readonly output: NodeJS.WritableStream = process.stdout,
    input: NodeJS.ReadableStream = process.stdin,
  ) {
    super(input as NodeJS.ReadStream, output as NodeJS.WriteStream);
    const lines = new LineReader(
      MAX_LINE_BYTES,
      (line) => {
        // One message's failure is reported, and the lines after it are still read (as the SDK's reader does).
        try {
          this.read(line);
        } catch (error) {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        }
      },
      (line) => this.refuseOversized(line),
    );
    // The SDK's transport listens with `_ondata` once started; its own reader would parse every
    // line with zod and close the connection on a line over 10 MB.
    this._ondata = (chunk) => lines.push(chunk);
    // Before the SDK's own `end` listener (added at start) closes the transport.
    input.once('end', () => lines.end());
  }

  /** One line: JSON, then the hot lane's or the SDK's. */
  private read(line: Buffer): void {
    const text = line.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // A blank line is no message (as the SDK's reader skips it); anything else is owed -32700.
      if (text.trim() !== '') {
        this.answerUnreadable(ProtocolErrorCode.ParseError);
      }
      return;
    }
    if (!this.routes.take(parsed, this.hotWire)) {
      this.deliver(parsed);
    }
  }

  /** A message for the SDK: checked against its JSON-RPC schema, as its own reader does, then delivered. */
  private deliver(parsed: unknown): void {
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(parsed);
    } catch (error) {
      this.answerUnreadable(ProtocolErrorCode.InvalidRequest);
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.observer?.inbound(message);
    this.onmessage?.(message);
  }

  /** A line over the limit: a warning, and the error response when it was a request. */
  private refuseOversized(line: OversizedLine): void {
    const reply = oversizedReply(line, MAX_LINE_BYTES);
    this.logger?.warn(`[mcp] skipped a message of ${line.bytes} bytes from the client, over the ${MAX_LINE_BYTES} bytes read in one line${reply === undefined ? '' : `; answered ${reply.id === null ? 'with id null' : `request ${JSON.stringify(reply.id)}`} with an error`}; the connection goes on`);
    if (reply !== undefined) {
      const error = { jsonrpc: '2.0', id: reply.id, error: { code: ProtocolErrorCode.InvalidRequest, message: reply.message } };
      this.write(error as unknown as JSONRPCMessage).catch(() => undefined);
    }
  }

  /**
   * A line that cannot be read gets the JSON-RPC answer it is owed (JSON-RPC 2.0 section 5.1, id
   * null: no id can be read from it), where the SDK's reader skips it or only reports it and the
   * client would wait forever: a line that is not JSON is -32700, JSON that is no JSON-RPC
   * message -32600 (the SDK's schema refused it).
   */
  private answerUnreadable(code: ProtocolErrorCode.ParseError | ProtocolErrorCode.InvalidRequest): void {
    const message = code === ProtocolErrorCode.ParseError ? 'Parse error: the line is not JSON' : 'Invalid Request: the line is not a JSON-RPC 2.0 message';
    this.write({ jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage).catch(() => undefined);
  }

  override async close(): Promise<void> {
    await super.close();
    this.observer?.closed();
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const held = this.observer?.outbound(message);
    return held === undefined ? this.write(message) : held.then(() => this.write(message));
  }

  private write(message: JSONRPCMessage): Promise<void> {
    // A tools/list page kept as bytes, or an answer whose text the call history escaped already.
    const bytes = this.routes.serialized(message) ?? answerJson(message);
    if (bytes === undefined) {
      return super.send(message);
    }
    return new Promise((resolve) => {
      if (this.output.write(bytes)) {
        resolve();
      } else {
        this.output.once('drain', resolve);
      }
    });
  }
}
