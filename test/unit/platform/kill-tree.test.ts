import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { TreeKillDeps } from '../../../src/core/platform/kill-tree';
import { killTree } from '../../../src/core/platform/kill-tree';
import type { HelperRunner } from '../../../src/core/platform/process-table';
import { decodeToolOutput, descendantsIn, listedParentMap, parseParentPidLines, runHelper } from '../../../src/core/platform/process-table';
import { platformNamed } from '../../../src/core/platform/platform';
import { waitGone } from '../helpers/processes';

/** What wmic printed into a pipe under Wine 8 (UTF-16LE with a byte order mark), as measured. */
const WMIC_OUTPUT = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ParentProcessID  ProcessID  \r\n0                32         \r\n40               56         \r\n100              200        \r\n200              300        \r\n300              400        \r\n100              500        \r\n7                8          \r\n\r\n', 'utf16le')]);

/** A Windows host that records what is run and sent; `answers` gives each helper's outcome. */
function windowsHost(answers: Record<string, { code: number | null; stdout?: Buffer }>): { deps: TreeKillDeps; ran: string[]; killed: number[] } {
  const ran: string[] = [];
  const killed: number[] = [];
  const run: HelperRunner = async (file, args) => {
    ran.push([file, ...args].join(' '));
    const answer = answers[file] ?? { code: null };
    return { code: answer.code, stdout: answer.stdout ?? Buffer.alloc(0) };
  };
  return { deps: { platform: platformNamed('win32'), run, signal: (pid) => killed.push(pid) }, ran, killed };
}

describe('killTree with Windows semantics', () => {
  test('taskkill /T /F ends the tree: nothing else is run', async () => {
    const host = windowsHost({ taskkill: { code: 0 } });
    await killTree(100, { walk: true }, host.deps);
    assert.deepEqual(host.ran, ['taskkill /pid 100 /T /F']);
    assert.deepEqual(host.killed, []);
  });

  test('when taskkill fails (Wine has no /T; access denied), the root is ended and its tree walked by parent pid with wmic', async () => {
    const host = windowsHost({ taskkill: { code: 1 }, wmic: { code: 0, stdout: WMIC_OUTPUT } });
    await killTree(100, { walk: true }, host.deps);
    assert.deepEqual(host.ran, ['taskkill /pid 100 /T /F', 'wmic process get ParentProcessId,ProcessId']);
    // The root, then children before grandchildren; 8 (another tree) is left alone.
    assert.deepEqual(host.killed, [100, 200, 500, 300, 400]);
  });

  test('where wmic is gone (Windows 11 24H2), PowerShell Get-CimInstance Win32_Process lists the tree', async () => {
    const host = windowsHost({ taskkill: { code: 128 }, wmic: { code: null }, 'powershell.exe': { code: 0, stdout: Buffer.from('0 4\r\n100 200\r\n200 300\r\n') } });
    await killTree(100, { walk: true }, host.deps);
    assert.match(host.ran[2] ?? '', /^powershell\.exe -NoProfile -NonInteractive -Command Get-CimInstance Win32_Process/);
    assert.deepEqual(host.killed, [100, 200, 300]);
  });

  test('without walk a failed taskkill still ends the root, and nothing lists processes', async () => {
    const host = windowsHost({ taskkill: { code: 1 } });
    await killTree(100, { walk: false }, host.deps);
    assert.deepEqual(host.ran, ['taskkill /pid 100 /T /F']);
    assert.deepEqual(host.killed, [100]);
  });

  test('after a normal exit nothing is run unless the pipes are held (walk)', async () => {
    const quiet = windowsHost({ taskkill: { code: 1 } });
    await killTree(100, { walk: false, exited: true }, quiet.deps);
    assert.deepEqual(quiet.ran, []);
    const held = windowsHost({ taskkill: { code: 1 }, wmic: { code: 0, stdout: WMIC_OUTPUT } });
    await killTree(100, { walk: true, exited: true }, held.deps);
    assert.deepEqual(held.killed, [100, 200, 500, 300, 400]);
  });
});

describe('process tables', () => {
  test('wmic output in UTF-16LE and PowerShell lines parse into parent → children', () => {
    const children = parseParentPidLines(decodeToolOutput(WMIC_OUTPUT));
    assert.deepEqual(children.get(100), [200, 500]);
    assert.deepEqual(descendantsIn(children, 100), [200, 500, 300, 400]);
    assert.deepEqual(descendantsIn(parseParentPidLines(decodeToolOutput(Buffer.from('ParentProcessId ProcessId\r\n1 2\r\n2 3\r\n'))), 1), [2, 3]);
  });

  test('a cycle in the table (pids reused) does not loop', () => {
    assert.deepEqual(descendantsIn(parseParentPidLines('1 2\n2 1\n'), 1), [2]);
  });
});

describe('killTree with macOS semantics (ps, on this machine)', () => {
  const hasSetsid = spawnSync('setsid', ['--version'], { stdio: 'ignore' }).status === 0;

  test('ps lists this machine\'s processes as parent → children', async () => {
    const children = await listedParentMap(platformNamed('darwin'), runHelper);
    assert.ok(children?.get(process.ppid)?.includes(process.pid), 'this process is listed under its parent');
  });

  test('the group is killed, and a descendant that left it (setsid) is found by ps and killed too', { skip: !hasSetsid && 'needs setsid(1) to leave the group' }, async () => {
    const shell = spawn('sh', ['-c', 'setsid sleep 300 & sleep 300 & wait'], { detached: true, stdio: 'ignore' });
    const root = shell.pid ?? 0;
    let sleeps: number[] = [];
    for (const deadline = Date.now() + 10_000; sleeps.length < 2 && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
      sleeps = descendantsIn((await listedParentMap(platformNamed('darwin'), runHelper)) ?? new Map(), root);
    }
    assert.equal(sleeps.length, 2, 'both sleeps started');
    await killTree(root, { walk: true }, { platform: platformNamed('darwin'), run: runHelper, signal: (pid, signal) => process.kill(pid, signal) });
    for (const pid of [root, ...sleeps]) {
      assert.ok(await waitGone(pid), `${pid} still runs`);
    }
  });
});
