/**
 * The official v2 MCP client on a fresh server process over stdio (dist/mcp-server.js) with a
 * private HOME (and config and state homes inside it), for the security tests: nothing of the
 * real user's home is read or written. The home is removed on close.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ClientOptions } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SERVER_PATH, testServerEnv } from './mcp-client';

/** A connected client and the end of it all (the server process and the private home). */
export interface PrivateServer {
  readonly client: Client;
  close(): Promise<void>;
}

/** Connects to a server for `workspace` (its files approved as they are), with more `args` after. */
export async function connectPrivate(workspace: string, options: ClientOptions = {}, args: readonly string[] = []): Promise<PrivateServer> {
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'wt-home-')));
  const client = new Client({ name: 'workspace-tools-security-tests', version: '1.0.0' }, options);
  const env = testServerEnv(path.join(home, '.config'), { HOME: home, USERPROFILE: home });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER_PATH, '--workspace', workspace, '--approve-existing', '--no-history', ...args], env, stderr: 'ignore' }));
  return {
    client,
    close: async () => {
      await client.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
