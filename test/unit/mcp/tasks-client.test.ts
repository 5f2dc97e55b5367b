/**
 * Tools run as MCP tasks (issue 39) through the official Tasks client,
 * `@modelcontextprotocol/ext-tasks`, over the official v2 SDK client and real stdio to the built
 * server, on both protocol revisions: 2025-11-25 (the client augments the call with `task`
 * because the tool lists `execution.taskSupport`) and 2026-07-28 (the client declares the Tasks
 * extension; the server makes the task). 2026-07-28 task traffic goes through the package's
 * `rawDispatch` (the SDK's wire codecs reject it), here the same stdio connection, its ids apart.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type * as ExtTasksClient from '@modelcontextprotocol/ext-tasks/client' with { 'resolution-mode': 'import' };
import type { TempDir } from '../helpers/git-repo';
import { SERVER_PATH, testServerEnv } from '../helpers/mcp-client';
import type { Era } from './tasks-fixture';
import { SLOW_OUTPUT, alive, eventually, sleepPid, tasksWorkspace } from './tasks-fixture';

type ExtTasks = typeof ExtTasksClient;
type RawResponse = Awaited<ReturnType<NonNullable<Parameters<ExtTasks['createTaskSessionFromClient']>[1]['rawDispatch']>>>;

let workspace: TempDir;
let tasks: ExtTasks;

before(async () => {
  workspace = tasksWorkspace();
  // An ES module only: loaded as one from these CommonJS tests.
  tasks = await import('@modelcontextprotocol/ext-tasks/client');
});
after(() => workspace.cleanup());

/**
 * The client's stdio transport, through which the Tasks package's raw requests go too: their
 * answers (ids `raw-N`) are taken here, everything else reaches the SDK client.
 */
class RawDispatchTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  private next = 0;
  private readonly waiting = new Map<string, (response: RawResponse) => void>();

  constructor(private readonly inner: StdioClientTransport) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message: JSONRPCMessage) => {
      const id = (message as { id?: unknown }).id;
      const waiter = typeof id === 'string' ? this.waiting.get(id) : undefined;
      if (waiter !== undefined && typeof id === 'string') {
        this.waiting.delete(id);
        const answer = message as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
        waiter(answer.error === undefined ? ({ kind: 'result', result: answer.result } as RawResponse) : ({ kind: 'error', error: answer.error } as RawResponse));
        return;
      }
      this.onmessage?.(message);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The package's `rawDispatch`: one request on the wire, its answer. */
  dispatch = (request: unknown): Promise<RawResponse> => {
    const id = `raw-${++this.next}`;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, resolve);
      this.inner.send({ ...(request as object), jsonrpc: '2.0', id } as JSONRPCMessage).catch(reject);
    });
  };
}

interface Session {
  readonly session: ReturnType<ExtTasks['createTaskSessionFromClient']>;
  readonly client: Client;
}

async function openSession(era: Era): Promise<Session> {
  const inner = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_PATH, '--workspace', workspace.path, '--approve-existing', '--no-builtins', '--no-history', '--sandbox', 'off'],
    env: testServerEnv(path.join(workspace.path, '.config-home')),
    stderr: 'ignore',
  });
  const transport = new RawDispatchTransport(inner);
  const clientInfo = { name: 'tasks-client-tests', version: '1.0.0' };
  const client = new Client(clientInfo, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(transport);
  assert.equal(client.getProtocolEra(), era);
  // The package's own copy of the Client type (its ES module declarations): the same class.
  const endpointId = `workspace-tools-${era}`;
  const session =
    era === 'modern'
      ? tasks.createTaskSessionFromClient(client as never, { endpointId, rawDispatch: transport.dispatch, v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo, clientCapabilities: {} } })
      : tasks.createTaskSessionFromClient(client as never, { endpointId });
  return { session, client };
}

async function closeSession({ session, client }: Session): Promise<void> {
  await session.close();
  await client.close();
}

function textOf(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content ?? []).map((part) => part.text ?? '').join('');
}

for (const era of ['legacy', 'modern'] as const) {
  describe(`the official Tasks client, protocol ${era === 'legacy' ? '2025-11-25' : '2026-07-28'}`, () => {
    test('a 2-second tool runs as a task: working, then completed with the tool output', async () => {
      const opened = await openSession(era);
      try {
        const declarations = era === 'legacy' ? await opened.client.listTools() : undefined;
        const slow = declarations?.tools.find((tool) => tool.name === 'slow');
        const started = performance.now();
        const execution = await opened.session.callTool('slow', {}, { task: { preference: 'require' }, ...(slow === undefined ? {} : { declaration: tasks.toolDeclarationFromMcpTool(slow) }) });
        const answeredMs = performance.now() - started;
        assert.equal(execution.kind, 'task', 'the call became a task');
        assert.ok(answeredMs < 1500, `the task came after ${answeredMs.toFixed(0)} ms, the tool takes 2000`);
        const seen: string[] = [];
        const { outcome } = await execution.settle({ onEvent: (event) => void (event.type === 'task' ? seen.push(event.task.status) : undefined) });
        assert.equal(outcome.status, 'completed', outcome.status === 'failed' ? `${outcome.error.message} ${JSON.stringify(outcome.error.data)} ${String((outcome.error as { cause?: unknown }).cause)}` : '');
        assert.equal(textOf(tasks.resultFromTaskOutcome(outcome)), SLOW_OUTPUT);
        assert.ok(seen.includes('working'), `statuses seen: ${seen.join(', ')}`);
        if (era === 'legacy') {
          const listed = await opened.session.listTasks();
          assert.ok(listed.tasks.some((task) => task.status === 'completed'), 'tasks/list has the finished task');
        }
      } finally {
        await closeSession(opened);
      }
    });

    test('cancelling a task through the client leaves no process', async () => {
      const opened = await openSession(era);
      try {
        const tag = `client${era}`;
        const sleepy = era === 'legacy' ? (await opened.client.listTools()).tools.find((tool) => tool.name === 'sleepy') : undefined;
        const execution = await opened.session.callTool('sleepy', { tag }, { task: { preference: 'require' }, ...(sleepy === undefined ? {} : { declaration: tasks.toolDeclarationFromMcpTool(sleepy) }) });
        assert.equal(execution.kind, 'task');
        const pid = await sleepPid(workspace, tag);
        assert.ok(alive(pid));
        await execution.cancel();
        await eventually(() => !alive(pid), `the sleep (pid ${pid}) is gone`);
        if (execution.kind === 'task') {
          const view = await opened.session.task(execution.handle.taskId).snapshot();
          assert.equal(view.status, 'cancelled');
        }
      } finally {
        await closeSession(opened);
      }
    });
  });
}
