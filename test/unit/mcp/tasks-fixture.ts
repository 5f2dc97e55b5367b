/**
 * What the tests of tools run as MCP tasks share (issue 39): a workspace whose plugin file serves a
 * 2-second shell tool, one that sleeps with its child's pid written down, one that asks the user
 * (confirm) and tools that refuse or require tasks; and a raw JSON-RPC connection over the real
 * built server's stdio that speaks either protocol revision.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { SERVER_PATH, testServerEnv } from '../helpers/mcp-client';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** What the 2-second tool prints; its result text. */
export const SLOW_OUTPUT = 'started\nfinished\n';

/**
 * The plugin file. `sleepy` writes the pid of its `sleep` child to sleep-<tag>.pid (the server
 * runs with `--sandbox off`, so the tool may write the workspace) and waits for it.
 */
export const TASKS_PLUGIN = {
  tools: [
    { name: 'slow', description: 'prints, sleeps 2 s, prints', tags: ['read'], task: { support: 'preferred' }, handler: { type: 'shell', command: ['sh', '-c', 'echo started; sleep 2; echo finished'] } },
    {
      name: 'sleepy',
      description: 'sleeps a minute in a child process whose pid it writes down',
      tags: ['read'],
      task: { support: 'preferred' },
      inputSchema: { type: 'object', properties: { tag: { type: 'string', pattern: '^[a-z0-9]+$' } }, required: ['tag'] },
      handler: { type: 'shell', command: ['sh', '-c', 'sleep 60 & echo $! > "sleep-$1.pid"; echo "sleeping $!"; wait', 'sh', '{{tag}}'], timeout: 120000 },
    },
    { name: 'quick', description: 'prints at once', tags: ['read'], task: { support: 'preferred' }, handler: { type: 'shell', command: ['echo', 'quick'] } },
    { name: 'asks', description: 'asks before it runs', tags: ['read'], task: { support: 'preferred' }, confirm: { message: 'Run asks?' }, handler: { type: 'shell', command: ['echo', 'asked and ran'] } },
    { name: 'never-task', description: 'never a task', tags: ['read'], task: { support: 'forbidden' }, handler: { type: 'shell', command: ['echo', 'plain'] } },
    { name: 'only-task', description: 'only a task', tags: ['read'], task: { support: 'required' }, handler: { type: 'shell', command: ['echo', 'tasked'] } },
    { name: 'asks-briefly', description: 'a step that asks; as a task it gives up after 500 ms', tags: ['read'], task: { support: 'preferred', timeout: 500 }, steps: [{ name: 'ask', tool: 'asks' }] },
    { name: 'short-timeout', description: 'times out in 300 ms, unless it runs as a task', tags: ['read'], task: { support: 'preferred', timeout: 5000 }, handler: { type: 'shell', command: ['sh', '-c', 'sleep 1; echo slept'], timeout: 300 } },
  ],
};

/** A fresh workspace with the plugin file, and package.json scripts another plugin file imports. */
export function tasksWorkspace(): TempDir {
  const workspace = makeTempDir('wt-tasks-');
  workspace.write('.vscode/tools/tasks.json', JSON.stringify(TASKS_PLUGIN, null, 2));
  workspace.write('package.json', JSON.stringify({ name: 'tasks-fixture', private: true, scripts: { build: 'echo built', format: 'echo formatted' } }, null, 2));
  workspace.write('.vscode/tools/imported.json', JSON.stringify({ import: [{ from: 'npm-scripts' }] }));
  return workspace;
}

/** The pid `sleepy` wrote for `tag`, once it has. */
export async function sleepPid(workspace: TempDir, tag: string): Promise<number> {
  const file = path.join(workspace.path, `sleep-${tag}.pid`);
  await eventually(() => existsSync(file) && readFileSync(file, 'utf8').trim() !== '', `sleepy wrote ${file}`);
  return Number(readFileSync(file, 'utf8').trim());
}

/** Whether a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function eventually(condition: () => boolean | Promise<boolean>, what: string, limitMs = 10_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > end) {
      throw new Error(`not within ${limitMs} ms: ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export type Era = 'legacy' | 'modern';

export interface JsonRpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface Answer {
  readonly result?: Record<string, unknown>;
  readonly error?: JsonRpcError;
}

/**
 * Raw JSON-RPC to the built server over stdio. `legacy`: `initialize` 2025-11-25 first (with the
 * client capabilities given); `modern`: every request carries the 2026-07-28 envelope, with the
 * Tasks extension declared unless `declareTasks` is false.
 */
export class RawConnection {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private nextId = 0;
  private readonly waiting = new Map<number, (answer: Answer) => void>();
  /** Notifications and server requests, in order. */
  readonly received: Record<string, unknown>[] = [];
  /** Answers the server's requests (elicitation/create); default: none (they stay unanswered). */
  onServerRequest: ((request: { id: unknown; method: string; params: Record<string, unknown> }) => Record<string, unknown> | undefined) | undefined;
  stderr = '';
  /** The `initialize` answer (2025-11-25). */
  private initialized: Record<string, unknown> | undefined;

