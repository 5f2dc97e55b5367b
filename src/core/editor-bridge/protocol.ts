/**
 * The bridge's wire: JSON lines over a Unix socket (a named pipe on Windows). Every request
 * carries the window's token; the bridge answers each by its id, and closes a connection whose
 * token is wrong after saying so. Three methods: `hello` (what the window serves), `call` (run
 * one tool) and `cancel` (stop a call in flight).
 */
import type { JsonObjectSchema, ToolResult, ToolTag } from '../types';

/** The environment variables the window gives its integrated terminals. */
export const BRIDGE_ADDRESS_VARIABLE = 'WORKSPACE_TOOLS_BRIDGE';
export const BRIDGE_TOKEN_VARIABLE = 'WORKSPACE_TOOLS_BRIDGE_TOKEN';
/** Set instead of the address when the window opens no bridge, saying why (Restricted Mode). */
export const BRIDGE_OFF_VARIABLE = 'WORKSPACE_TOOLS_BRIDGE_OFF';

/** The longest line either side reads (a tool's input one way, its result the other). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Who is calling, as the caller says (the window records it with each call). */
export interface BridgeCaller {
  readonly pid: number;
  /** The calling program and what it runs, e.g. "workspace-tools-mcp 0.2.0 (serve)". */
  readonly program: string;
}

/** A tool the bridge serves, as listed: the editor tools and the extension tools the user chose. */
export interface BridgeToolDescriptor {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonObjectSchema;
  readonly outputSchema?: JsonObjectSchema;
  readonly tags: readonly ToolTag[];
  /** `editor`: one of the editor tools; `extension`: another extension's lm tool (`extension` names it). */
  readonly kind: 'editor' | 'extension';
  readonly extension?: string;
  readonly handlerSummary: string;
}

/** What `hello` answers. */
export interface BridgeHello {
  /** The window's name (its workspace), for `list` and the log. */
  readonly window: string;
  readonly tools: readonly BridgeToolDescriptor[];
}

export type BridgeRequest =
  | { readonly id: number; readonly token: string; readonly method: 'hello'; readonly params: BridgeCaller }
  | { readonly id: number; readonly token: string; readonly method: 'call'; readonly params: { readonly name: string; readonly input: unknown } }
  | { readonly id: number; readonly token: string; readonly method: 'cancel'; readonly params: { readonly id: number } };

/** Why the bridge refused a request. */
export type BridgeErrorCode = 'token' | 'unknown-tool' | 'bad-request' | 'failed';

export type BridgeResponse =
  | { readonly id: number; readonly result: BridgeHello | ToolResult | null }
  | { readonly id: number | null; readonly error: { readonly code: BridgeErrorCode; readonly message: string } };

/** Splits a stream into lines; a line over MAX_LINE_BYTES is an error (the connection is then closed). */
export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {}

  /** Feeds bytes; throws when a line grows past the limit. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0x0a, start); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.pending.push(chunk.subarray(start, end));
      const line = Buffer.concat(this.pending).toString('utf8');
      this.pending = [];
      this.pendingBytes = 0;
      start = end + 1;
      if (line.trim() !== '') {
        this.onLine(line);
      }
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxBytes) {
        throw new Error(`a line longer than ${this.maxBytes} bytes`);
      }
      this.pending.push(chunk.subarray(start));
    }
  }
}

/** A message as one line. */
export function lineOf(message: BridgeRequest | BridgeResponse): string {
  return `${JSON.stringify(message)}\n`;
}
