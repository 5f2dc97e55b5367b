/**
 * Issue 34's table, row by row, with plugin shell tools through the real server over stdio and
 * real processes in a private home: a `read` tool writes nowhere but its temporary folder, reads
 * no credential and reaches no loopback server; a `write` tool writes inside the workspace only;
 * a `network` tool reaches the loopback server; a refusal names what was refused and the tag that
 * allows it; the history records the policy each call ran under; no broker outlives the server.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { FETCH, LOOPBACK_ANSWER, NETRC, SSH_KEY, SandboxWorld, childrenOf, eventually, needsSandbox, orphanedBridges, pluginFile, worldForFile, processesRunning, scriptTool } from './sandbox-world';

const READ_SECRETS = 'cat "$HOME/.ssh/id_ed25519"; cat "$HOME/.netrc"; ls -a "$HOME/.ssh"; exit 1';

const TOOLS = [
  scriptTool('read-writes-inside', ['read'], 'echo x > inside.txt'),
  scriptTool('read-writes-to', ['read'], 'echo x > "$1"', ['target']),
  scriptTool('read-secrets', ['read'], READ_SECRETS),
  { name: 'read-fetch', description: 'fetches', tags: ['read'], inputSchema: { type: 'object', properties: { url: { type: 'string' } } }, handler: { type: 'shell', command: ['node', '-e', FETCH, '{{url}}'] } },
  scriptTool('read-temp-and-git', ['read'], 'echo t > "$TMPDIR/t" && cat "$TMPDIR/t" && echo "tmp=$TMPDIR" && git log -1 --format=%s && cat notes.txt'),
  scriptTool('write-builds', ['execute', 'write'], 'mkdir -p dist && echo built > dist/out.js && git commit -q --allow-empty -m "from a write tool" && echo done'),
  scriptTool('write-writes-to', ['execute', 'write'], 'echo x > "$1"', ['target']),
  scriptTool('write-hook', ['execute', 'write'], 'echo "#!/bin/sh" > .git/hooks/pre-commit'),
  scriptTool('write-secrets', ['execute', 'write'], READ_SECRETS),
  { name: 'network-fetch', description: 'fetches', tags: ['network'], inputSchema: { type: 'object', properties: { url: { type: 'string' } } }, handler: { type: 'shell', command: ['node', '-e', FETCH, '{{url}}'] } },
  scriptTool('sleeps', ['read'], 'sleep 30', [], { handler: { type: 'shell', script: 'sleep 30', timeout: 1000 } }),
  { name: 'waits', description: 'waits', tags: ['read'], handler: { type: 'shell', command: ['sleep', '987654'] } },
  {
    name: 'steps-read',
    description: 'a read-only steps tool whose second step writes',
    tags: ['read'],
    steps: [
      { name: 'log', handler: { type: 'shell', command: ['git', 'log', '-1', '--format=%s'] } },
      { name: 'write', handler: { type: 'shell', script: 'echo x > from-a-step.txt' } },
    ],
  },
];

/** The world, once the machine is known to sandbox (the test is skipped or failed otherwise). */
const started = worldForFile(() => ({ files: { '.vscode/tools/sandboxed.json': pluginFile(TOOLS), 'notes.txt': 'the notes\n' } }));

