/**
 * Code tools through the real stdio server: each refusal and failure of the issue triggered by a
 * real module in a real sandbox process, a tool calling another through callTool, cancellation
 * killing the sandbox, and a changed module waiting for approval again.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import type { ConnectedServer } from '../helpers/mcp-client';
import { connectServer, resultText } from '../helpers/mcp-client';
import { isAlive, waitForPid, waitGone } from '../helpers/processes';
import { makeCodeWorkspace } from './code-tools-fixture';

const ROOT = path.resolve(__dirname, '../../../..');
const TYPES = readFileSync(path.join(ROOT, 'types/workspace-tools.d.ts'), 'utf8');

let workspace: TempDir;
let config: TempDir;
let server: ConnectedServer;

const call = async (name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> => {
  const result = await server.client.callTool({ name, arguments: args });
  return { text: resultText(result), isError: result.isError === true };
};

before(async () => {
  workspace = makeCodeWorkspace(TYPES);
  config = makeTempDir('wt-code-xdg-');
  const approved = await runCli(['approve', '--workspace', workspace.path, '--yes', '--no-builtins'], { configHome: config.path });
  assert.equal(approved.code, 0, approved.stdout + approved.stderr);
  server = await connectServer(['--workspace', workspace.path, '--no-builtins'], { configHome: config.path });
});

after(async () => {
  await server.close();
  workspace.cleanup();
  config.cleanup();
});

describe('code tools: served once approved, running in a sandbox', () => {
  test('a TypeScript module runs without a build step; code tools are tagged network on this Node', async () => {
    const hello = await call('hello', { name: 'Ada' });
    assert.equal(hello.isError, false, hello.text);
    assert.equal(hello.text, 'hello Ada');
    const { tools } = await server.client.listTools();
    const listed = tools.find((tool) => tool.name === 'hello');
    assert.equal(listed?.annotations?.readOnlyHint ?? false, false, 'network access cannot be denied, so the tool is not read-only');
    assert.equal(tools.some((tool) => tool.name === 'enum'), false, 'a module whose types cannot be stripped does not load');
  });

  test('reading inside the workspace works; /etc/passwd and ~/.ssh are refused, naming the permission', async () => {
    assert.equal((await call('read-inside')).text, 'inside the workspace\n');
    const passwd = await call('read-passwd');
    assert.equal(passwd.isError, true);
    assert.match(passwd.text, /^Refused by the sandbox: reading \/etc\/passwd needs the FileSystemRead permission/);
    assert.match(passwd.text, /at default \(tools\/read-passwd\.mjs:2:22\)/);
    const ssh = await call('read-ssh');
    assert.equal(ssh.isError, true);
    assert.match(ssh.text, /reading \S*\.ssh\/id_rsa needs the FileSystemRead permission/);
  });

  test('writing needs the write tag, and then only inside the workspace folder', async () => {
    const inside = path.join(workspace.path, 'out.txt');
    const untagged = await call('write-untagged', { target: inside });
    assert.match(untagged.text, /Refused by the sandbox: writing \S*out\.txt needs the FileSystemWrite permission, which this tool does not have \(the tool is not tagged "write"\)/);
    assert.equal(existsSync(inside), false);
    assert.equal((await call('write-tagged', { target: inside })).isError, false);
    assert.equal(readFileSync(inside, 'utf8'), 'written');
    const outside = path.join(tmpdir(), `wt-code-outside-${process.pid}.txt`);
    const refused = await call('write-tagged', { target: outside });
    assert.match(refused.text, /FileSystemWrite permission.*allows writing only inside the workspace folder/);
    assert.equal(existsSync(outside), false);
  });

  test('child processes need the execute tag; worker threads and native addons are never allowed', async () => {
    assert.match((await call('spawn-untagged')).text, /starting a process needs the ChildProcess permission.*not tagged "execute"/);
    assert.equal((await call('spawn-tagged')).text, 'child ran');
    assert.match((await call('worker')).text, /starting a worker thread needs the WorkerThreads permission, which this tool does not have \(code tools never get worker threads\)/);
    assert.match((await call('addon')).text, /loading a native addon needs the Addons permission, which code tools never have/);
  });

  test('an endless loop is killed at the timeout, endless allocation at the heap cap; the server keeps serving', async () => {
    const loop = await call('loop');
    assert.equal(loop.isError, true);
    assert.match(loop.text, /^The code tool timed out after 1500 ms; its process tree was killed\./);
    const hog = await call('hog');
    assert.equal(hog.isError, true);
    assert.match(hog.text, /^The code tool ran out of memory: its JavaScript heap reached the cap of 64 MB/);
    assert.equal((await call('hello')).text, 'hello world');
  });

  test('a throw, a rejection or a value that is not a result is an error result with the message and the line', async () => {
    const thrown = await call('throws');
    assert.equal(thrown.isError, true);
    // Types are blanked, not removed: the line and column are the TypeScript source's.
    assert.match(thrown.text, /^The code tool's module threw Error: it broke\n {2}at default \(tools\/throws\.ts:3:9\)/);
    assert.match((await call('rejects')).text, /^The code tool's module threw RangeError: no such range/);
    assert.match((await call('returns-number')).text, /returned a number \(42\): return a string, or \{ text\?: string, structured\?: <JSON value>, content\?: <content parts> \}/);
    assert.match((await call('returns-map')).text, /structured\.when is a Map; "structured" must be a JSON value/);
  });

  test('a syntax error is a call error at file:line:col; a type-stripping error is a load error at file:line:col', async () => {
    const syntax = await call('syntax');
    assert.equal(syntax.isError, true);
    assert.match(syntax.text, /^tools\/syntax\.mjs:2:12: SyntaxError: Unexpected token ';'/);
    const check = await runCli(['check', '--workspace', workspace.path, '--no-builtins'], { configHome: config.path });
    assert.equal(check.code, 1);
    assert.match(check.stdout + check.stderr, /code\.json:\d+:\d+: tool "enum": tools\/enum\.ts:1:1: TypeScript enum is not supported in strip-only mode/);
  });

  test('a tool calls another served tool through callTool, with the same rules', async () => {
    const result = await call('caller');
    assert.equal(result.isError, false, result.text);
    assert.equal(result.text, 'inner: hello from caller | missing: true');
  });

  test('cancelling a call kills the sandbox process', async () => {
    const pidfile = path.join(workspace.path, 'sleeper.pid');
    const controller = new AbortController();
    const pending = server.client.callTool({ name: 'sleeper', arguments: { pidfile } }, undefined, { signal: controller.signal });
    const pid = await waitForPid(pidfile);
    assert.equal(isAlive(pid), true);
    controller.abort();
    await assert.rejects(pending);
    assert.equal(await waitGone(pid, 5000), true, `sandbox ${pid} still alive after cancellation`);
  });
});

describe('code tools: modules outside the workspace, and modules that change', () => {
  test('a module outside the workspace, or a symlink to one, is a load error', async () => {
    const other = makeTempDir('wt-code-other-');
    try {
      other.write('outside.mjs', 'export default () => "outside";\n');
      symlinkSync(path.join(other.path, 'outside.mjs'), path.join(workspace.path, 'tools/link.mjs'));
      const file = path.join(workspace.path, '.vscode/tools/outside.json');
      writeFileSync(file, JSON.stringify({ tools: [
        { name: 'up-and-out', description: 'd', handler: { type: 'code', module: '../outside.mjs' } },
        { name: 'via-link', description: 'd', handler: { type: 'code', module: 'tools/link.mjs' } },
      ] }));
      const check = await runCli(['check', '--workspace', workspace.path, '--no-builtins'], { configHome: config.path });
      const output = check.stdout + check.stderr;
      assert.match(output, /outside\.json:1:\d+: tool "up-and-out": the module "\.\.\/outside\.mjs" cannot be used: Path "\.\.\/outside\.mjs" is outside the workspace folder/);
      assert.match(output, /outside\.json:1:\d+: tool "via-link": the module "tools\/link\.mjs" cannot be used: Path "tools\/link\.mjs" leads \(through a symbolic link\) outside the workspace folder/);
    } finally {
      other.cleanup();
    }
  });

  test('a module changed after approval is seen by the server: its file waits for approval again', async () => {
    assert.equal((await call('hello')).text, 'hello world');
    workspace.write('tools/hello.ts', 'export default () => "changed behind the approval";\n');
    // Until the change is seen: the earlier test's plugin file may still send its own list_changed.
    const tools = await server.toolsWhen((served) => !served.some((tool) => tool.name === 'hello'));
    assert.equal(tools.some((tool) => tool.name === 'hello'), false);
    const refused = await call('hello');
    assert.equal(refused.isError, true);
    assert.match(refused.text, /waits for the user's approval/);
    const states = await runCli(['approve', '--list', '--workspace', workspace.path, '--no-builtins'], { configHome: config.path });
    assert.match(states.stdout, /changed.*code\.json/);
    // Approving the file approves the module as it is now.
    assert.equal((await runCli(['approve', '--workspace', workspace.path, '--yes', '--no-builtins'], { configHome: config.path })).code, 0);
    await server.toolsWhen((served) => served.some((tool) => tool.name === 'hello'));
    assert.equal((await call('hello')).text, 'changed behind the approval');
  });
});
