/**
 * The official v2 client (`@modelcontextprotocol/client`, the SDK generation Claude Code uses)
 * against the server over real stdio, in each way it opens a connection: a 2025-11-25
 * `initialize`, `auto` negotiation (a `server/discover` probe first, as Claude Code does), and a
 * client pinned to 2026-07-28. The server speaks 2025-11-25 (SDK 1.x): the probe falls back to
 * it, and a pinned client is refused cleanly. Serving 2026-07-28 (issue 25, SDK v2) turns the
 * last test around.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import type { ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { SERVER_PATH, testServerEnv } from '../helpers/mcp-client';
import { LATE_PLUGIN } from './fixture-workspace';

let workspace: TempDir;
let configHome: string;

before(() => {
  workspace = makeTempDir('wt-v2client-');
  workspace.write('.vscode/tools/late.json', LATE_PLUGIN);
  configHome = mkdtempSync(path.join(tmpdir(), 'wt-v2client-config-'));
});

after(() => {
  workspace.cleanup();
  rmSync(configHome, { recursive: true, force: true });
});

/** A v2 client connected to a fresh server process, with these client options. */
async function connect(options: ClientOptions = {}): Promise<Client> {
  const client = new Client({ name: 'workspace-tools-tests-v2', version: '1.0.0' }, options);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_PATH, '--workspace', workspace.path, '--approve-existing', '--no-builtins', '--no-history'],
    env: testServerEnv(configHome),
    stderr: 'ignore',
  });
  await client.connect(transport);
  return client;
}

/** The JSON-RPC error code a request is answered with; fails if it succeeds. */
async function errorCodeOf(request: Promise<unknown>): Promise<number> {
  try {
    await request;
  } catch (error) {
    assert.ok(error instanceof ProtocolError, `not a JSON-RPC error: ${String(error)}`);
    return error.code;
  }
  assert.fail('answered without an error');
}

describe('the official v2 client over stdio', () => {
  for (const [label, options] of [
    ['initialize (2025-11-25)', {}],
    ['auto negotiation (a server/discover probe first, as Claude Code does)', { versionNegotiation: { mode: 'auto' } }],
  ] as const) {
    test(`${label}: connects on 2025-11-25 and lists, calls and refuses invalid params`, async () => {
      const client = await connect(options);
      try {
        assert.equal(client.getProtocolEra(), 'legacy');
        assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
        assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ['late-tool']);
        assert.deepEqual((await client.callTool({ name: 'late-tool', arguments: {} })).content, [{ type: 'text', text: 'late' }]);
        assert.equal(await errorCodeOf(client.request({ method: 'tools/call', params: { arguments: {} } })), -32602);
        assert.equal(await errorCodeOf(client.request({ method: 'logging/setLevel', params: { level: 'loud' } })), -32602);
      } finally {
        await client.close();
      }
    });
  }

  test('a client pinned to 2026-07-28 is refused cleanly (no server/discover yet); the next client is served', async () => {
    await assert.rejects(connect({ versionNegotiation: { mode: { pin: '2026-07-28' } } }), /did not offer pinned protocol version 2026-07-28 via server\/discover/);
    const client = await connect();
    try {
      assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ['late-tool']);
    } finally {
      await client.close();
    }
  });
});
