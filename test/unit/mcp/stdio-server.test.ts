import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TempGitRepo } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import type { ConnectedServer } from '../helpers/mcp-client';
import { connectServer, resultText } from '../helpers/mcp-client';
import { isAlive, waitForPid, waitGone } from '../helpers/processes';
import { LATE_PLUGIN, makeFixtureWorkspace } from './fixture-workspace';

const BUILTINS = ['git-status', 'git-diff-summary', 'git-log', 'workspace-info', 'file-reader', 'list-files', 'search-text'];

let http: Server;
let repo: TempGitRepo;
let server: ConnectedServer;

before(async () => {
  http = createServer((request, response) => {
    const code = Number(/\/status\/(\d+)/.exec(request.url ?? '')?.[1] ?? 500);
    response.writeHead(code, { 'content-type': 'text/plain' });
    response.end(`status ${code} for ${request.url}`);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  repo = makeFixtureWorkspace((http.address() as AddressInfo).port);
  // A CI-style run: the fixture's plugin file is present at start and approved for this run.
  // Outside the OS sandbox: these tests are about the handlers and the protocol ("sleepy" records
  // the pid this process can see); test/unit/sandbox proves the sandboxed calls, their cancellation too.
  server = await connectServer(['--workspace', repo.path, '--approve-existing', '--sandbox', 'off']);
});

after(async () => {
  await server.close();
  http.close();
  repo.cleanup();
});

describe('stdio server: tools/list', () => {
  test('lists the built-ins then the plugin tools, with annotations from tags', async () => {
    const { tools } = await server.client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      [...BUILTINS, 'echo-args', 'write-marker', 'sleepy', 'http-status', 'read-docs'],
    );
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    // Hints equal to the spec's defaults (readOnlyHint false, destructiveHint and openWorldHint
    // true) are left out; a client reads them back with those defaults.
    assert.deepEqual(byName.get('git-status')?.annotations, { title: byName.get('git-status')?.title, readOnlyHint: true, openWorldHint: false });
    assert.deepEqual(byName.get('write-marker')?.annotations, { openWorldHint: false });
    assert.equal(byName.get('http-status')?.annotations?.openWorldHint ?? true, true);
    assert.deepEqual(byName.get('read-docs')?.inputSchema.required, ['path']);
  });
});

describe('stdio server: built-in tools against a real repository', () => {
  test('git-status shows the modified and untracked files, not the ignored one', async () => {
    const text = resultText(await server.client.callTool({ name: 'git-status', arguments: {} }));
    assert.match(text, /src\/app\.ts/);
    assert.match(text, /notes\.txt/);
    assert.doesNotMatch(text, /ignored\.log/);
  });

  test('git-diff-summary, git-log, workspace-info, file-reader, list-files and search-text answer', async () => {
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await server.client.callTool({ name, arguments: args });
      assert.notEqual(result.isError, true, `${name} failed: ${resultText(result)}`);
      return resultText(result);
    };
    assert.match(await call('git-diff-summary'), /src\/app\.ts \| 2 \+-/);
    assert.match(await call('git-log'), /Initial commit/);
    assert.match(await call('workspace-info'), new RegExp(path.basename(repo.path)));
    assert.match(await call('file-reader', { path: 'docs/guide.md', startLine: 2, endLine: 2 }), /line two/);
    const files = await call('list-files');
    assert.match(files, /notes\.txt/);
    assert.doesNotMatch(files, /ignored\.log/);
    assert.match(await call('search-text', { query: 'answer = 43' }), /src\/app\.ts:1/);
  });

  test('a git tool pointed at a folder that is not a repository is an error result; the server keeps serving', async () => {
    const plain = makeTempDir('wt-plain-');
    const other = await connectServer(['--workspace', plain.path, '--no-plugins']);
    try {
      const result = await other.client.callTool({ name: 'git-status', arguments: {} });
      assert.equal(result.isError, true);
      assert.match(resultText(result), /not a git repository/);
      assert.equal((await other.client.listTools()).tools.length, BUILTINS.length);
    } finally {
      await other.close();
      plain.cleanup();
    }
  });
});

describe('stdio server: plugin tools of each handler type', () => {
  test('shell: hostile values reach the program as one literal argument each', async () => {
    for (const message of ['; rm -rf ~', '$(id)', '`id`', 'two\nlines', 'a && b | c']) {
      const result = await server.client.callTool({ name: 'echo-args', arguments: { message } });
      assert.notEqual(result.isError, true, resultText(result));
      assert.deepEqual(JSON.parse(resultText(result)), [message]);
    }
  });

  test('http: the local server answers; a non-2xx status is an error result', async () => {
    const ok = await server.client.callTool({ name: 'http-status', arguments: { code: '200' } });
    assert.notEqual(ok.isError, true);
    assert.match(resultText(ok), /status 200 for \/status\/200/);
    const missing = await server.client.callTool({ name: 'http-status', arguments: { code: '404' } });
    assert.equal(missing.isError, true);
    assert.match(resultText(missing), /404/);
  });

  test('file-read: reads inside its base path and refuses an escape', async () => {
    const ok = await server.client.callTool({ name: 'read-docs', arguments: { path: 'guide.md' } });
    assert.match(resultText(ok), /line three/);
    const escape = await server.client.callTool({ name: 'read-docs', arguments: { path: '../src/app.ts' } });
    assert.equal(escape.isError, true);
    assert.doesNotMatch(resultText(escape), /answer/);
  });

  test('input that does not match the schema is an error listing what is wrong; nothing runs', async () => {
    const target = path.join(repo.path, 'marker.txt');
    const result = await server.client.callTool({ name: 'write-marker', arguments: { target, count: 'three' } });
    assert.equal(result.isError, true);
    assert.match(resultText(result), /"count": must be integer/);
    assert.equal(existsSync(target), false);
  });

  test('an unknown tool is a JSON-RPC error and the server keeps serving', async () => {
    await assert.rejects(server.client.callTool({ name: 'no-such-tool', arguments: {} }), /Unknown tool: no-such-tool\. Available tools: git-status, git-diff-summary, .*, read-docs\./);
    assert.ok((await server.client.listTools()).tools.length > 0);
  });

  test('cancelling a call kills its child process', async () => {
    const pidfile = path.join(repo.path, 'sleepy.pid');
    const controller = new AbortController();
    const call = server.client.callTool({ name: 'sleepy', arguments: { pidfile } }, undefined, { signal: controller.signal });
    const pid = await waitForPid(pidfile);
    assert.equal(isAlive(pid), true);
    controller.abort();
    await assert.rejects(call);
    assert.equal(await waitGone(pid, 5000), true, `process ${pid} still alive after cancellation`);
  });
});

describe('stdio server: plugin files change while it runs', () => {
  test('a new file sends list_changed and waits for approval under --approve-existing', async () => {
    const changed = server.nextListChanged();
    repo.write('.vscode/tools/late.json', LATE_PLUGIN);
    await changed;
    const names = (await server.client.listTools()).tools.map((tool) => tool.name);
    assert.equal(names.includes('late-tool'), false);
    const refused = await server.client.callTool({ name: 'late-tool', arguments: {} });
    assert.equal(refused.isError, true);
    assert.match(resultText(refused), /waits for the user's approval/);
  });
});
