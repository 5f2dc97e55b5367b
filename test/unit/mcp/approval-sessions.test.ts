// Approval across sessions and doors, as Claude Code uses the server: a new server per session,
// every door reading one per-user store. Real processes, a temp XDG_CONFIG_HOME.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { runCli } from '../helpers/cli';
import { SERVER_PATH, connectServer, resultText, testServerEnv } from '../helpers/mcp-client';

const storeOf = (configHome: string): string => path.join(configHome, 'workspace-tools', 'approvals.json');

/** A plugin file with one read-only shell tool that prints `output`. */
function plugin(name: string, output: string): string {
  return JSON.stringify({
    tools: [{ name, description: `prints ${output}`, tags: ['read'], handler: { type: 'shell', command: ['node', '-e', `process.stdout.write(${JSON.stringify(output)})`] } }],
  });
}

let config: TempDir;
let workspace: TempDir;

beforeEach(() => {
  config = makeTempDir('wt-xdg-');
  workspace = makeTempDir('wt-session-');
});

afterEach(() => {
  workspace.cleanup();
  config.cleanup();
});

async function servedNames(): Promise<{ names: string[]; stderr: string; called: string; calledIsError: boolean }> {
  const server = await connectServer(['--workspace', workspace.path, '--no-builtins'], { configHome: config.path });
  try {
    const names = (await server.client.listTools()).tools.map((tool) => tool.name);
    const result = await server.client.callTool({ name: 'evil', arguments: {} }).catch((error: unknown) => ({ isError: true, content: [{ type: 'text', text: String(error) }] }));
    // The notices are printed right after the first load, which the list waited for.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { names, stderr: server.stderr(), called: resultText(result), calledIsError: result.isError === true };
  } finally {
    await server.close();
  }
}

describe('approval across sessions (the standalone server)', () => {
  test('a file written during a session is not served in the next one; stderr names it and the approve command', async () => {
    const first = await connectServer(['--workspace', workspace.path, '--no-builtins'], { configHome: config.path });
    const changed = first.nextListChanged();
    workspace.write('.vscode/tools/evil.json', plugin('evil', 'pwned'));
    await changed;
    assert.deepEqual((await first.client.listTools()).tools, []);
    await first.close();

    const second = await servedNames();
    assert.deepEqual(second.names, []);
    assert.equal(second.calledIsError, true);
    assert.doesNotMatch(second.called, /pwned/);
    const file = path.join(workspace.path, '.vscode/tools/evil.json');
    assert.match(second.stderr, new RegExp(`${escape(file)} is new and waits for approval; its tool evil is not served`));
    assert.match(second.stderr, new RegExp(`approve --workspace "?${escape(workspace.path)}"? ${escape(file)}`));
  });

  test('approved from the terminal, a file is served by every later session until its content changes', async () => {
    workspace.write('.vscode/tools/evil.json', plugin('evil', 'first'));
    const approved = await runCli(['approve', '--workspace', workspace.path, '--yes'], { configHome: config.path });
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /Approved: /);
    const served = await servedNames();
    assert.deepEqual(served.names, ['evil']);
    assert.equal(served.called, 'first');

    workspace.write('.vscode/tools/evil.json', plugin('evil', 'second'));
    const after = await servedNames();
    assert.deepEqual(after.names, []);
    assert.doesNotMatch(after.called, /second/);
    assert.match(after.stderr, /changed since it was approved and waits for approval/);
    const states = await runCli(['approve', '--list', '--workspace', workspace.path], { configHome: config.path });
    assert.match(states.stdout, /changed since approval {2}.*evil\.json \(1 tool\)/);
  });

  test('a tool call does not read the store: it is read at load and when it changes', async () => {
    workspace.write('.vscode/tools/evil.json', plugin('evil', 'cached'));
    assert.equal((await runCli(['approve', '--workspace', workspace.path, '--yes'], { configHome: config.path })).code, 0);
    const server = await connectServer(['--workspace', workspace.path, '--no-builtins', '--no-watch'], { configHome: config.path });
    try {
      assert.deepEqual((await server.client.listTools()).tools.map((tool) => tool.name), ['evil']);
      writeFileSync(storeOf(config.path), 'not json any more');
      assert.equal(resultText(await server.client.callTool({ name: 'evil', arguments: {} })), 'cached');
    } finally {
      await server.close();
    }
  });

  test('--approve-existing: files present at start are served for that run only; a later file waits', async () => {
    workspace.write('.vscode/tools/a.json', plugin('evil', 'present'));
    const server = await connectServer(['--workspace', workspace.path, '--no-builtins', '--approve-existing'], { configHome: config.path });
    try {
      assert.deepEqual((await server.client.listTools()).tools.map((tool) => tool.name), ['evil']);
      const changed = server.nextListChanged();
      workspace.write('.vscode/tools/b.json', plugin('later', 'later'));
      await changed;
      assert.deepEqual((await server.client.listTools()).tools.map((tool) => tool.name), ['evil']);
    } finally {
      await server.close();
    }
    assert.equal(existsSync(storeOf(config.path)), false, '--approve-existing wrote approvals');
    assert.deepEqual((await servedNames()).names, []);
  });
});

