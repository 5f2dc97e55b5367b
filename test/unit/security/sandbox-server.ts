/**
 * The real built server (dist/mcp-server.js) over stdio with the SDK client, for the attacks of
 * issue 21: a workspace of attack modules and plugin files, approved with the server's own
 * `approve` command, and a private HOME and XDG directories so nothing of the user's is read.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import type { CliRun } from '../helpers/cli';
import { runServerScript } from '../helpers/cli';
import { SERVER_PATH, resultText } from '../helpers/mcp-client';

/** A started server and what it serves. */
export interface SandboxServer {
  readonly workspace: TempDir;
  /** HOME and XDG_* of the server. */
  readonly home: TempDir;
  readonly client: Client;
  readonly pid: number;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** Calls a tool; the result's text and whether it is an error. */
  call(name: string, args?: Record<string, unknown>, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

/** How to start it. */
export interface SandboxServerOptions {
  /** Files of the workspace (modules, data, plugin files), by relative path. */
  readonly files: Readonly<Record<string, string>>;
  /** Node flags before the server's script (e.g. serverNodeFlags()). */
  readonly nodeArgs?: readonly string[];
  /** Flags after `--workspace DIR` (e.g. --nested-concurrency 3). */
  readonly serverArgs?: readonly string[];
  /** Extra environment variables of the server. */
  readonly env?: Readonly<Record<string, string>>;
}

/** The server's environment: the test's PATH, the private home, nothing else of the user's. */
export function serverEnv(home: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_STATE_HOME: `${home}/.local/state`,
    XDG_CACHE_HOME: `${home}/.cache`,
    ...extra,
  };
}

/** Runs `node dist/mcp-server.js approve --workspace DIR --yes` with the private home. */
function approveAll(workspace: string, home: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_PATH, 'approve', '--workspace', workspace, '--yes', '--no-builtins'], { env: serverEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`approve exited ${String(code)}: ${output}`))));
  });
}

/** Writes the workspace, approves its plugin files, starts the server and connects. */
export async function startSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  const workspace = makeTempDir('wt-sandbox-ws-');
  const home = makeTempDir('wt-sandbox-home-');
  for (const [file, text] of Object.entries(options.files)) {
    workspace.write(file, text);
  }
  await approveAll(workspace.path, home.path);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(options.nodeArgs ?? []), SERVER_PATH, '--workspace', workspace.path, '--no-builtins', '--no-history', ...(options.serverArgs ?? [])],
    cwd: workspace.path,
    env: serverEnv(home.path, options.env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'workspace-tools-security-tests', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) {
    throw new Error('the server has no pid');
  }
  return {
    workspace,
    home,
    client,
    pid,
    stderr: () => stderr,
    call: async (name, args = {}, callOptions = {}) => {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        timeout: callOptions.timeoutMs ?? 60_000,
        ...(callOptions.signal === undefined ? {} : { signal: callOptions.signal }),
      });
      return { text: resultText(result), isError: result.isError === true };
    },
    close: async () => {
      await client.close();
      workspace.cleanup();
      home.cleanup();
    },
  };
}

/** A plugin tool entry of a code module. */
export function codeTool(name: string, module: string, tags: readonly string[], extra: Record<string, unknown> = {}, handler: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, description: `attack tool ${name}`, tags, ...extra, handler: { type: 'code', module, ...handler } };
}

/** A plugin file's text from its tools. */
export function pluginFile(tools: ReadonlyArray<Record<string, unknown>>): string {
  return JSON.stringify({ name: 'attacks', tools }, null, 2);
}

/** Runs `node dist/mcp-server.js ARGS --workspace WS` with the server's private home. */
export function cli(sandbox: SandboxServer, args: readonly string[]): Promise<CliRun> {
  return runServerScript([...args, '--workspace', sandbox.workspace.path, '--no-builtins'], { cwd: sandbox.workspace.path, env: serverEnv(sandbox.home.path) });
}

/**
 * Calls until the refusal is the one of a tool waiting for approval (the server reloaded), at
 * most 10 s; a call that runs after its file or source changed fails the test.
 */
export async function waitingRefusal(sandbox: SandboxServer, tool: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const result = await sandbox.call(tool);
    assert.equal(result.isError, true, `${tool} ran after its file or source changed: ${result.text}`);
    if (/is not available/.test(result.text) || Date.now() > deadline) {
      return result.text;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
