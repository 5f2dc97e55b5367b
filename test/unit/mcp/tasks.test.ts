/**
 * Tools run as MCP tasks (issue 39), as raw JSON-RPC over the real built server's stdio, on both
 * protocol revisions: 2025-11-25's core tasks (`tools/call` with `task`, `tasks/get`,
 * `tasks/result`, `tasks/list`, `tasks/cancel`) and 2026-07-28's Tasks extension
 * (`resultType: "task"`, `tasks/get` with the result inlined, `tasks/update`, `tasks/cancel`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { TempDir } from '../helpers/git-repo';
import type { Answer, Era } from './tasks-fixture';
import { RELATED_TASK, RawConnection, SLOW_OUTPUT, TASKS_EXTENSION, alive, eventually, sleepPid, tasksWorkspace } from './tasks-fixture';

let workspace: TempDir;
const open: RawConnection[] = [];

before(() => {
  workspace = tasksWorkspace();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});
after(() => workspace.cleanup());

async function connect(era: Era, options: Parameters<typeof RawConnection.open>[2] = {}): Promise<RawConnection> {
  const connection = await RawConnection.open(era, workspace, options);
  open.push(connection);
  return connection;
}

/** The text of a CallToolResult's content. */
function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] } | undefined)?.content ?? [];
  return content.map((part) => part.text ?? '').join('');
}

/** The final CallToolResult of a task: `tasks/result` on 2025-11-25, `tasks/get`'s `result` on 2026-07-28. */
async function finalResult(connection: RawConnection, taskId: string): Promise<Record<string, unknown>> {
  if (connection.era === 'legacy') {
    const answer = await connection.request('tasks/result', { taskId });
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
    return answer.result ?? {};
  }
  const task = await connection.until(taskId, ['completed', 'failed', 'cancelled']);
  return (task['result'] ?? {}) as Record<string, unknown>;
}

/** A connection whose calls are plain: on 2026-07-28 the server decides, so one that does not declare tasks. */
async function plainConnection(era: Era, connection: RawConnection): Promise<RawConnection> {
  return era === 'legacy' ? connection : connect('modern', { declareTasks: false });
}

function errorOf(answer: Answer): { code: number; message: string; data?: unknown } {
  assert.ok(answer.error !== undefined, `expected an error, got ${JSON.stringify(answer.result)}`);
  return answer.error;
}

