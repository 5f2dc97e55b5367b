// Settings that reach a running server without a restart: the --settings file, watched.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parseLiveSettings, writeLiveSettings } from '../../../src/core/settings/live-settings';
import { makeGitRepo } from '../helpers/git-repo';
import { connectServer, resultText } from '../helpers/mcp-client';

describe('parseLiveSettings', () => {
  test('a good file, and what is wrong with a bad one (with its path)', () => {
    assert.deepEqual(parseLiveSettings('/s.json', '{"disabledTools":["a"],"timeoutMs":500}'), { disabledTools: ['a'], timeoutMs: 500 });
    assert.deepEqual(parseLiveSettings('/s.json', '{}'), {}, 'nothing set: the server keeps its own');
    assert.deepEqual(parseLiveSettings('/s.json', '{"nestedConcurrency":4}'), { nestedConcurrency: 4 });
    const problem = (text: string): string => {
      const parsed = parseLiveSettings('/s.json', text);
      return typeof parsed === 'string' ? parsed : 'no problem';
    };
    assert.match(problem('{"disabledTools":"a"}'), /^\/s\.json: "disabledTools" must be a list/);
    assert.match(problem('{"maxOutputBytes":-1}'), /"maxOutputBytes" must be a positive whole number/);
    assert.match(problem('{"nestedConcurrency":0}'), /"nestedConcurrency" must be a positive whole number/);
    assert.match(problem('{nope'), /^\/s\.json is not valid JSON/);
  });
});

describe('writeLiveSettings', () => {
  test('writes started together (the extension does not wait for one before the next) all succeed, leave a whole file and no temporary', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'wt-live-writes-'));
    try {
      const file = path.join(folder, 'nested', 'live.json');
      const written = Array.from({ length: 20 }, (_, index) => ({ disabledTools: [`tool-${index}`.repeat(index + 1)] }));
      await Promise.all(written.map((settings) => writeLiveSettings(file, settings)));
      const last = parseLiveSettings(file, readFileSync(file, 'utf8'));
      assert.ok(written.some((settings) => JSON.stringify(settings) === JSON.stringify(last)), `not one of the writes: ${JSON.stringify(last)}`);
      assert.deepEqual(readdirSync(path.dirname(file)), ['live.json']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('stdio server: --settings FILE is applied live', () => {
  test('switching a tool off and on changes tools/list with list_changed; limits apply to the next call; a broken file changes nothing', async () => {
    const workspace = makeGitRepo('wt-live-');
    workspace.commit('first', { 'a.txt': 'a\n' });
    const settings = path.join(workspace.path, 'live.json');
    await writeLiveSettings(settings, { disabledTools: [] });
    const server = await connectServer(['--workspace', workspace.path, '--no-plugins', '--settings', settings]);
    try {
      const names = async (): Promise<string[]> => (await server.client.listTools()).tools.map((tool) => tool.name);
      assert.ok((await names()).includes('git-log'));

      let changed = server.nextListChanged();
      await writeLiveSettings(settings, { disabledTools: ['git-log'] });
      await changed;
      assert.equal((await names()).includes('git-log'), false);
      assert.ok((await names()).includes('git-status'));

      writeFileSync(settings, '{ broken');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal((await names()).includes('git-log'), false, 'a broken file must keep the settings in force');
      assert.match(server.stderr(), /live\.json is not valid JSON.*ignored until it is fixed/);

      changed = server.nextListChanged();
      // A live limit applies to the next call. The output cap, not a 1 ms timeout: on a loaded
      // machine git can end before the event loop sees a 1 ms timer, and then it ran whole.
      await writeLiveSettings(settings, { disabledTools: [], maxOutputBytes: 10 });
      await changed;
      assert.ok((await names()).includes('git-log'));
      const capped = resultText(await server.client.callTool({ name: 'git-log', arguments: {} }));
      assert.match(capped, /most recent commit/);
      assert.doesNotMatch(capped, /first/, 'the 10-byte cap cuts the record before its subject');

      await writeLiveSettings(settings, { disabledTools: [] });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const log = await server.client.callTool({ name: 'git-log', arguments: {} });
      assert.match(resultText(log), /first/);
    } finally {
      await server.close();
      workspace.cleanup();
    }
  });
});
