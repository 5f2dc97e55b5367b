/**
 * A line over 10 MB from the client (issue 33, item 7): the SDK's stdio transport used to end the
 * connection, saying so only at debug level. Now the line is skipped as it streams in, a request
 * is answered with -32600 Invalid Request naming the size (its id found at either end of the
 * line, as the SDK's clients write it last), stderr gets one warning a line, and the connection
 * keeps serving. The real server over real stdio, written to by hand.
 */
import assert from 'node:assert/strict';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { MAX_LINE_BYTES } from '../../../src/mcp/line-limit';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { SERVER_PATH, testServerEnv } from '../helpers/mcp-client';

let workspace: TempDir;
let configHome: string;
before(() => {
  workspace = makeTempDir('wt-oversized-');
  configHome = mkdtempSync(path.join(tmpdir(), 'wt-oversized-config-'));
});
after(() => {
  workspace.cleanup();
  rmSync(configHome, { recursive: true, force: true });
});

type Message = { id?: number | string | null; result?: unknown; error?: { code: number; message: string } };

/** The server's answers as they arrive, and a way to wait for the one with an id. */
function answers(server: ChildProcessWithoutNullStreams): (id: number | string | null) => Promise<Message> {
  const seen: Message[] = [];
  const waiters: Array<() => void> = [];
  let rest = '';
  server.stdout.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    seen.push(...lines.filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Message));
    waiters.splice(0).forEach((wake) => wake());
  });
  return async (id) => {
    for (;;) {
      const found = seen.find((message) => message.id === id && ('result' in message || 'error' in message));
      if (found !== undefined) {
        return found;
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
}

test('a line over the limit is answered with an error and a warning, and the connection goes on', { timeout: 60_000 }, async () => {
  const server = spawn(process.execPath, [SERVER_PATH, '--workspace', workspace.path, '--no-history'], { env: testServerEnv(configHome) });
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const answer = answers(server);
  const send = (message: string): void => void server.stdin.write(`${message}\n`);
  try {
    send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    assert.ok('result' in (await answer(1)));
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

    const big = 'a'.repeat(MAX_LINE_BYTES + 1024);
    // The id first, and the id last (as the SDK's clients write a request).
    send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"file-reader","arguments":{"path":"${big}"}}}`);
    send(`{"method":"tools/call","params":{"name":"file-reader","arguments":{"path":"${big}"}},"jsonrpc":"2.0","id":"eight"}`);
    // A notification that large gets no answer, only the warning.
    send(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1,"message":"${big}"}}`);
    send(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'workspace-info', arguments: {} } }));

    for (const id of [7, 'eight']) {
      const refused = await answer(id);
      assert.equal(refused.error?.code, -32600, JSON.stringify(refused));
      assert.match(refused.error?.message ?? '', new RegExp(`^Invalid Request: the message is \\d+ bytes long, over the ${MAX_LINE_BYTES} bytes this server reads in one line; it was not read$`));
    }
    const served = await answer(9);
    assert.ok('result' in served, `the connection still serves: ${JSON.stringify(served)}`);
    assert.equal(server.exitCode, null);

    const warnings = stderr.split('\n').filter((line) => line.includes('skipped a message of'));
    assert.equal(warnings.length, 3, stderr);
    assert.match(warnings[0] ?? '', new RegExp(`\\[warn\\] \\[mcp\\] skipped a message of \\d+ bytes from the client, over the ${MAX_LINE_BYTES} bytes read in one line; answered request 7 with an error; the connection goes on`));
    assert.match(warnings[1] ?? '', /answered request "eight" with an error/);
    assert.doesNotMatch(warnings[2] ?? '', /answered/);
    assert.ok(stderr.length < 20_000, 'none of the skipped line is echoed');
  } finally {
    server.kill();
  }
});