describe('a plugin shell tool tagged read', () => {
  test('cannot write inside the workspace: the error names the file and the tag "write"', async () => {
    await needsSandbox();
    const result = await started().call('read-writes-inside');
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /Read-only file system/);
    assert.match(result.text, /Refused by the OS sandbox:\n- writing "inside\.txt": the tool may write only its private temporary folder \(\$TMPDIR\); tag it "write"/);
    assert.equal(existsSync(path.join(started().workspace.path, 'inside.txt')), false);
  });

  test('cannot write outside the workspace, nor in the home', async () => {
    await needsSandbox();
    const w = started();
    for (const target of [path.join(w.outside.path, 'out.txt'), path.join(w.home.path, 'evil')]) {
      const result = await w.call('read-writes-to', { target });
      assert.equal(result.isError, true, result.text);
      assert.match(result.text, /it is outside the workspace folder, where no tag lets a tool write/);
      assert.equal(existsSync(target), false, target);
    }
  });

  test('cannot read ~/.ssh or ~/.netrc: they read as missing or denied, and the error says they are hidden', async () => {
    await needsSandbox();
    const result = await started().call('read-secrets');
    assert.equal(result.isError, true);
    assert.doesNotMatch(result.text, new RegExp(`${SSH_KEY}|FAKE-NETRC`));
    assert.match(result.text, /id_ed25519: No such file or directory/);
    assert.match(result.text, /\.netrc: Permission denied/);
    assert.match(result.text, /- reading "~\/\.ssh\/id_ed25519": "~\/\.ssh" is hidden from every tool/);
    assert.match(result.text, /- reading "~\/\.netrc": "~\/\.netrc" is hidden from every tool/);
  });

  test('cannot reach a loopback HTTP server: the error names the tag "network"', async () => {
    await needsSandbox();
    const w = started();
    const before = w.hits;
    const result = await w.call('read-fetch', { url: w.url });
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /ECONNREFUSED/);
    assert.match(result.text, /- a network connection: the tool has no network \(loopback included\); tag it "network"/);
    assert.equal(w.hits, before, 'the loopback server got no request');
  });

  test('writes its private temporary folder (gone after the call) and reads the workspace (git log)', async () => {
    await needsSandbox();
    const result = await started().call('read-temp-and-git');
    assert.equal(result.isError, false, result.text);
    const temp = /tmp=(\S+)/.exec(result.text)?.[1] ?? '';
    assert.match(path.basename(temp), /^wt-call-/);
    assert.match(result.text.trim(), /^t\ntmp=\S+\nthe first commit\nthe notes$/);
    assert.equal(existsSync(temp), false, 'the temporary folder is removed after the call');
  });

  test('a timeout kills the sandboxed process tree', async () => {
    await needsSandbox();
    const started_ = Date.now();
    const result = await started().call('sleeps');
    assert.equal(result.isError, true);
    assert.match(result.text, /timed out after 1000 ms/);
    assert.ok(Date.now() - started_ < 10_000);
  });

  test('cancelling a call kills its sandboxed process; the next call runs', async () => {
    await needsSandbox();
    const w = started();
    const controller = new AbortController();
    const call = w.call('waits', {}, controller.signal);
    assert.ok(await eventually(() => processesRunning(['sleep', '987654']).length > 0, 10_000), 'the sandboxed sleep started');
    controller.abort();
    await assert.rejects(call);
    assert.ok(await eventually(() => processesRunning(['sleep', '987654']).length === 0, 5_000), 'the sandboxed sleep was killed');
    assert.equal((await w.call('read-temp-and-git')).isError, false);
  });
});

describe('a steps tool', () => {
  test('its shell steps run in the sandbox of the steps tool\'s tags: a read-only one reads, and cannot write', async () => {
    await needsSandbox();
    const w = started();
    const result = await w.call('steps-read');
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /the first commit/);
    assert.match(result.text, /- writing "from-a-step\.txt": the tool may write only its private temporary folder/);
    assert.equal(existsSync(path.join(w.workspace.path, 'from-a-step.txt')), false);
  });
});

