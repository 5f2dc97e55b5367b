/**
 * The calls in progress (core/running/running-calls.ts) and the running file a VS Code window's
 * MCP server publishes them to, with the cancel file beside it (core/running/running-file.ts).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { RunningCalls, doorLabel, elapsedText, runningRowText } from '../../../src/core/running/running-calls';
import { cancelFileOf, publishRunning, readRunningFile, requestCancel } from '../../../src/core/running/running-file';
import type { Disposable } from '../../../src/core/types';
import { makeTempDir } from '../helpers/git-repo';
import type { TempDir } from '../helpers/git-repo';
import { memoryLogger } from '../helpers/fake-tools';
import { eventually } from '../mcp/tasks-fixture';

const cleanups: (TempDir | Disposable)[] = [];
afterEach(() => {
  for (const item of cleanups.splice(0)) {
    if ('cleanup' in item) {
      item.cleanup();
    } else {
      item.dispose();
    }
  }
});

describe('RunningCalls', () => {
  test('lists a call from begin to end, with its latest output line, and cancels it', () => {
    let now = 1_000;
    const running = new RunningCalls(() => now);
    const changes: boolean[] = [];
    running.onDidChange((membership) => changes.push(membership));
    let cancelled = 0;
    const handle = running.begin({ tool: 'build', door: 'bridge', caller: 'claude-code', cancel: () => (cancelled += 1) });
    assert.deepEqual(running.list(), [{ id: handle.id, tool: 'build', door: 'bridge', caller: 'claude-code', startedAt: 1_000 }]);
    handle.report('compiling a.ts\ncompiling b.ts\n\n');
    assert.equal(running.list()[0]?.latest, 'compiling b.ts', 'the last non-empty line');
    handle.report('compiling b.ts');
    assert.equal(changes.length, 2, 'a begin and one new line (the same line again is no change)');
    assert.deepEqual(changes, [true, false], 'the begin changes which calls run; the line does not');
    now = 75_000;
    assert.deepEqual(runningRowText(running.list()[0]!, now), {
      label: 'build',
      description: 'terminal agent (claude-code) · 1 min 14 s · compiling b.ts',
      tooltip: 'build: started by terminal agent (claude-code) 1 min 14 s ago\nLatest: compiling b.ts\nCancel stops it and the programs it started.',
    });
    assert.equal(running.cancel(handle.id), true);
    assert.equal(cancelled, 1);
    handle.end();
    assert.deepEqual(running.list(), []);
    assert.deepEqual(changes, [true, false, true], 'the end changes which calls run');
    assert.equal(running.cancel(handle.id), false, 'an ended call is not cancelled');
    handle.end();
    assert.equal(changes.length, 3, 'ending twice changes once');
  });

  test('a task is listed under its task id; rows name every door', () => {
    const running = new RunningCalls();
    const handle = running.begin({ id: 'task-1', tool: 'deploy', door: 'mcp-task', cancel: () => undefined });
    assert.equal(handle.id, 'task-1');
    assert.deepEqual(
      (['lm', 'run-tool', 'bridge', 'mcp', 'mcp-task'] as const).map((door) => doorLabel({ door })),
      ['chat', 'Run Tool', 'terminal agent', 'MCP call', 'MCP task'],
    );
    assert.deepEqual([elapsedText(0), elapsedText(59_999), elapsedText(60_000), elapsedText(3_725_000)], ['0 s', '59 s', '1 min 00 s', '1 h 02 min']);
  });
});

describe('the running file', () => {
  test('the publisher writes the calls (throttled), the reader reads them, a cancel request cancels, and disposing empties it', async () => {
    const dir = makeTempDir('wt-running-');
    cleanups.push(dir);
    const file = path.join(dir.path, 'storage', 'mcp-running.json');
    const running = new RunningCalls();
    const published = publishRunning(running, file, memoryLogger(), 50);
    let cancelled: string | undefined;
    const a = running.begin({ tool: 'build', door: 'mcp-task', id: 'task-a', cancel: () => (cancelled = 'task-a') });
    running.begin({ tool: 'test', door: 'mcp', id: 'call-b', cancel: () => (cancelled = 'call-b') });
    a.report('step 3 of 9');
    await eventually(() => readRunningFile(file).length === 2, 'both calls are in the file');
    assert.equal((JSON.parse(readFileSync(file, 'utf8')) as { pid: unknown }).pid, process.pid);
    assert.deepEqual(readRunningFile(file).map((call) => [call.id, call.tool, call.door, call.latest]), [
      ['task-a', 'build', 'mcp-task', 'step 3 of 9'],
      ['call-b', 'test', 'mcp', undefined],
    ]);
    await requestCancel(file, 'task-a');
    assert.deepEqual(JSON.parse(readFileSync(cancelFileOf(file), 'utf8')), { cancel: ['task-a'] });
    await eventually(() => cancelled === 'task-a', 'the publisher cancelled task-a');
    a.end();
    await eventually(() => readRunningFile(file).length === 1, 'the ended call left the file');
    published.dispose();
    assert.deepEqual(readRunningFile(file), [], 'a server that shut down lists nothing');
  });

  test('a file of a server that is gone, a broken file, or forged entries list nothing wrong', () => {
    const dir = makeTempDir('wt-running-');
    cleanups.push(dir);
    const file = path.join(dir.path, 'mcp-running.json');
    assert.deepEqual(readRunningFile(file), [], 'missing');
    writeFileSync(file, '{ half');
    assert.deepEqual(readRunningFile(file), [], 'broken');
    const calls = [{ id: 'x', tool: 'build', door: 'mcp-task', startedAt: 1 }, { id: 'y', tool: 'evil', door: 'root', startedAt: 1 }, { id: 3, tool: 'z', door: 'mcp', startedAt: 1 }];
    writeFileSync(file, JSON.stringify({ pid: process.pid, calls }));
    assert.deepEqual(readRunningFile(file).map((call) => call.id), ['x'], 'only well-formed entries');
    // A pid that exited: its server died without clearing the file.
    const child = spawn(process.execPath, ['-e', '']);
    return new Promise<void>((resolve) => {
      child.on('exit', () => {
        writeFileSync(file, JSON.stringify({ pid: child.pid, calls }));
        assert.deepEqual(readRunningFile(file), []);
        assert.equal(existsSync(cancelFileOf(file)), false);
        resolve();
      });
    });
  });
});
