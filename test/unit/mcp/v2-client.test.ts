/**
 * The official v2 client (`@modelcontextprotocol/client`, the SDK generation Claude Code uses)
 * against the server over real stdio, in each way it opens a connection: a 2025-11-25
 * `initialize`, `auto` negotiation (a `server/discover` probe first, as Claude Code does with
 * MCP_PROTOCOL_NEGOTIATION=auto), and a client pinned to 2026-07-28. Both revisions get the same
 * tools, calls with progress, large outputs as resources, and -32602 for invalid params; on
 * 2026-07-28 results carry `resultType`, list results `ttlMs`/`cacheScope`, and the list's order
 * is the same on every ask.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { Client, ClientOptions } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { connectV2Client } from '../helpers/mcp-client-v2';
import { LATE_PLUGIN } from './fixture-workspace';

/** Prints a line every 100 ms for a second (progress), then a line. */
const CHATTY_PLUGIN = JSON.stringify({
  tools: [
    {
      name: 'chatty',
      description: 'prints lines for a second',
      tags: ['read'],
      handler: { type: 'shell', command: ['node', '-e', "let n = 0; const t = setInterval(() => { console.log('line ' + ++n); if (n === 10) { clearInterval(t); } }, 100);"] },
    },
    {
      name: 'big',
      description: 'prints more than --large-output',
      tags: ['read'],
      handler: { type: 'shell', command: ['node', '-e', "process.stdout.write('HEAD\\n' + 'y'.repeat(20000) + '\\nTAIL\\n')"] },
    },
  ],
});

let workspace: TempDir;
let configHome: string;

before(() => {
  workspace = makeTempDir('wt-v2client-');
  workspace.write('.vscode/tools/late.json', LATE_PLUGIN);
  workspace.write('.vscode/tools/more.json', CHATTY_PLUGIN);
  configHome = mkdtempSync(path.join(tmpdir(), 'wt-v2client-config-'));
});

after(() => {
  workspace.cleanup();
  rmSync(configHome, { recursive: true, force: true });
});

/** A v2 client connected to a fresh server process, with these client options. */
function connect(options: ClientOptions = {}): Promise<Client> {
  return connectV2Client({ ...options, configHome, args: ['--workspace', workspace.path, '--approve-existing', '--no-builtins', '--no-history', '--large-output', '4096'] });
}

/** The JSON-RPC error a request is answered with; fails if it succeeds. */
async function errorOf(request: Promise<unknown>): Promise<ProtocolError> {
  try {
    await request;
  } catch (error) {
    assert.ok(error instanceof ProtocolError, `not a JSON-RPC error: ${String(error)}`);
    return error;
  }
  assert.fail('answered without an error');
}

const TOOLS = ['chatty', 'big', 'late-tool'];

describe('the official v2 client over stdio, on both protocol revisions', () => {
  for (const [label, options, era, version] of [
    ['initialize (2025-11-25)', {}, 'legacy', '2025-11-25'],
    ['auto negotiation (a server/discover probe first, as Claude Code does)', { versionNegotiation: { mode: 'auto' } }, 'modern', '2026-07-28'],
    ['a client pinned to 2026-07-28', { versionNegotiation: { mode: { pin: '2026-07-28' } } }, 'modern', '2026-07-28'],
  ] as const) {
    test(`${label}: served on ${version}; lists, calls with progress, reads large outputs, refuses invalid params with -32602`, async () => {
      const client = await connect(options);
      try {
        assert.equal(client.getProtocolEra(), era);
        assert.equal(client.getNegotiatedProtocolVersion(), version);
        assert.equal(client.getServerCapabilities()?.tools?.listChanged, true);

        // The same order on every ask (2026-07-28 lets clients cache the list).
        const first = (await client.listTools()).tools.map((tool) => tool.name);
        assert.deepEqual(first.slice().sort(), TOOLS.slice().sort());
        assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), first);

        const progress: string[] = [];
        const chatty = await client.callTool({ name: 'chatty', arguments: {} }, { onprogress: (update) => progress.push(update.message ?? '') });
        assert.equal(chatty.isError, false);
        assert.match(JSON.stringify(chatty.content), /line 10/);
        assert.ok(progress.length >= 1 && progress.every((message) => /^line \d+$/.test(message)), `progress: ${JSON.stringify(progress)}`);

        const big = await client.callTool({ name: 'big', arguments: {} });
        const links = (big.content as { type: string; uri?: string }[]).filter((part) => part.type === 'resource_link');
        assert.equal(links.length, 1, JSON.stringify(big.content).slice(0, 300));
        const uri = links[0]?.uri ?? '';
        assert.deepEqual((await client.listResources()).resources.map((resource) => resource.uri), [uri]);
        const read = await client.readResource({ uri });
        assert.equal((read.contents[0] as { text?: string }).text, `HEAD\n${'y'.repeat(20000)}\nTAIL\n`);
        const unknown = await errorOf(client.readResource({ uri: 'workspace-tools://output/nope' }));
        assert.deepEqual([unknown.code, unknown.data], [-32602, { uri: 'workspace-tools://output/nope' }]);

        for (const [request, field] of [
          // As the README words it, on both revisions (it was the SDK schema's raw issue dump).
          [{ method: 'tools/call', params: { arguments: {} } }, /^Invalid params for tools\/call: params\.name: Invalid input: expected string, received undefined$/],
          [{ method: 'tools/list', params: { cursor: 5 } }, /params\.cursor/],
          [{ method: 'resources/read', params: {} }, /params\.uri/],
        ] as const) {
          const error = await errorOf(client.request(request));
          assert.equal(error.code, -32602, `${request.method}: ${error.message}`);
          assert.match(error.message, field);
        }
        if (era === 'legacy') {
          assert.equal((await errorOf(client.request({ method: 'logging/setLevel', params: { level: 'loud' } }))).code, -32602);
        }
      } finally {
        await client.close();
      }
    });
  }

  test('on 2026-07-28 every result says its resultType, and list results carry ttlMs and cacheScope', async () => {
    const client = await connect({ versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      const raw: Record<string, unknown>[] = [];
      const transport = client.transport as StdioClientTransport;
      const deliver = transport.onmessage;
      transport.onmessage = (message) => {
        if ('result' in message) {
          raw.push(message.result);
        }
        deliver?.(message);
      };
      await client.listTools();
      await client.callTool({ name: 'late-tool', arguments: {} });
      await client.listResources();
      const [list, call, resources] = raw;
      assert.deepEqual([list?.resultType, list?.ttlMs, list?.cacheScope], ['complete', 0, 'private']);
      assert.equal(call?.resultType, 'complete');
      assert.deepEqual([resources?.resultType, typeof resources?.ttlMs, typeof resources?.cacheScope], ['complete', 'number', 'string']);
    } finally {
      await client.close();
    }
  });
});
