// The call history over real processes: a call through the MCP server is recorded (input
// secrets redacted, the expanded command, exit code), `history` prints it, the records of the last
// answers land when the server is stopped right after them, and a history that cannot be written
// never fails a call.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { CallRecord } from '../../../src/core/history/call-record';
import { runCli } from '../helpers/cli';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { connectServer, resultText } from '../helpers/mcp-client';

const PLUGIN = JSON.stringify({
  tools: [
    {
      name: 'greet',
      description: 'Greets someone',
      tags: ['read'],
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, apiToken: { type: 'string' }, options: { type: 'object' } },
        required: ['name'],
      },
      handler: { type: 'shell', command: ['node', '-e', 'process.stdout.write("hello " + process.argv[1])', '{{name}}'] },
    },
  ],
});

let workspace: TempDir;
let state: TempDir;

beforeEach(() => {
  workspace = makeTempDir('wt-history-');
  state = makeTempDir('wt-history-state-');
  workspace.write('.vscode/tools/greet.json', PLUGIN);
});

afterEach(() => {
  workspace.cleanup();
  state.cleanup();
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForRecords(file: string, count: number): Promise<CallRecord[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const records = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as CallRecord) : [];
    if (records.length >= count || Date.now() > deadline) {
      return records;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('call history', () => {
  test('a call through the MCP server is recorded, with secrets redacted and the command that ran', async () => {
    const file = path.join(state.path, 'history.jsonl');
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins', '--history', file]);
    try {
      const result = await server.client.callTool({
        name: 'greet',
        arguments: { name: 'Ada', apiToken: 'tok-123456', options: { password: 'hunter2', depth: 1 } },
      });
      assert.equal(resultText(result), 'hello Ada');
      const [record] = await waitForRecords(file, 1);
      assert.ok(record !== undefined, 'no record was written');
      assert.equal(record.door, 'mcp');
      assert.equal(record.tool, 'greet');
      assert.deepEqual(record.input, { name: 'Ada', apiToken: '***', options: { password: '***', depth: 1 } });
      assert.match(record.ran ?? '', /^node -e .* Ada$/);
      assert.equal(record.exitCode, 0);
      assert.equal(record.isError, false);
      assert.equal(record.output, 'hello Ada');
      assert.equal(record.outputBytes, 9);
      assert.equal(typeof record.durationMs, 'number');
      assert.equal(record.workspace, workspace.path);
      // How the program ran (issue 34): in the OS sandbox, under the policy its `read` tag gives.
      assert.deepEqual(record.sandbox?.sandboxed === true ? record.sandbox.policy.slice(0, 2) : record.sandbox, ['writes: only its private temporary folder', 'network: none (loopback included)']);
      assert.doesNotMatch(readFileSync(file, 'utf8'), /tok-123456|hunter2/);
    } finally {
      await server.close();
    }

    const cli = await runCli(['call', 'greet', '{"name":"Bob"}', '--workspace', workspace.path, '--approve-existing', '--history', file], { configHome: state.path });
    assert.equal(cli.code, 0, cli.stderr);
    const printed = await runCli(['history', '--history', file, '--limit', '5'], { configHome: state.path });
    assert.equal(printed.code, 0, printed.stderr);
    const [newest, older] = printed.stdout.split(/\n(?=\d{4}-)/);
    assert.match(newest ?? '', /cli\s+greet {2}exit 0 .*\n {4}ran: {3}node -e .* Bob\n {4}sandboxed: writes: only its private temporary folder; network: none \(loopback included\)\n {4}input: \{"name":"Bob"\}/);
    assert.match(older ?? '', /mcp\s+greet/);
    const json = await runCli(['history', '--history', file, '--json', '--limit', '1'], { configHome: state.path });
    const records = JSON.parse(json.stdout) as CallRecord[];
    assert.deepEqual(records.map((one) => [one.door, one.input]), [['cli', { name: 'Bob' }]]);
  });

  test('records are written after the answers and still land when SIGTERM arrives right after the last answer', async () => {
    const file = path.join(state.path, 'history.jsonl');
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--history', file]);
    const pid = server.pid();
    assert.ok(pid !== null);
    try {
      for (let index = 0; index < 5; index++) {
        const result = await server.client.callTool({ name: 'file-reader', arguments: { path: '.vscode/tools/greet.json', startLine: 1, endLine: 1 + index } });
        assert.notEqual(result.isError, true, resultText(result));
      }
      // The last records wait for their batch (50 ms after the answer) when the signal arrives.
      process.kill(pid, 'SIGTERM');
      const deadline = Date.now() + 10_000;
      while (isRunning(pid) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(isRunning(pid), false, 'the server did not exit on SIGTERM');
      const records = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as CallRecord) : [];
      assert.deepEqual(records.map((record) => [record.tool, record.input]), Array.from({ length: 5 }, (_, index) => ['file-reader', { path: '.vscode/tools/greet.json', startLine: 1, endLine: 1 + index }]));
    } finally {
      await server.close();
    }
  });

  test('a history file that cannot be written: the call succeeds and the log says so once', async () => {
    const blocker = path.join(state.path, 'not-a-directory');
    writeFileSync(blocker, 'a file where a directory should be');
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins', '--history', path.join(blocker, 'history.jsonl')]);
    try {
      for (const name of ['A', 'B']) {
        const result = await server.client.callTool({ name: 'greet', arguments: { name } });
        assert.equal(resultText(result), `hello ${name}`);
        assert.notEqual(result.isError, true);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      const warnings = server.stderr().match(/cannot write the call history/g) ?? [];
      assert.equal(warnings.length, 1, server.stderr());
    } finally {
      await server.close();
    }
  });

  test('--no-history records nothing; the default file is in XDG_STATE_HOME', async () => {
    const cli = await runCli(['call', 'greet', '{"name":"C"}', '--workspace', workspace.path, '--approve-existing'], { configHome: state.path });
    assert.equal(cli.code, 0, cli.stderr);
    const defaultFile = path.join(state.path, 'workspace-tools', 'history.jsonl');
    assert.equal((await waitForRecords(defaultFile, 1)).length, 1);
    const off = await runCli(['call', 'greet', '{"name":"D"}', '--workspace', workspace.path, '--approve-existing', '--no-history'], { configHome: state.path });
    assert.equal(off.code, 0, off.stderr);
    assert.equal((await waitForRecords(defaultFile, 2)).length, 1);
  });
});
