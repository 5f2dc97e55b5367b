// Tools run as MCP tasks (issue 39), attacked as a hostile or buggy client would: a burst past the
// cap, TTLs out of bounds, a result bigger than a plain call may return, waiting on a task that
// was cancelled, and a client that goes away while its tasks run. Raw JSON-RPC over the real
// built server's stdio (test/unit/mcp/tasks-fixture.ts).
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import type { TempDir } from '../helpers/git-repo';
import type { Era } from '../mcp/tasks-fixture';
import { RawConnection, TASKS_PLUGIN, alive, eventually, sleepPid, tasksWorkspace } from '../mcp/tasks-fixture';

/** 3 MiB on stdout, three times the default output cap (output.maxBytes, 1 MiB). */
const FLOOD = { name: 'flood', description: 'prints 3 MiB', tags: ['read'], task: { support: 'preferred' }, handler: { type: 'shell', command: ['node', '-e', "process.stdout.write('x'.repeat(3 * 1024 * 1024))"] } };

let workspace: TempDir;
const open: RawConnection[] = [];
before(() => {
  workspace = tasksWorkspace();
  workspace.write('.vscode/tools/tasks.json', JSON.stringify({ tools: [...TASKS_PLUGIN.tools, FLOOD] }, null, 2));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});
after(() => workspace.cleanup());

async function connect(era: Era, args: readonly string[] = []): Promise<RawConnection> {
  const connection = await RawConnection.open(era, workspace, { args });
  open.push(connection);
  return connection;
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] } | undefined)?.content ?? [];
  return content.map((part) => part.text ?? '').join('');
}

for (const era of ['legacy', 'modern'] as const) {
  test(`${era}: a burst of tasks past the cap starts exactly the cap, and the others run nothing`, async () => {
    const connection = await connect(era, ['--max-tasks', '3']);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => connection.callAsTask('sleepy', { tag: `burst${era}${index}` })));
    const started = answers.filter((answer) => answer.error === undefined);
    assert.equal(started.length, 3, JSON.stringify(answers));
    for (const refused of answers.filter((answer) => answer.error !== undefined)) {
      assert.match(refused.error?.message ?? '', /3 tasks of this client are running, the most one client may have at once \(3\)/);
    }
    const pids = await Promise.all(started.map((_, index) => sleepPid(workspace, `burst${era}${answers.indexOf(started[index] ?? {})}`)));
    assert.equal(pids.length, 3);
    for (const answer of started) {
      await connection.request('tasks/cancel', { taskId: RawConnection.taskIdOf(answer) });
    }
    await eventually(() => pids.every((pid) => !alive(pid)), 'the burst\'s processes are gone after cancel');
  });
}

test('legacy: a TTL out of bounds is brought within them: negative to 0, huge to a day, not a number to the default', async () => {
  const connection = await connect('legacy');
  const ttlOf = async (ttl: unknown): Promise<number> => Number(((await connection.callAsTask('quick', {}, { ttl })).result?.['task'] as { ttl?: unknown } | undefined)?.ttl);
  assert.equal(await ttlOf(-5), 0);
  assert.equal(await ttlOf(1e300), 24 * 60 * 60 * 1000);
  assert.equal(await ttlOf('1e300'), 60 * 60 * 1000);
  assert.equal(await ttlOf(1.5), 1);
});

test('legacy: a task\'s result is capped as a plain call\'s is', async () => {
  const connection = await connect('legacy');
  const plain = textOf((await connection.request('tools/call', { name: 'flood', arguments: {} })).result);
  const task = await connection.callAsTask('flood');
  const result = await connection.request('tasks/result', { taskId: RawConnection.taskIdOf(task) });
  const tasked = textOf(result.result);
  assert.ok(plain.length < 2 * 1024 * 1024, `the plain call is capped: ${plain.length}`);
  assert.ok(tasked.length <= plain.length + 1024, `the task's result is capped too: ${tasked.length} against ${plain.length}`);
});

test('legacy: tasks/result of a task cancelled while it waits answers at once; cancelling it again is refused, not a second kill', async () => {
  const connection = await connect('legacy');
  const taskId = RawConnection.taskIdOf(await connection.callAsTask('sleepy', { tag: 'waited' }));
  const pid = await sleepPid(workspace, 'waited');
  const waiting = connection.request('tasks/result', { taskId });
  await connection.request('tasks/cancel', { taskId });
  const result = await waiting;
  assert.equal((result.result as { isError?: boolean } | undefined)?.isError, true, JSON.stringify(result));
  await eventually(() => !alive(pid), 'the cancelled task\'s process is gone');
  const again = await connection.request('tasks/cancel', { taskId });
  assert.match(again.error?.message ?? '', /already cancelled/);
});

for (const era of ['legacy', 'modern'] as const) {
  test(`${era}: a client that closes stdin while its tasks run leaves no process behind, and the server exits`, async () => {
    const connection = await RawConnection.open(era, workspace);
    connection.callAsTask('sleepy', { tag: `gone${era}` }).catch(() => undefined);
    const pid = await sleepPid(workspace, `gone${era}`);
    assert.ok(alive(pid));
    await connection.close();
    await eventually(() => !alive(pid), 'the task\'s process is gone once the server has exited');
  });
}

test('modern: an answer through tasks/update that sets a field the form does not ask for runs nothing', async () => {
  const connection = await RawConnection.open('modern', workspace, { capabilities: { elicitation: {} } });
  open.push(connection);
  const taskId = RawConnection.taskIdOf(await connection.callAsTask('asks'));
  const waiting = await connection.until(taskId, ['input_required']);
  const [key] = Object.keys(waiting['inputRequests'] as Record<string, unknown>);
  await connection.request('tasks/update', { taskId, inputResponses: { [key ?? '']: { action: 'accept', content: { command: 'rm -rf ~' } } } });
  const ended = await connection.until(taskId, ['completed', 'failed', 'cancelled']);
  const text = textOf(ended['result']) || JSON.stringify(ended['error'] ?? ended['statusMessage']);
  assert.doesNotMatch(text, /asked and ran/, text);
  assert.match(text, /"command", which the form does not ask for/, text);
});
