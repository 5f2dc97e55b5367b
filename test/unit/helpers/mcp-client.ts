import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import * as path from 'node:path';

/** The built standalone server that the stdio tests spawn (scripts/test-unit.mjs builds it). */
export const SERVER_PATH = path.resolve(__dirname, '../../../../dist/mcp-server.js');

export interface ConnectedServer {
  readonly client: Client;
  /** How many tools/list_changed notifications arrived so far. */
  listChanged(): number;
  /** Resolves on the next tools/list_changed notification. */
  nextListChanged(timeoutMs?: number): Promise<void>;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns dist/mcp-server.js with the args and connects the real SDK client over stdio. */
export async function connectServer(args: readonly string[], cwd = process.cwd()): Promise<ConnectedServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_PATH, ...args],
    cwd,
    env: { ...process.env } as Record<string, string>,
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
  return {
    client,
    listChanged: () => count,
    nextListChanged: (timeoutMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no tools/list_changed within ${timeoutMs} ms`)), timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/** The text of a tool result's first content part. */
export function resultText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((part) => part.text ?? '').join('\n');
}
