/**
 * `--running-file` (core/running/running-file.ts): the real built server over stdio publishes its
 * tasks and plain calls in progress to the file a VS Code window's tools view reads, and cancels
 * the ones the window lists in the cancel file beside it, killing their process trees.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { readRunningFile, requestCancel } from '../../../src/core/running/running-file';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { RawConnection, alive, eventually, sleepPid, tasksWorkspace } from './tasks-fixture';

let workspace: TempDir;
let storage: TempDir;
const open: RawConnection[] = [];

before(() => {
  workspace = tasksWorkspace();
  storage = makeTempDir('wt-running-storage-');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});
after(() => {
  workspace.cleanup();
  storage.cleanup();
});

describe('the server publishes its calls in progress (--running-file) and cancels what the editor asks', () => {
  test('a task is listed with its latest output line; a cancel request cancels it and kills its process', async () => {
    const file = path.join(storage.path, 'task', 'mcp-running.json');
    const connection = await RawConnection.open('legacy', workspace, { args: ['--running-file', file] });
    open.push(connection);
    const taskId = RawConnection.taskIdOf(await connection.callAsTask('sleepy', { tag: 'runningtask' }));
    const pid = await sleepPid(workspace, 'runningtask');
    await eventually(() => readRunningFile(file).some((call) => call.id === taskId && call.latest === `sleeping ${pid}`), 'the task and its output line are in the running file');
    const [listed] = readRunningFile(file);
    assert.equal(listed?.tool, 'sleepy');
    assert.equal(listed?.door, 'mcp-task');
    assert.ok(Math.abs(Date.now() - (listed?.startedAt ?? 0)) < 30_000, 'started a moment ago');
    assert.ok(alive(pid));
    await requestCancel(file, taskId);
    await eventually(() => !alive(pid), `the sleep (pid ${pid}) is gone`);
    const task = await connection.task(taskId);
    assert.equal(task['status'], 'cancelled');
    assert.equal(task['statusMessage'], 'The task was cancelled in the editor.');
    await eventually(() => readRunningFile(file).length === 0, 'the row is gone from the running file');
  });

  test('a plain tools/call is listed too, and its cancel answers the call as cancelled', async () => {
    const file = path.join(storage.path, 'plain', 'mcp-running.json');
    const connection = await RawConnection.open('legacy', workspace, { args: ['--running-file', file] });
    open.push(connection);
    const answered = connection.request('tools/call', { name: 'sleepy', arguments: { tag: 'runningplain' } });
    const pid = await sleepPid(workspace, 'runningplain');
    await eventually(() => readRunningFile(file).some((call) => call.tool === 'sleepy' && call.door === 'mcp'), 'the call is in the running file');
    const [listed] = readRunningFile(file);
    await requestCancel(file, listed?.id ?? '');
    const answer = await answered;
    assert.equal(answer.result?.['isError'], true, JSON.stringify(answer));
    await eventually(() => !alive(pid), `the sleep (pid ${pid}) is gone`);
    await eventually(() => readRunningFile(file).length === 0, 'the row is gone from the running file');
  });

  test('a server that shuts down leaves an empty list', async () => {
    const file = path.join(storage.path, 'exit', 'mcp-running.json');
    const connection = await RawConnection.open('legacy', workspace, { args: ['--running-file', file] });
    RawConnection.taskIdOf(await connection.callAsTask('sleepy', { tag: 'runningexit' }));
    const pid = await sleepPid(workspace, 'runningexit');
    await eventually(() => readRunningFile(file).length === 1, 'the task is listed');
    await connection.close();
    await eventually(() => readRunningFile(file, () => true).length === 0, 'the list is empty after the shutdown');
    await eventually(() => !alive(pid), `the sleep (pid ${pid}) is gone`);
  });
});
