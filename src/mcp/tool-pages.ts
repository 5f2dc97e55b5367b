/**
 * `tools/list` in pages, as the MCP spec's pagination describes: each answer carries at most
 * TOOLS_PAGE_SIZE tools and, while more remain, an opaque `nextCursor` for the next page.
 */
import { createHash } from 'node:crypto';
import type { JSONRPCMessage, ListToolsResult, Tool } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ToolDefinition } from '../core/types';

/**
 * Tools per `tools/list` page. A tool costs a client ~540 bytes to parse and validate (the
 * 1,000-tool answer of the benchmark is ~540 KB and took the SDK client well over the 5 ms
 * target), so a page of 100 is ~54 KB: a few milliseconds per request. Larger pages bring that
 * back; smaller ones only add round trips for clients that walk every page (VS Code does:
 * 10 requests for 1,000 tools). The built-ins plus a workspace's usual plugin files fit in one
 * page, so most clients never see a cursor.
 */
export const TOOLS_PAGE_SIZE = 100;

/** Longest part of a refused cursor quoted back in the error (a bogus one can be any size). */
const QUOTED_CURSOR_CHARS = 48;

/** What the pages are cut from: the registry's served tools and the value that changes with them. */
export interface ToolSource {
  readonly fingerprint: string;
  list(): readonly ToolDefinition[];
}

/** The pages of one tool set (one fingerprint); replaced whole when the fingerprint changes. */
interface Generation {
  readonly fingerprint: string;
  /** A short hash of the fingerprint, carried in cursors: the fingerprint itself names every tool. */
  readonly tag: string;
  readonly definitions: readonly ToolDefinition[];
  readonly byOffset: Map<number, CachedPage>;
  /**
   * The same pages by their `tools` array, for the transport to recognize an answer it can send
   * as bytes: the SDK sends a copy of the answer object (on 2026-07-28 with `resultType`,
   * `ttlMs`, `cacheScope` and `_meta` added), but the same array of tools.
   */
  readonly byTools: Map<readonly Tool[], CachedPage>;
}

/** One page's answer, and the JSON of its tools once a transport asked for it. */
interface CachedPage {
  readonly result: ListToolsResult & { readonly tools: Tool[] };
  toolsJson?: Buffer;
}

/** What a cursor holds: where the page starts, and which tool set it was cut from. */
interface CursorContent {
  readonly offset: number;
  readonly tag: string;
}

/**
 * The paged `tools/list` answers of a registry. Each page is built once per fingerprint and its
 * JSON serialized once: with 1,000 tools, stringifying and UTF-8 encoding every answer cost
 * ~5 ms of server time per list.
 */
export class ToolListPages {
  private generation: Generation | undefined;

  constructor(
    private readonly source: ToolSource,
    private readonly describe: (definition: ToolDefinition) => Tool,
  ) {}

  /**
   * The page `cursor` points at, or the first without one. Throws an InvalidParams ProtocolError for
   * a cursor this server did not issue for the current tool set: after a change the pages would
   * skip or repeat tools, so the client must start again (it was sent tools/list_changed).
   */
  page(cursor: string | undefined): ListToolsResult {
    const generation = this.current();
    const offset = cursor === undefined ? 0 : offsetOf(cursor, generation);
    return this.pageAt(generation, offset).result;
  }

  /**
   * The whole JSON-RPC message as bytes when `message` answers with one of the current pages
   * (see ToolListTransport), whatever the SDK added beside the tools; undefined for any other
   * message, which is serialized as usual.
   */
  serialized(message: JSONRPCMessage): Buffer | undefined {
    if (!('result' in message)) {
      return undefined;
    }
    // A look-up first: every answer the server sends passes here (tools/call results too).
    const tools = (message.result as Partial<ListToolsResult>).tools;
    const cached = tools === undefined ? undefined : this.generation?.byTools.get(tools);
    if (cached === undefined) {
      return undefined;
    }
    const rest: Record<string, unknown> = { ...message.result };
    delete rest['tools'];
    cached.toolsJson ??= Buffer.from(JSON.stringify(cached.result.tools));
    const others = JSON.stringify(rest);
    return Buffer.concat([
      Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"tools":`),
      cached.toolsJson,
      Buffer.from(others === '{}' ? '}}\n' : `,${others.slice(1)}}\n`),
    ]);
  }

  /** The pages of the registry's current tool set; a changed fingerprint drops every cached page. */
  private current(): Generation {
    const fingerprint = this.source.fingerprint;
    if (this.generation?.fingerprint !== fingerprint) {
      this.generation = {
        fingerprint,
        tag: createHash('sha256').update(fingerprint).digest('base64url').slice(0, 16),
        definitions: this.source.list(),
        byOffset: new Map(),
        byTools: new Map(),
      };
    }
    return this.generation;
  }

  private pageAt(generation: Generation, offset: number): CachedPage {
    const known = generation.byOffset.get(offset);
    if (known !== undefined) {
      return known;
    }
    const end = offset + TOOLS_PAGE_SIZE;
    const tools = generation.definitions.slice(offset, end).map(this.describe);
    const result = end < generation.definitions.length ? { tools, nextCursor: encodeCursor({ offset: end, tag: generation.tag }) } : { tools };
    const page: CachedPage = { result };
    generation.byOffset.set(offset, page);
    generation.byTools.set(tools, page);
    return page;
  }
}

/** The offset `cursor` points at in `generation`, or an InvalidParams error saying why it is refused. */
function offsetOf(cursor: string, generation: Generation): number {
  const content = decodeCursor(cursor);
  if (content === undefined) {
    throw invalidCursor(cursor, 'it is not a cursor this server issued');
  }
  if (content.tag !== generation.tag) {
    throw invalidCursor(cursor, 'the tool list changed since it was issued');
  }
  const { offset } = content;
  if (offset <= 0 || offset >= generation.definitions.length || offset % TOOLS_PAGE_SIZE !== 0) {
    throw invalidCursor(cursor, 'it points at no page of the tool list');
  }
  return offset;
}

/** Opaque to clients: base64url of a small JSON object. */
function encodeCursor(content: CursorContent): string {
  return Buffer.from(JSON.stringify({ offset: content.offset, tag: content.tag })).toString('base64url');
}

/** The content of a cursor, or undefined when it is not one encodeCursor could have made. */
function decodeCursor(cursor: string): CursorContent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) {
    return undefined;
  }
  const { offset, tag } = parsed as Record<string, unknown>;
  return Number.isSafeInteger(offset) && typeof tag === 'string' ? { offset: offset as number, tag } : undefined;
}

function invalidCursor(cursor: string, why: string): ProtocolError {
  const quoted = cursor.length > QUOTED_CURSOR_CHARS ? `${cursor.slice(0, QUOTED_CURSOR_CHARS)}…` : cursor;
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor ${JSON.stringify(quoted)}: ${why}; list again without a cursor`);
}
