/**
 * What `workspaceTools.sandbox` / `--sandbox` decides when the OS cannot sandbox (issue 34 item
 * 2), with the sandbox made unavailable for real: WORKSPACE_TOOLS_BWRAP names a bubblewrap that
 * does not exist, as a machine without it has none. `preferred` (the default) runs shell tools
 * not sandboxed, says so once on stderr and in each call's record; `required` serves none of
 * them, each with a problem naming why and how to fix it; `off` starts no broker and says nothing.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createSandbox } from '../../../src/core/sandbox/sandbox-service';
import { userPlace } from '../../../src/core/sandbox/user-place';
import { SERVER_PATH } from '../helpers/mcp-client';
import { afterEach, describe, test } from 'node:test';
import { runServerScript } from '../helpers/cli';
import { SandboxWorld, pluginFile, scriptTool } from './sandbox-world';

const FILES = {
  '.vscode/tools/sandboxed.json': pluginFile([
    scriptTool('writes-inside', ['read'], 'echo x > inside.txt && echo wrote'),
    { name: 'read-notes', description: 'reads notes', tags: ['read'], handler: { type: 'file-read', basePath: '.' } },
  ]),
  'notes.txt': 'the notes\n',
};

const MISSING_BWRAP = { WORKSPACE_TOOLS_BWRAP: '/nonexistent/bwrap' };

let world: SandboxWorld | undefined;

afterEach(async () => {
  await world?.close();
  world?.dispose();
  world = undefined;
});

/** The notices of an unavailable sandbox on stderr. */
function notices(stderr: string): number {
  return stderr.split('The OS sandbox is unavailable:').length - 1;
}

describe('with the OS sandbox unavailable (bubblewrap missing)', () => {
  test('preferred (the default): shell tools run NOT sandboxed, said once on stderr and in each record', async () => {
    world = await SandboxWorld.start({ files: FILES, env: MISSING_BWRAP });
    assert.ok((await world.toolNames()).includes('writes-inside'));
    for (const round of [1, 2]) {
      const result = await world.call('writes-inside');
      assert.equal(result.isError, false, `call ${round}: ${result.text}`);
    }
    assert.equal(existsSync(path.join(world.workspace.path, 'inside.txt')), true, 'it ran with all of the user\'s rights');
    const stderr = world.stderr();
    assert.equal(notices(stderr), 1, stderr);
    assert.match(stderr, /The OS sandbox is unavailable: Sandbox dependencies not available: bubblewrap \(bwrap\) not executable at \/nonexistent\/bwrap/);
    assert.match(stderr, /Shell and imported tools run NOT sandboxed, with all of your rights/);
    assert.match(stderr, /To fix: install bubblewrap: sudo apt-get install bubblewrap \(Debian, Ubuntu\)/);
    const [record] = await world.records(1);
    assert.deepEqual(record?.sandbox, { sandboxed: false, reason: 'the sandbox is unavailable: Sandbox dependencies not available: bubblewrap (bwrap) not executable at /nonexistent/bwrap' });
    // `list` probes too, and marks the tool.
    const listed = await runServerScript(['list', '--workspace', world.workspace.path, '--approve-existing', '--no-builtins'], { cwd: world.workspace.path, env: world.env() });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /writes-inside .*NOT SANDBOXED/);
    // `init` says it, and what to do, where the clients are set up.
    const init = await runServerScript(['init', '--cursor', '--workspace', world.workspace.path], { cwd: world.workspace.path, env: world.env() });
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /The OS sandbox is unavailable: .*bubblewrap.*\n.*NOT sandboxed.*\nTo fix: install bubblewrap: sudo apt-get install bubblewrap/);
  });

  test('required: shell tools are not served, each with a problem that says why and how to fix it; other tools are', async () => {
    world = await SandboxWorld.start({ files: FILES, env: MISSING_BWRAP, serverArgs: ['--sandbox', 'required'] });
    const names = await world.toolNames();
    assert.deepEqual(names, ['read-notes']);
    const refused = await world.call('writes-inside').catch((error: unknown) => ({ text: String(error), isError: true }));
    assert.equal(refused.isError, true);
    assert.equal(existsSync(path.join(world.workspace.path, 'inside.txt')), false);
    assert.match(world.stderr(), /writes-inside.*not served: workspaceTools\.sandbox \(--sandbox\) is "required" and the OS sandbox is unavailable: Sandbox dependencies not available: bubblewrap \(bwrap\) not executable at \/nonexistent\/bwrap\. To fix: install bubblewrap/);
    assert.match(world.stderr(), /Shell and imported tools are not served/);

    // The command line the same way: `call` refuses it and says why; `check` shows the problem.
    const call = await runServerScript(['call', 'writes-inside', '--workspace', world.workspace.path, '--approve-existing', '--sandbox', 'required'], { cwd: world.workspace.path, env: world.env() });
    assert.equal(call.code, 1);
    assert.match(`${call.stdout}${call.stderr}`, /"required" and the OS sandbox is unavailable/);
    assert.equal(existsSync(path.join(world.workspace.path, 'inside.txt')), false);
  });

  test('off: no broker starts, nothing is said, and each record says the sandbox is off', async () => {
    world = await SandboxWorld.start({ files: FILES, env: MISSING_BWRAP, serverArgs: ['--sandbox', 'off'] });
    const result = await world.call('writes-inside');
    assert.equal(result.isError, false, result.text);
    assert.equal(notices(world.stderr()), 0, world.stderr());
    assert.deepEqual(world.brokersInWorkspace(), []);
    const [record] = await world.records(1);
    assert.deepEqual(record?.sandbox, { sandboxed: false, reason: 'the sandbox is off (workspaceTools.sandbox, --sandbox)' });
  });
});

describe('a broker without the runtime\'s seccomp filter', () => {
  test('is no sandbox: the probe says unavailable, naming the missing filter (the runtime alone would run commands with the machine\'s Unix sockets in reach)', async () => {
    // The bundled broker, copied where dist/vendor/ is not beside it.
    const alone = mkdtempSync(path.join(tmpdir(), 'wt-broker-alone-'));
    const brokerPath = path.join(alone, 'sandbox-broker.mjs');
    copyFileSync(path.join(path.dirname(SERVER_PATH), 'sandbox-broker.mjs'), brokerPath);
    const silent = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const sandbox = createSandbox({ setting: 'preferred', user: userPlace({ approvalStorePath: path.join(alone, 'approvals.json') }), env: process.env, logger: silent, brokerPath });
    try {
      const status = await sandbox.ready(alone);
      assert.equal(status.state, 'unavailable', JSON.stringify(status));
      assert.match(status.state === 'unavailable' ? status.reason : '', /seccomp filter is missing \(seccomp not available - unix socket access not restricted\)/);
    } finally {
      sandbox.dispose();
      rmSync(alone, { recursive: true, force: true });
    }
  });
});
