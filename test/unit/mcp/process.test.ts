import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { makeTempDir } from '../helpers/git-repo';
import { SERVER_PATH, testServerEnv } from '../helpers/mcp-client';

describe('stdio server process', () => {
  test('--help and --version print to stdout, so `| less` and `v=$(... --version)` work', () => {
    const result = spawnSync(process.execPath, [SERVER_PATH, '--help'], { encoding: 'utf8' });
    assert.equal(result.status, 0);
    assert.equal(result.stderr, '');
    assert.match(result.stdout, /--workspace DIR/);
    assert.match(result.stdout, /--no-builtins/);
    const approve = spawnSync(process.execPath, [SERVER_PATH, 'approve', '--help'], { encoding: 'utf8' });
    assert.match(approve.stdout, /approve/);
    const version = spawnSync(process.execPath, [SERVER_PATH, '--version'], { encoding: 'utf8' });
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  test('an unknown flag exits 2 with one line naming it and where help is, not the whole usage', () => {
    const result = spawnSync(process.execPath, [SERVER_PATH, '--frobnicate'], { encoding: 'utf8' });
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^workspace-tools-mcp: unknown option --frobnicate for "serve"\n/);
    assert.match(result.stderr, /Run "workspace-tools-mcp --help"/);
    assert.doesNotMatch(result.stderr, /Usage:/);
  });

  test('a mistyped command or option gets a suggestion, not Node\'s parseArgs text', () => {
    const command = spawnSync(process.execPath, [SERVER_PATH, 'aprove'], { encoding: 'utf8' });
    assert.equal(command.status, 2);
    assert.match(command.stderr, /unknown command "aprove"; did you mean approve\?/);
    assert.ok(command.stderr.split('\n').length <= 3, command.stderr);
    const option = spawnSync(process.execPath, [SERVER_PATH, 'list', '--jsn'], { encoding: 'utf8' });
    assert.equal(option.status, 2);
    assert.match(option.stderr, /unknown option --jsn for "list"; did you mean --json\?/);
    assert.match(option.stderr, /Run "workspace-tools-mcp list --help" for its options/);
    assert.doesNotMatch(option.stderr, /positional argument|ERR_PARSE_ARGS/);
    const value = spawnSync(process.execPath, [SERVER_PATH, 'list', '--workspace'], { encoding: 'utf8' });
    assert.match(value.stderr, /--workspace needs a value/);
  });

  test('on a Node below the floor (20), the server and init say which Node they need, not "Connection closed"', () => {
    const oldNode: string = process.env.WORKSPACE_TOOLS_OLD_NODE ?? '';
    assert.notEqual(oldNode, '', 'scripts/test-unit.mjs sets WORKSPACE_TOOLS_OLD_NODE to a Node 20');
    const parent = makeTempDir('wt-old-node-');
    try {
      for (const args of [[], ['init', '--claude']]) {
        const result = spawnSync(oldNode, [SERVER_PATH, ...args, '--workspace', parent.path], { encoding: 'utf8', timeout: 30_000 });
        assert.equal(result.status, 1, result.stderr);
        assert.equal(result.stdout, '', 'nothing a client could read as protocol');
        assert.match(result.stderr, /^workspace-tools-mcp needs Node\.js 22\.14\.0 or newer; it was started by Node v20\.\d+\.\d+ \(/);
        assert.match(result.stderr, /nvm install 22/);
      }
      assert.equal(existsSync(`${parent.path}/.mcp.json`), false, 'init wrote nothing');
    } finally {
      parent.cleanup();
    }
  });

  test('a --workspace that does not exist is refused by every command before anything runs', () => {
    const parent = makeTempDir('wt-missing-');
    try {
      const missing = `${parent.path}/no-such-folder`;
      for (const args of [['check'], ['list'], ['serve'], ['init', '--claude']]) {
        const result = spawnSync(process.execPath, [SERVER_PATH, ...args, '--workspace', missing], { encoding: 'utf8', timeout: 30_000 });
        assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, /the workspace folder .*no-such-folder does not exist/);
        assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      }
      assert.equal(existsSync(missing), false, 'init did not create the folder');
    } finally {
      parent.cleanup();
    }
  });

  test('stdout carries only JSON-RPC, malformed input does not stop it, and it exits when stdin closes', async () => {
    const workspace = makeTempDir('wt-proc-');
    try {
      const env = testServerEnv(workspace.path);
      const child = spawn(process.execPath, [SERVER_PATH, '--workspace', workspace.path, '--log-level', 'debug'], { stdio: ['pipe', 'pipe', 'pipe'], env });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
      });
      const send = (message: unknown): boolean => child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send('this is not json');
      send({ foo: 1 });
      send({ jsonrpc: '2.0', id: 2, method: 'no/such/method' });
      send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
      const deadline = Date.now() + 10_000;
      while (!stdout.includes('"id":3') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const exited = once(child, 'exit');
      child.stdin.end();
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0);
      const messages = stdout.trim().split('\n').map((line) => JSON.parse(line) as { id?: number | null; error?: { code: number }; result?: { tools?: unknown[] } });
      assert.ok(messages.every((message) => typeof message === 'object'));
      // JSON-RPC 2.0 section 5.1: what cannot be read is answered, with id null.
      const unreadable = messages.filter((message) => message.id === null).map((message) => message.error?.code);
      assert.deepEqual(unreadable, [-32700, -32600], 'a line that is not JSON gets -32700, JSON that is no message -32600');
      assert.equal(messages.find((message) => message.id === 2)?.error?.code, -32601);
      assert.ok((messages.find((message) => message.id === 3)?.result?.tools?.length ?? 0) >= 7);
    } finally {
      workspace.cleanup();
    }
  });
});
