/**
 * `call` on a terminal shows the tool's latest output line while it runs and clears it before the
 * result (issue 39: every door shows progress and cancels); Ctrl-C cancels the call and kills what
 * the tool started. Run through `script` for a real pseudo-terminal, as cli-ask.test.ts does.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TempDir } from '../helpers/git-repo';
import { SERVER_PATH, testServerEnv } from '../helpers/mcp-client';
import { posixQuote } from '../../../src/core/sandbox/sandboxed-command';
import { SLOW_OUTPUT, alive, eventually, sleepPid, tasksWorkspace } from './tasks-fixture';

let workspace: TempDir;
before(() => {
  workspace = tasksWorkspace();
});
after(() => workspace.cleanup());

const args = (): string[] => ['--workspace', workspace.path, '--approve-existing', '--no-builtins', '--no-history', '--sandbox', 'off'];
const env = (): Record<string, string> => testServerEnv(path.join(workspace.path, '.config-home'));

interface Run {
  readonly child: ChildProcess;
  readonly done: Promise<{ stdout: string; stderr: string; code: number | null }>;
}

function run(command: string, commandArgs: readonly string[]): Run {
  const child = spawn(command, [...commandArgs], { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  setTimeout(() => child.kill(), 30_000).unref();
  const done = new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
  });
  return { child, done };
}

describe('call shows progress and Ctrl-C cancels', () => {
  test('on a terminal the latest output line shows while the tool runs, and is cleared before the result', async () => {
    const line = [process.execPath, SERVER_PATH, 'call', 'slow', ...args()].map(posixQuote).join(' ');
    const { stdout: shown, code } = await run('script', ['-qec', line, '/dev/null']).done;
    assert.equal(code, 0, shown);
    assert.match(shown, /\r\x1b\[2Kslow: started/, 'the progress line');
    assert.match(shown, /\r\x1b\[2K(\r\n)?started\r?\nfinished/, 'cleared, then the result');
  });

  test('without a terminal stderr gets no progress line', async () => {
    const { stdout, stderr, code } = await run(process.execPath, [SERVER_PATH, 'call', 'slow', '{}', ...args()]).done;
    assert.equal(code, 0, stderr);
    assert.equal(stdout, SLOW_OUTPUT);
    assert.doesNotMatch(stderr, /slow: started/);
  });

  test('Ctrl-C (SIGINT) cancels the call: an error result saying so, exit 1, and no process left', async () => {
    const running = run(process.execPath, [SERVER_PATH, 'call', 'sleepy', '{"tag":"cli"}', ...args()]);
    const pid = await sleepPid(workspace, 'cli');
    assert.ok(alive(pid));
    running.child.kill('SIGINT');
    const { stderr, code } = await running.done;
    assert.equal(code, 1, stderr);
    assert.match(stderr, /was cancelled/);
    await eventually(() => !alive(pid), `the sleep (pid ${pid}) is gone`);
  });
});