for (const era of ['legacy', 'modern'] as const) {
  const revision = era === 'legacy' ? '2025-11-25' : '2026-07-28';

  describe(`tools as MCP tasks, protocol ${revision}`, () => {
    test('the server declares tasks as the revision has them', async () => {
      const connection = await connect(era);
      const capabilities = await connection.serverCapabilities();
      if (era === 'legacy') {
        assert.deepEqual(capabilities['tasks'], { list: {}, cancel: {}, requests: { tools: { call: {} } } });
        assert.equal((capabilities['extensions'] as Record<string, unknown> | undefined)?.[TASKS_EXTENSION], undefined);
        const listed = await connection.request('tools/list');
        const tools = (listed.result?.['tools'] ?? []) as { name: string; execution?: { taskSupport?: string } }[];
        const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
        assert.equal(support['slow'], 'optional', 'preferred is optional to a 2025-11-25 client, which chooses');
        assert.equal(support['never-task'], 'forbidden');
        assert.equal(support['only-task'], 'required');
      } else {
        assert.deepEqual((capabilities['extensions'] as Record<string, unknown>)[TASKS_EXTENSION], {});
        assert.equal(capabilities['tasks'], undefined, '2026-07-28 has no core tasks capability');
      }
    });

    test('a 2-second shell tool called as a task returns a task at once, is working, then completed with the tool output', async () => {
      const connection = await connect(era);
      const started = performance.now();
      const created = await connection.callAsTask('slow', {}, { ttl: 60_000 });
      const answeredMs = performance.now() - started;
      const taskId = RawConnection.taskIdOf(created);
      assert.ok(answeredMs < 1500, `the task came after ${answeredMs.toFixed(0)} ms, the tool takes 2000`);
      if (era === 'legacy') {
        const task = created.result?.['task'] as Record<string, unknown>;
        assert.equal(task['status'], 'working');
        assert.equal(task['ttl'], 60_000);
        assert.equal(typeof task['pollInterval'], 'number');
        assert.match(String(task['createdAt']), /^\d{4}-\d\d-\d\dT/);
      } else {
        assert.equal(created.result?.['resultType'], 'task');
        assert.equal(created.result?.['status'], 'working');
        assert.equal(typeof created.result?.['ttlMs'], 'number');
        assert.equal(typeof created.result?.['pollIntervalMs'], 'number');
      }
      // Working, with the tool's latest output line as its status message.
      const working = await connection.until(taskId, ['working']);
      assert.equal(working['status'], 'working');
      await eventually(async () => (await connection.task(taskId))['statusMessage'] === 'started', 'the status message is the latest output line');
      if (era === 'legacy') {
        const listed = await connection.request('tasks/list');
        const tasks = (listed.result?.['tasks'] ?? []) as { taskId: string; status: string }[];
        assert.equal(tasks.find((task) => task.taskId === taskId)?.status, 'working');
      } else {
        assert.equal(errorOf(await connection.request('tasks/list')).code, -32601, 'the Tasks extension has no tasks/list');
      }
      const result = await finalResult(connection, taskId);
      assert.equal(textOf(result), SLOW_OUTPUT);
      assert.equal(result['isError'], false);
      const done = await connection.task(taskId);
      assert.equal(done['status'], 'completed');
      if (era === 'legacy') {
        assert.deepEqual((result['_meta'] as Record<string, unknown>)[RELATED_TASK], { taskId });
      }
      // The same result as the plain call gives.
      const plain = await (await plainConnection(era, connection)).request('tools/call', { name: 'slow', arguments: {} });
      assert.equal(textOf(plain.result), textOf(result));
    });

    test('a cancelled task is cancelled at once and leaves no process', async () => {
      const connection = await connect(era);
      const tag = `cancel${era}`;
      const taskId = RawConnection.taskIdOf(await connection.callAsTask('sleepy', { tag }));
      const pid = await sleepPid(workspace, tag);
      assert.ok(alive(pid), 'the sleep runs');
      const cancelled = await connection.request('tasks/cancel', { taskId });
      assert.equal(cancelled.error, undefined, JSON.stringify(cancelled.error));
      if (era === 'legacy') {
        assert.equal(cancelled.result?.['status'], 'cancelled', 'a 2025-11-25 task is cancelled before the answer');
      }
      assert.equal((await connection.task(taskId))['status'], 'cancelled');
      await eventually(() => !alive(pid), `the sleep (pid ${pid}) is gone`);
      if (era === 'legacy') {
        assert.equal(errorOf(await connection.request('tasks/cancel', { taskId })).code, -32602, 'a task already over cannot be cancelled');
      }
    });

    test('a finished task is dropped after its TTL', async () => {
      const connection = await connect(era, { args: ['--task-ttl', '400'] });
      const taskId = RawConnection.taskIdOf(await connection.callAsTask('quick', {}, { ttl: 400 }));
      const done = await connection.until(taskId, ['completed']);
      // Kept its TTL after it ended (the TTL shown grows by how long it ran).
      assert.ok(Number(era === 'legacy' ? done['ttl'] : done['ttlMs']) >= 400, JSON.stringify(done));
      await eventually(async () => (await connection.request('tasks/get', { taskId })).error !== undefined, 'the task is dropped', 5000);
      const gone = errorOf(await connection.request('tasks/get', { taskId }));
      assert.equal(gone.code, -32602);
      assert.match(gone.message, /expired/);
      assert.match(errorOf(await connection.request('tasks/get', { taskId: 'no-such-task' })).message, /not found/);
    });

    test('a task past the cap per client is refused with an error that says why; after a cancel there is room', async () => {
      const connection = await connect(era, { args: ['--max-tasks', '2'] });
      const first = RawConnection.taskIdOf(await connection.callAsTask('sleepy', { tag: `cap1${era}` }));
      RawConnection.taskIdOf(await connection.callAsTask('sleepy', { tag: `cap2${era}` }));
      const refused = errorOf(await connection.callAsTask('quick'));
      assert.equal(refused.code, -32600);
      assert.match(refused.message, /2 tasks of this client are running, the most one client may have at once \(2\)/);
      await connection.request('tasks/cancel', { taskId: first });
      RawConnection.taskIdOf(await connection.callAsTask('quick'));
    });

    test('a run as a task takes the tool\'s task timeout; a plain call keeps its own', async () => {
      const connection = await connect(era);
      const plain = await (await plainConnection(era, connection)).request('tools/call', { name: 'short-timeout', arguments: {} });
      assert.match(textOf(plain.result), /timed out after 300 ms/);
      const taskId = RawConnection.taskIdOf(await connection.callAsTask('short-timeout'));
      const result = await finalResult(connection, taskId);
      assert.equal(textOf(result), 'slept\n');
    });

    test('a task whose time runs out while a step\'s question waits ends then, as an error, and shows the question no more', async () => {
      const connection = await connect(era, { capabilities: { elicitation: {} } });
      const asked: string[] = [];
      // 2025-11-25: the question reaches the client as elicitation/create, which it leaves unanswered.
      connection.onServerRequest = (request) => void asked.push(request.method);
      const taskId = RawConnection.taskIdOf(await connection.callAsTask('asks-briefly'));
      if (era === 'modern') {
        await connection.until(taskId, ['input_required']);
      }

      // Before, the task stayed input_required with the question of a call that was over.
      const ended = await connection.until(taskId, ['completed', 'failed', 'cancelled'], 5_000);
      // An error result: a failed task on 2025-11-25, a completed one with isError on 2026-07-28.
      assert.equal(ended['status'], era === 'legacy' ? 'failed' : 'completed', JSON.stringify(ended));
      assert.equal(ended['inputRequests'], undefined, 'the question went with the call');
      assert.match(String(ended['statusMessage']), /Stopped: the tool's timeout of 500 ms passed/);
      const result = await finalResult(connection, taskId);
      assert.equal(result['isError'], true);
      assert.match(textOf(result), /the call was cancelled while it waited for the answer/);
      if (era === 'legacy') {
        assert.deepEqual(asked, ['elicitation/create']);
      }
    });

    test('a question inside a task makes it input_required, and the answer lets it run', async () => {
      const connection = await connect(era, { capabilities: { elicitation: {} } });
      const asked: Record<string, unknown>[] = [];
      if (era === 'legacy') {
        connection.onServerRequest = (request) => {
          asked.push(request.params);
          return request.method === 'elicitation/create' ? { action: 'accept', content: {} } : undefined;
        };
      }
      const taskId = RawConnection.taskIdOf(await connection.callAsTask('asks'));
      if (era === 'modern') {
        const waiting = await connection.until(taskId, ['input_required']);
        const requests = waiting['inputRequests'] as Record<string, { method: string; params: { message: string } }>;
        const [key, request] = Object.entries(requests)[0] ?? [];
        assert.equal(request?.method, 'elicitation/create');
        assert.equal(request?.params.message, 'Run asks?');
        assert.deepEqual(await connection.request('tasks/update', { taskId, inputResponses: { [key ?? '']: { action: 'accept', content: {} } } }).then((answer) => answer.error), undefined);
      }
      const result = await finalResult(connection, taskId);
      assert.equal(textOf(result), 'asked and ran\n');
      if (era === 'legacy') {
        assert.equal(asked.length, 1);
        assert.equal(asked[0]?.['message'], 'Run asks?');
        assert.deepEqual((asked[0]?.['_meta'] as Record<string, unknown>)[RELATED_TASK], { taskId });
      }
    });
  });
}

describe('task support a tool declares', () => {
  test('2025-11-25: a forbidden tool as a task and a required tool without one are -32601', async () => {
    const connection = await connect('legacy');
    assert.equal(errorOf(await connection.callAsTask('never-task')).code, -32601);
    // Without `task` the call takes the fast path, which leaves a required tool to the tasks feature.
    const refused = errorOf(await connection.request('tools/call', { name: 'only-task', arguments: {} }));
    assert.equal(refused.code, -32601);
    assert.match(refused.message, /runs only as a task/);
    assert.equal(textOf(await finalResult(connection, RawConnection.taskIdOf(await connection.callAsTask('only-task')))), 'tasked\n');
  });

  test('2026-07-28: the server makes a task only of a preferred or required tool, for a client that declares the extension', async () => {
    const declaring = await connect('modern');
    const plain = await declaring.request('tools/call', { name: 'never-task', arguments: {} });
    assert.equal(textOf(plain.result), 'plain\n');
    const silent = await connect('modern', { declareTasks: false });
    const slow = await silent.request('tools/call', { name: 'quick', arguments: {} });
    assert.equal(slow.result?.['resultType'], 'complete', 'no task for a client without the extension');
    assert.equal(textOf(slow.result), 'quick\n');
    const required = errorOf(await silent.request('tools/call', { name: 'only-task', arguments: {} }));
    assert.equal(required.code, -32021);
    assert.deepEqual(required.data, { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    assert.equal(errorOf(await silent.request('tasks/get', { taskId: 'x' })).code, -32021, 'tasks/get needs the extension declared');
  });

  test('2026-07-28, the capabilities Claude Code declares when its MCP tasks are on: an imported build script runs as a task, an imported format script plainly', async () => {
    // Not recorded from Claude Code: its offline health check does not declare the extension (a
    // feature gate of its own decides); this is the envelope its 2.1.328 code builds when it does.
    const claudeLike = await connect('modern', { capabilities: { roots: { listChanged: true }, elicitation: { form: {}, url: {} } } });
    const discovered = await claudeLike.request('server/discover');
    assert.deepEqual((discovered.result?.['capabilities'] as Record<string, Record<string, unknown>>)['extensions'], { [TASKS_EXTENSION]: {} });
    const build = await claudeLike.request('tools/call', { name: 'npm-build', arguments: {} });
    assert.equal(build.result?.['resultType'], 'task', JSON.stringify(build));
    const result = await finalResult(claudeLike, RawConnection.taskIdOf(build));
    assert.match(textOf(result), /built/);
    const format = await claudeLike.request('tools/call', { name: 'npm-format', arguments: {} });
    assert.equal(format.result?.['resultType'], 'complete');
    assert.match(textOf(format.result), /formatted/);
  });

  test('the history records a task like a call: the tool, its input, what ran, how it ended', async () => {
    const history = path.join(workspace.path, 'history.jsonl');
    const connection = await connect('legacy', { history });
    const taskId = RawConnection.taskIdOf(await connection.callAsTask('slow'));
    await finalResult(connection, taskId);
    await connection.close();
    const records = readFileSync(history, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const record = records.find((one) => one['tool'] === 'slow');
    assert.ok(record !== undefined, readFileSync(history, 'utf8'));
    assert.equal(record['door'], 'mcp');
    assert.equal(record['isError'], false);
    assert.match(JSON.stringify(record), /echo started; sleep 2; echo finished/);
  });

  test('2025-11-25: progress of a task goes on with the call\'s progress token', async () => {
    const connection = await connect('legacy');
    const taskId = RawConnection.taskIdOf(await connection.callAsTask('slow', {}, {}, { progressToken: 'p1' }));
    await finalResult(connection, taskId);
    const progress = connection.received.filter((message) => message['method'] === 'notifications/progress').map((message) => message['params'] as Record<string, unknown>);
    assert.ok(progress.length > 0, 'no progress notification');
    assert.ok(progress.every((params) => params['progressToken'] === 'p1'));
    assert.equal(progress[0]?.['message'], 'started');
  });
});
