/**
 * The server reloads for changes that matter (plugin files, the approval store) and for nothing
 * else: not for its own log lines written beside a missing approval store, not for the history
 * records it writes itself, not for files written elsewhere in the workspace. Real server, real
 * files, the real SDK client over stdio.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { SERVER_PATH, connectServer, resultText, testServerEnv } from '../helpers/mcp-client';
import { LATE_PLUGIN } from './fixture-workspace';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((cleanup) => cleanup()));

function tempDir(prefix: string): TempDir {
  const dir = makeTempDir(prefix);
  cleanups.push(() => dir.cleanup());
  return dir;
}

/** How many loads the server logged (the first load and each reload log one line). */
function loadsIn(log: string): number {
  return log.match(/\[registry\] loaded /g)?.length ?? 0;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('reloads only for changes that matter', () => {
  test('stderr redirected into a file beside a missing approval store: one load, no loop; creating the store still reloads', async () => {
    const workspace = tempDir('wt-loop-ws-');
    workspace.write('.vscode/tools/late.json', LATE_PLUGIN);
    const state = tempDir('wt-loop-state-');
    const store = path.join(state.path, 'approvals.json');
    const logFile = path.join(state.path, 'server.log');
    const logFd = openSync(logFile, 'a');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER_PATH, '--workspace', workspace.path, '--approvals', store, '--no-builtins', '--no-history'],
      env: testServerEnv(state.path),
      stderr: logFd,
    });
    const client = new Client({ name: 'reload-loop-test', version: '1.0.0' });
    await client.connect(transport);
    closeSync(logFd);
    try {
      assert.deepEqual((await client.listTools()).tools, []);
      // The loop reloaded ~6 times a second; 2.5 s of quiet must stay at the first load.
      await sleep(2500);
      assert.equal(loadsIn(readFileSync(logFile, 'utf8')), 1, `reloaded with nothing changed:\n${readFileSync(logFile, 'utf8')}`);

      const file = path.join(workspace.path, '.vscode/tools/late.json');
      const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
      writeFileSync(store, JSON.stringify({ version: 1, approved: { [file]: hash } }));
      const deadline = Date.now() + 10_000;
      let names: string[] = [];
      while (Date.now() < deadline && names.length === 0) {
        await sleep(100);
        names = (await client.listTools()).tools.map((tool) => tool.name);
      }
      assert.deepEqual(names, ['late-tool'], 'the store, once created, is watched');
    } finally {
      await client.close();
    }
  });

  test('history records the server writes beside the missing default store do not reload it', async () => {
    const workspace = tempDir('wt-loop-hist-');
    workspace.write('.vscode/tools/late.json', LATE_PLUGIN);
    // XDG_CONFIG_HOME and XDG_STATE_HOME are the same directory here (testServerEnv): the
    // history file is written next to where the approval store would be.
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins']);
    try {
      for (let round = 0; round < 3; round += 1) {
        assert.equal(resultText(await server.client.callTool({ name: 'late-tool', arguments: {} })), 'late');
        await sleep(400);
      }
      assert.equal(loadsIn(server.stderr()), 1, `reloaded for its own history records:\n${server.stderr()}`);
      assert.equal(server.listChanged(), 0);
    } finally {
      await server.close();
    }
  });

  test('files written outside the plugin directories do not reload; the plugin directory, once created, does', async () => {
    const workspace = tempDir('wt-loop-out-');
    const server = await connectServer(['--workspace', workspace.path, '--approve-changes', '--no-builtins']);
    try {
      assert.deepEqual((await server.client.listTools()).tools, []);
      workspace.write('notes.txt', 'written by a build\n');
      workspace.write('.vscode/settings.json', '{}\n');
      await sleep(600);
      workspace.write('notes.txt', 'written again\n');
      await sleep(600);
      assert.equal(loadsIn(server.stderr()), 1, `reloaded for files outside .vscode/tools:\n${server.stderr()}`);
      const changed = server.nextListChanged();
      workspace.write('.vscode/tools/late.json', LATE_PLUGIN);
      await changed;
      assert.deepEqual((await server.client.listTools()).tools.map((tool) => tool.name), ['late-tool']);
    } finally {
      await server.close();
    }
  });
});
