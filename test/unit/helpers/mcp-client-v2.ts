/**
 * The official v2 MCP client (`@modelcontextprotocol/client`) connected over real stdio to a
 * fresh server process (dist/mcp-server.js), for the tests of both protocol revisions.
 */
import type { ClientOptions } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SERVER_PATH, testServerEnv } from './mcp-client';

export interface V2ConnectOptions extends ClientOptions {
  /** The server's command-line arguments after the script. */
  readonly args: readonly string[];
  /** Where the server keeps its approvals and history (testServerEnv). */
  readonly configHome: string;
  /** The client's name in `clientInfo`. */
  readonly name?: string;
  /** Runs before connecting: the place to register the client's request handlers. */
  readonly prepare?: (client: Client) => void;
}

/** A v2 client connected to a new server process; close the client to end the process. */
export async function connectV2Client(options: V2ConnectOptions): Promise<Client> {
  const { args, configHome, name = 'workspace-tools-tests-v2', prepare, ...clientOptions } = options;
  const client = new Client({ name, version: '1.0.0' }, clientOptions);
  prepare?.(client);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER_PATH, ...args], env: testServerEnv(configHome), stderr: 'ignore' }));
  return client;
}
