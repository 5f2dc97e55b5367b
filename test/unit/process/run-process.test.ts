import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, type ProcessRequest } from '../../../src/core/process/run-process';
import { waitForPid, waitGone } from '../helpers/processes';

const NODE = process.execPath;

function request(args: readonly string[], extra: Partial<ProcessRequest> = {}): ProcessRequest {
  return {
    file: NODE,
    args,
    cwd: tmpdir(),
    env: process.env,
    timeoutMs: 10_000,
    maxOutputBytes: 1024 * 1024,
    ...extra,
  };
}

describe('runProcess', () => {
  test('captures stdout, stderr, exit code and stdin, without a shell', async () => {
    const outcome = await runProcess(
      request([
        '-e',
        'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{process.stdout.write("in:"+s);process.stderr.write("err");process.exit(3)})',
      ], { stdin: 'hello $(id)' }),
    );
    assert.equal(outcome.exitCode, 3);
    assert.equal(outcome.stdout, 'in:hello $(id)');
    assert.equal(outcome.stderr, 'err');
    assert.equal(outcome.timedOut, false);
    assert.equal(outcome.cancelled, false);
  });

  test('times out and kills the whole tree, grandchildren included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wt-run-'));
    try {
      const pidFile = join(dir, 'pid');
      const outcome = await runProcess({
        ...request([]),
        file: 'sh',
        args: ['-c', `sleep 100 & echo $! > "${pidFile}"; sleep 100`],
        timeoutMs: 500,
      });
      assert.equal(outcome.timedOut, true);
      assert.equal(outcome.exitCode, null);
      assert.ok(outcome.durationMs < 5000, `took ${outcome.durationMs} ms`);
      const grandchild = Number(readFileSync(pidFile, 'utf8').trim());
      assert.ok(grandchild > 0);
      assert.equal(await waitGone(grandchild), true, 'background sleep survived the timeout');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('kills background children left behind when the program exits', async () => {
    const outcome = await runProcess({
      ...request([]),
      file: 'sh',
      args: ['-c', 'sleep 100 & echo $!'],
    });
    assert.equal(outcome.exitCode, 0);
    const grandchild = Number(outcome.stdout.trim());
    assert.ok(grandchild > 0);
    assert.equal(await waitGone(grandchild), true);
  });

  test('a descendant that left the process group cannot hold the call open', async () => {
    const outcome = await runProcess({
      ...request([]),
      file: 'sh',
      args: ['-c', 'setsid sleep 30 & echo $!; sleep 0.3'],
    });
    const escaped = Number(outcome.stdout.trim());
    try {
      assert.equal(outcome.exitCode, 0);
      assert.ok(outcome.durationMs < 5000, `took ${outcome.durationMs} ms`);
    } finally {
      if (escaped > 0) {
        process.kill(escaped, 'SIGKILL');
      }
    }
  });

  test('a timeout also kills a descendant that called setsid while its parent runs', { skip: process.platform !== 'linux' }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wt-run-'));
    try {
      const pidFile = join(dir, 'pid');
      const running = runProcess({
        ...request([]),
        file: 'sh',
        args: ['-c', 'setsid sleep 30 & echo $! > "$1"; wait', 'sh', pidFile],
        timeoutMs: 1500,
      });
      const escaped = await waitForPid(pidFile);
      const outcome = await running;
      assert.equal(outcome.timedOut, true);
      assert.equal(await waitGone(escaped), true, 'the setsid grandchild outlived the timeout');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('cancellation kills a setsid descendant too', { skip: process.platform !== 'linux' }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wt-run-'));
    try {
      const pidFile = join(dir, 'pid');
      const controller = new AbortController();
      const running = runProcess({
        ...request([]),
        file: 'sh',
        args: ['-c', 'setsid sleep 30 & echo $! > "$1"; wait', 'sh', pidFile],
        signal: controller.signal,
      });
      const escaped = await waitForPid(pidFile);
      controller.abort();
      assert.equal((await running).cancelled, true);
      assert.equal(await waitGone(escaped), true, 'the setsid grandchild outlived the cancellation');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('cancellation through the AbortSignal kills the child', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wt-run-'));
    try {
      const pidFile = join(dir, 'pid');
      const controller = new AbortController();
      const running = runProcess(
        request(['-e', 'require("fs").writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)', pidFile], {
          signal: controller.signal,
        }),
      );
      const pid = await waitForPid(pidFile);
      controller.abort();
      const outcome = await running;
      assert.equal(outcome.cancelled, true);
      assert.equal(outcome.timedOut, false);
      assert.equal(await waitGone(pid), true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an already aborted signal starts nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await runProcess(request(['-e', ''], { signal: controller.signal }));
    assert.equal(outcome.cancelled, true);
    assert.equal(outcome.exitCode, null);
  });

  test('a missing program is a spawn error with its code, not a crash', async () => {
    const outcome = await runProcess({ ...request([]), file: 'wt-no-such-program-xyz' });
    assert.equal(outcome.spawnErrorCode, 'ENOENT');
    assert.match(outcome.spawnError ?? '', /ENOENT/);
    assert.equal(outcome.exitCode, null);
  });

  test('an argument with a NUL byte is a spawn error, not a throw', async () => {
    const outcome = await runProcess(request(['-e', '', 'a\0b']));
    assert.ok(outcome.spawnError !== undefined);
    assert.equal(outcome.exitCode, null);
  });

  test('100 MB of output is cut at the cap and memory stays bounded', async () => {
    const before = process.memoryUsage().rss;
    const outcome = await runProcess({
      ...request([]),
      file: 'head',
      args: ['-c', String(100 * 1024 * 1024), '/dev/zero'],
      maxOutputBytes: 64 * 1024,
      timeoutMs: 30_000,
    });
    const grown = process.memoryUsage().rss - before;
    assert.equal(outcome.exitCode, 0);
    assert.equal(outcome.stdoutDroppedBytes, 104792064);
    assert.equal(outcome.stdout.length, 65536);
    assert.ok(grown < 60 * 1024 * 1024, `RSS grew by ${grown} bytes`);
  });

  test('a program killed by a signal reports the signal', async () => {
    const outcome = await runProcess(request(['-e', 'process.kill(process.pid, "SIGTERM")']));
    assert.equal(outcome.exitCode, null);
    assert.equal(outcome.exitSignal, 'SIGTERM');
  });
});
