import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { makeTempDir } from '../helpers/git-repo';
import { SERVER_PATH, testServerEnv } from '../helpers/mcp-client';

describe('stdio server process', () => {
  test('--help prints the usage to stderr and nothing to stdout', () => {
    const result = spawnSync(process.execPath, [SERVER_PATH, '--help'], { encoding: 'utf8' });
    assert.equal(result.status, 0);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /--workspace DIR/);
    assert.match(result.stderr, /--no-builtins/);
  });

  test('an unknown flag exits 2 with the reason and the usage', () => {
    const result = spawnSync(process.execPath, [SERVER_PATH, '--frobnicate'], { encoding: 'utf8' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /frobnicate/);
    assert.match(result.stderr, /Usage:/);
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
      const messages = stdout.trim().split('\n').map((line) => JSON.parse(line) as { id?: number; error?: { code: number }; result?: { tools?: unknown[] } });
      assert.ok(messages.every((message) => typeof message === 'object'));
      assert.equal(messages.find((message) => message.id === 2)?.error?.code, -32601);
      assert.ok((messages.find((message) => message.id === 3)?.result?.tools?.length ?? 0) >= 7);
    } finally {
      workspace.cleanup();
    }
  });
});
