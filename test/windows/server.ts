/**
 * The built server as the smoke suite talks to it: node.exe runs dist/mcp-server.js with pipes
 * (Windows pipes between Windows processes, which work under Wine), the real SDK client on them;
 * and the CLI commands, run the same way.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import type { SmokeWorkspace } from './workspace';

/** The server's environment: the user's profile directories and PATH of the workspace (with npm.cmd on it). */
export function serverEnv(workspace: SmokeWorkspace): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    // Windows names are case-insensitive: drop Path before setting PATH, so there is one.
    if (value !== undefined && !['PATH', 'APPDATA', 'LOCALAPPDATA'].includes(name.toUpperCase())) {
      env[name] = value;
    }
  }
  return {
    ...env,
    PATH: [path.dirname(process.execPath), workspace.bin, workspace.npmDir, path.join(process.env['SystemRoot'] ?? 'C:\\windows', 'system32'), process.env['SystemRoot'] ?? 'C:\\windows'].join(';'),
    APPDATA: workspace.appData,
    LOCALAPPDATA: workspace.localAppData,
    // npm, run by the npm-scripts tools: its cache in the run's own folder, no registry look-up.
    npm_config_cache: path.join(workspace.root, 'npm-cache'),
    npm_config_update_notifier: 'false',
  };
}

/** A running server with the SDK client connected. */
export interface SmokeServer {
  readonly client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** Starts `node.exe dist/mcp-server.js --workspace FOLDER` and connects. */
export async function startServer(dist: string, workspace: SmokeWorkspace): Promise<SmokeServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(dist, 'mcp-server.js'), '--workspace', workspace.folder, '--log-level', 'info'],
    cwd: workspace.folder,
    env: serverEnv(workspace),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'workspace-tools-windows-smoke', version: '1.0.0' });
  await client.connect(transport).catch((error: unknown) => {
    throw new Error(`the server did not start: ${String(error)}; its stderr: ${stderr}`);
  });
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** What a CLI command did. */
export interface CliOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node.exe dist/mcp-server.js ARGS --workspace FOLDER`. */
export function runCli(dist: string, workspace: SmokeWorkspace, args: readonly string[]): Promise<CliOutcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(dist, 'mcp-server.js'), ...args, '--workspace', workspace.folder], { cwd: workspace.folder, env: serverEnv(workspace), timeout: 120_000, windowsHide: true }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A tools/call's text and whether it is an error result. */
export async function callTool(server: SmokeServer, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const result = await server.client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 });
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return { text: content.map((part) => part.text ?? '').join('\n'), isError: result.isError === true };
}