test('--approve-existing: a file written after the process started, before initialize, is not "present at start"', async () => {
  workspace.write('.vscode/tools/a.json', plugin('evil', 'present'));
  const child = spawn(process.execPath, [SERVER_PATH, '--workspace', workspace.path, '--no-builtins', '--approve-existing'], {
    env: testServerEnv(config.path),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  try {
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const until = async (done: () => boolean): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (!done() && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await until(() => stderr.includes('[registry] loaded'));
    workspace.write('.vscode/tools/b.json', plugin('late', 'late'));
    const send = (message: unknown): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await new Promise((resolve) => setTimeout(resolve, 500)); // the watcher's reload
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await until(() => stdout.includes('"id":2'));
    const answer = stdout.split('\n').map((line) => (line === '' ? {} : (JSON.parse(line) as { id?: number; result?: { tools: Array<{ name: string }> } }))).find((message) => message.id === 2);
    assert.deepEqual(answer?.result?.tools.map((tool) => tool.name), ['evil']);
  } finally {
    child.kill();
  }
});

describe('approval is keyed by real path and content', () => {
  test('a symlinked plugin file is approved as the file it points to; other content or another path is not', async () => {
    const shared = makeTempDir('wt-shared-');
    const other = makeTempDir('wt-other-');
    try {
      shared.write('tools.json', plugin('evil', 'shared'));
      workspace.write('.vscode/tools/.keep', '');
      symlinkSync(path.join(shared.path, 'tools.json'), path.join(workspace.path, '.vscode/tools/link.json'));
      const approved = await runCli(['approve', '--workspace', workspace.path, '.vscode/tools/link.json', '--yes'], { configHome: config.path, cwd: workspace.path });
      assert.equal(approved.code, 0, approved.stderr);
      const store = JSON.parse(readFileSync(storeOf(config.path), 'utf8')) as { approved: Record<string, string> };
      assert.deepEqual(Object.keys(store.approved), [path.join(shared.path, 'tools.json')]);
      assert.deepEqual((await servedNames()).names, ['evil']);

      // The same bytes at another real path are not approved.
      other.write('.vscode/tools/copy.json', plugin('evil', 'shared'));
      const copy = await connectServer(['--workspace', other.path, '--no-builtins'], { configHome: config.path });
      assert.deepEqual((await copy.client.listTools()).tools, []);
      await copy.close();

      // Other content behind the same link is not approved.
      writeFileSync(path.join(shared.path, 'tools.json'), plugin('evil', 'changed'));
      assert.deepEqual((await servedNames()).names, []);
    } finally {
      shared.cleanup();
      other.cleanup();
    }
  });

  test('a symlinked .vscode/tools directory: approval lands on the real file', async () => {
    const shared = makeTempDir('wt-shared-dir-');
    try {
      shared.write('tools/t.json', plugin('evil', 'dir'));
      workspace.write('.vscode/.keep', '');
      symlinkSync(path.join(shared.path, 'tools'), path.join(workspace.path, '.vscode/tools'));
      assert.equal((await runCli(['approve', '--workspace', workspace.path, '--yes'], { configHome: config.path })).code, 0);
      const store = JSON.parse(readFileSync(storeOf(config.path), 'utf8')) as { approved: Record<string, string> };
      assert.deepEqual(Object.keys(store.approved), [path.join(shared.path, 'tools/t.json')]);
      assert.equal((await servedNames()).called, 'dir');
    } finally {
      shared.cleanup();
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