  private constructor(
    readonly era: Era,
    args: readonly string[],
    configHome: string,
    private readonly capabilities: Record<string, unknown>,
  ) {
    this.child = spawn(process.execPath, [SERVER_PATH, ...args], { env: testServerEnv(configHome), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.read(chunk.toString('utf8')));
  }

  static async open(era: Era, workspace: TempDir, options: { readonly args?: readonly string[]; readonly capabilities?: Record<string, unknown>; readonly declareTasks?: boolean; readonly history?: string } = {}): Promise<RawConnection> {
    const configHome = path.join(workspace.path, '.config-home');
    const declareTasks = options.declareTasks ?? true;
    const capabilities = era === 'modern' && declareTasks ? { ...options.capabilities, extensions: { [TASKS_EXTENSION]: {} } } : (options.capabilities ?? {});
    const connection = new RawConnection(era, ['--workspace', workspace.path, '--approve-existing', '--no-builtins', ...(options.history === undefined ? ['--no-history'] : ['--history', options.history]), '--sandbox', 'off', ...(options.args ?? [])], configHome, capabilities);
    if (era === 'legacy') {
      const answer = await connection.request('initialize', { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'tasks-tests', version: '1' } });
      if (answer.error !== undefined) {
        throw new Error(`initialize failed: ${answer.error.message}`);
      }
      connection.initialized = answer.result ?? {};
      connection.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    }
    return connection;
  }

  /** The server's capabilities: the `initialize` answer's, or `server/discover`'s. */
  async serverCapabilities(): Promise<Record<string, unknown>> {
    const result = this.era === 'legacy' ? this.initialized : (await this.request('server/discover', {})).result;
    return (result?.['capabilities'] ?? {}) as Record<string, unknown>;
  }

  request(method: string, params: Record<string, unknown> = {}): Promise<Answer> {
    const id = ++this.nextId;
    const meta = this.era === 'modern' ? { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': this.capabilities, 'io.modelcontextprotocol/clientInfo': { name: 'tasks-tests', version: '1' } } : {};
    const withMeta = Object.keys(meta).length === 0 ? params : { ...params, _meta: { ...(params['_meta'] as Record<string, unknown> | undefined), ...meta } };
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.send({ jsonrpc: '2.0', id, method, params: withMeta });
    });
  }

  /** `tools/call` as a task: with `task` on 2025-11-25; on 2026-07-28 the server decides. */
  callAsTask(name: string, args: Record<string, unknown> = {}, task: Record<string, unknown> = {}, meta?: Record<string, unknown>): Promise<Answer> {
    return this.request('tools/call', { name, arguments: args, ...(this.era === 'legacy' ? { task } : {}), ...(meta === undefined ? {} : { _meta: meta }) });
  }

  /** The task id of a `tools/call` answered with a task, or an error naming what came instead. */
  static taskIdOf(answer: Answer): string {
    const result = answer.result ?? {};
    const id = (result['task'] as Record<string, unknown> | undefined)?.['taskId'] ?? result['taskId'];
    if (typeof id !== 'string') {
      throw new Error(`not a task: ${JSON.stringify(answer)}`);
    }
    return id;
  }

  /** The task as `tasks/get` shows it. */
  async task(taskId: string): Promise<Record<string, unknown>> {
    const answer = await this.request('tasks/get', { taskId });
    if (answer.result === undefined) {
      throw new Error(`tasks/get ${taskId}: ${JSON.stringify(answer.error)}`);
    }
    return answer.result;
  }

  /** Polls until the task's status is one of `statuses`. */
  async until(taskId: string, statuses: readonly string[], limitMs = 15_000): Promise<Record<string, unknown>> {
    let last: Record<string, unknown> = {};
    await eventually(
      async () => {
        last = await this.task(taskId);
        return statuses.includes(String(last['status']));
      },
      `task ${taskId} ${statuses.join(' or ')} (last: ${JSON.stringify(last)})`,
      limitMs,
    );
    return last;
  }

  pid(): number | undefined {
    return this.child.pid;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) {
      return;
    }
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }

  private send(message: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private read(text: string): void {
    this.buffer += text;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      const message = JSON.parse(line) as Record<string, unknown>;
      const id = message['id'];
      if (typeof id === 'number' && message['method'] === undefined && this.waiting.has(id)) {
        this.waiting.get(id)?.(message);
        this.waiting.delete(id);
        continue;
      }
      this.received.push(message);
      const method = message['method'];
      if (typeof method === 'string' && id !== undefined) {
        const reply = this.onServerRequest?.({ id, method, params: (message['params'] ?? {}) as Record<string, unknown> });
        if (reply !== undefined) {
          this.send({ jsonrpc: '2.0', id, result: reply });
        }
      }
    }
  }
}