describe('a plugin shell tool tagged write', () => {
  test('writes inside the workspace (dist/, a git commit), and leaves no placeholder file behind', async () => {
    await needsSandbox();
    const w = started();
    const result = await w.call('write-builds');
    assert.equal(result.isError, false, result.text);
    assert.equal(readFileSync(path.join(w.workspace.path, 'dist', 'out.js'), 'utf8'), 'built\n');
    // The runtime pins .bashrc, .vscode, .gitconfig, ... with placeholders while a write call runs.
    assert.deepEqual(readdirSync(w.workspace.path).sort(), ['.git', '.vscode', 'dist', 'notes.txt']);
  });

  test('cannot write outside the workspace, nor in the home', async () => {
    await needsSandbox();
    const w = started();
    for (const target of [path.join(w.outside.path, 'out.txt'), path.join(w.home.path, 'evil')]) {
      const result = await w.call('write-writes-to', { target });
      assert.equal(result.isError, true, result.text);
      assert.match(result.text, /it is outside the workspace folder/);
      assert.equal(existsSync(target), false, target);
    }
  });

  test('cannot write .git/hooks: protected in every sandbox', async () => {
    await needsSandbox();
    const result = await started().call('write-hook');
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /- writing "\.git\/hooks\/pre-commit": it is protected in every sandbox/);
    assert.equal(existsSync(path.join(started().workspace.path, '.git', 'hooks', 'pre-commit')), false);
  });

  test('still cannot read ~/.ssh or ~/.netrc', async () => {
    await needsSandbox();
    const result = await started().call('write-secrets');
    assert.equal(result.isError, true);
    assert.doesNotMatch(result.text, new RegExp(`${SSH_KEY}|FAKE-NETRC|${NETRC}`));
  });
});

describe('a plugin shell tool tagged network', () => {
  test('reaches the loopback HTTP server', async () => {
    await needsSandbox();
    const w = started();
    const before = w.hits;
    const result = await w.call('network-fetch', { url: w.url });
    assert.equal(result.isError, false, result.text);
    assert.equal(result.text.trim(), `GOT ${LOOPBACK_ANSWER}`);
    assert.equal(w.hits, before + 1);
  });
});

describe('what the history and the processes show', () => {
  test('each call is recorded as sandboxed, with the policy its tags gave', async () => {
    await needsSandbox();
    const w = started();
    const since = Date.now();
    await w.call('read-writes-inside');
    await w.call('network-fetch', { url: w.url });
    const records = await w.recordsOf(['read-writes-inside', 'network-fetch'], since);
    const policyOf = (tool: string): readonly string[] | string => {
      const sandbox = records.filter((record) => record.tool === tool).at(-1)?.sandbox;
      return sandbox === undefined ? 'no record' : sandbox.sandboxed ? sandbox.policy.slice(0, 2) : sandbox.reason;
    };
    assert.deepEqual(policyOf('read-writes-inside'), ['writes: only its private temporary folder', 'network: none (loopback included)']);
    assert.deepEqual(policyOf('network-fetch'), ['writes: only its private temporary folder', 'network: open']);
    const hidden = records.find((record) => record.tool === 'network-fetch')?.sandbox;
    assert.ok(hidden?.sandboxed === true && hidden.policy.some((line) => line.startsWith('hidden: ~/.ssh, ~/.aws')), JSON.stringify(hidden));
  });

  test('the brokers (one per kind of network) and the runtime\'s bridges under them end with the server', async () => {
    await needsSandbox();
    const w = started();
    const brokers = w.brokersInWorkspace();
    assert.equal(brokers.length, 2, 'a restricted and an open broker for the folder');
    const bridges = childrenOf(brokers).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('socat'));
    assert.ok(bridges.length >= 1, 'the runtime\'s host socat bridges run under the brokers');
    await w.close();
    assert.ok(await eventually(() => w.brokersInWorkspace().length === 0, 5_000), 'the brokers are gone');
    const gone = (pid: number): boolean => !existsSync(`/proc/${pid}/stat`) || / Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    assert.ok(await eventually(() => bridges.every(gone), 5_000), 'their bridges are gone');
  });

  test('a server closed while its brokers are still starting leaves no bridge behind', async () => {
    await needsSandbox();
    const before = new Set(orphanedBridges());
    for (let round = 0; round < 3; round++) {
      const quick = await SandboxWorld.start({ files: { '.vscode/tools/sandboxed.json': pluginFile(TOOLS) } });
      // tools/list answered: the first load is done and its brokers are starting, right now.
      await quick.toolNames();
      await quick.close();
      quick.dispose();
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.deepEqual(orphanedBridges().filter((pid) => !before.has(pid)), []);
  });
});
