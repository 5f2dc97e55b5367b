import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** The built standalone server that the stdio tests spawn (scripts/test-unit.mjs builds it). */
export const SERVER_PATH = path.resolve(__dirname, '../../../../dist/mcp-server.js');

export interface ConnectedServer {
  readonly client: Client;
  /** How many tools/list_changed notifications arrived so far. */
  listChanged(): number;
  /** Resolves on the next tools/list_changed notification. */
  nextListChanged(timeoutMs?: number): Promise<void>;
  /**
   * The served tools once they satisfy `wanted`, listing again after each tools/list_changed.
   * Safer than one `nextListChanged`: a notification from an earlier change may land first.
   */
  toolsWhen(wanted: (tools: readonly Tool[]) => boolean, timeoutMs?: number): Promise<Tool[]>;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** The server process's pid. */
  pid(): number | null;
  close(): Promise<void>;
}

/**
 * The environment for a server under test: the user's, with XDG_CONFIG_HOME (where the default
 * approval store lives) in a temp directory, so no test reads or writes the real user's store.
 */
export function testServerEnv(configHome: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  // XDG_STATE_HOME too: the default call history must not land in the real user's state directory.
  return { ...(process.env as Record<string, string>), XDG_CONFIG_HOME: configHome, XDG_STATE_HOME: configHome, ...extra };
}

/** Options of connectServer. */
export interface ConnectOptions {
  readonly cwd?: string;
  /** XDG_CONFIG_HOME of the server (default: a fresh temp directory, removed on close). */
  readonly configHome?: string;
  /** More environment variables for the server (e.g. a private HOME). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Spawns dist/mcp-server.js with the args and connects the real SDK client over stdio. */
export async function connectServer(args: readonly string[], options: ConnectOptions = {}): Promise<ConnectedServer> {
  const ownConfigHome = options.configHome === undefined ? mkdtempSync(path.join(tmpdir(), 'wt-config-')) : undefined;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_PATH, ...args],
    cwd: options.cwd ?? process.cwd(),
    env: testServerEnv(options.configHome ?? ownConfigHome ?? '', options.env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'workspace-tools-tests', version: '1.0.0' });
  let count = 0;
  let waiters: Array<() => void> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count += 1;
    const current = waiters;
    waiters = [];
    current.forEach((resolve) => resolve());
  });
  await client.connect(transport);
  const nextListChanged = (timeoutMs = 5000): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no tools/list_changed within ${timeoutMs} ms`)), timeoutMs);
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  const toolsWhen = async (wanted: (tools: readonly Tool[]) => boolean, timeoutMs = 10_000): Promise<Tool[]> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Waiting starts before listing, so a notification between the two is not missed.
      const next = nextListChanged(Math.max(1, deadline - Date.now()));
      next.catch(() => undefined);
      const { tools } = await listAllTools(client);
      if (wanted(tools)) {
        return tools;
      }
      await next.catch(() => {
        throw new Error(`the served tools did not become as wanted within ${timeoutMs} ms; last: ${tools.map((tool) => tool.name).join(', ')}`);
      });
    }
  };
  return {
    client,
    listChanged: () => count,
    nextListChanged,
    toolsWhen,
    stderr: () => stderr,
    pid: () => transport.pid,
    close: async () => {
      await client.close();
      if (ownConfigHome !== undefined) {
        rmSync(ownConfigHome, { recursive: true, force: true });
      }
    },
  };
}

/** The text of a tool result's first content part. */
export function resultText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((part) => part.text ?? '').join('\n');
}

/** Most pages listAllTools follows: a server that never stops sending cursors is a bug. */
const MAX_PAGES = 1000;

/**
 * Every tool the server serves, in its order, following `nextCursor` page by page as the MCP spec
 * asks (the SDK's `listTools()` answers with one page); also how many tools each page held.
 */
export async function listAllTools(client: Client): Promise<{ tools: Tool[]; pageSizes: number[] }> {
  const tools: Tool[] = [];
  const pageSizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    pageSizes.push(page.tools.length);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pageSizes.length < MAX_PAGES);
  if (cursor !== undefined) {
    throw new Error(`tools/list still had a nextCursor after ${MAX_PAGES} pages`);
  }
  return { tools, pageSizes };
}
