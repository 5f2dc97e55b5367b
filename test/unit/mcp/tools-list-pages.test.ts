import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolInfoData } from '../../../src/core/registry/tool-info';
import { TOOLS_PAGE_SIZE } from '../../../src/mcp/tool-pages';
import { runCli } from '../helpers/cli';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import type { ConnectedServer } from '../helpers/mcp-client';
import { connectServer, listAllTools, resultText } from '../helpers/mcp-client';
import { LATE_PLUGIN } from './fixture-workspace';

/** Plugin files and tools per file: with the built-ins, more than two pages and a short third. */
const FILES = 3;
const TOOLS_PER_FILE = 90;

/** A plugin file of `TOOLS_PER_FILE` tools, each printing its own name. */
function bulkPlugin(file: number): string {
  const tools = Array.from({ length: TOOLS_PER_FILE }, (_, index) => {
    const name = `bulk-${file}-${index}`;
    return { name, description: `Bulk tool ${name}`, tags: ['read'], handler: { type: 'shell', command: ['node', '-e', `process.stdout.write('${name}')`] } };
  });
  return JSON.stringify({ name: `bulk-${file}`, tools });
}

let workspace: TempDir;
let config: TempDir;
let server: ConnectedServer;
const args = (): string[] => ['--workspace', workspace.path, '--approve-existing'];

before(async () => {
  workspace = makeTempDir('wt-pages-');
  config = makeTempDir('wt-pages-config-');
  for (let file = 0; file < FILES; file++) {
    workspace.write(`.vscode/tools/bulk-${file}.json`, bulkPlugin(file));
  }
  server = await connectServer(args(), { configHome: config.path });
});

after(async () => {
  await server.close();
  workspace.cleanup();
  config.cleanup();
});

/** Asserts `listing` is refused as an invalid cursor, with `why` in the message. */
async function assertInvalidCursor(listing: Promise<unknown>, why: RegExp): Promise<void> {
  await assert.rejects(listing, (error: unknown) => {
    assert.ok(error instanceof McpError, String(error));
    assert.equal(error.code, ErrorCode.InvalidParams);
    assert.match(error.message, /Invalid cursor/);
    assert.match(error.message, why);
    assert.match(error.message, /list again without a cursor/);
    return true;
  });
}

describe('stdio server: tools/list in pages', () => {
  test('the pages hold every served tool once, in the order of the unpaged list', async () => {
    const { tools, pageSizes } = await listAllTools(server.client);
    const names = tools.map((tool) => tool.name);
    assert.equal(new Set(names).size, names.length, 'a tool was listed twice');
    // `list --json` reads the same workspace in one piece: the registry's order, unpaged.
    const listed = await runCli(['list', '--json', ...args()], { configHome: config.path });
    assert.equal(listed.code, 0, listed.stderr);
    const unpaged = (JSON.parse(listed.stdout) as ToolInfoData[]).filter((tool) => tool.state === 'active').map((tool) => tool.name);
    assert.equal(unpaged.length, 7 + FILES * TOOLS_PER_FILE);
    assert.deepEqual(names, unpaged);
    const total = unpaged.length;
    assert.deepEqual(pageSizes, [TOOLS_PAGE_SIZE, TOOLS_PAGE_SIZE, total - 2 * TOOLS_PAGE_SIZE]);
  });

  test('a tool from the last page is called like any other', async () => {
    const result = await server.client.callTool({ name: `bulk-${FILES - 1}-${TOOLS_PER_FILE - 1}`, arguments: {} });
    assert.equal(resultText(result), `bulk-${FILES - 1}-${TOOLS_PER_FILE - 1}`);
  });

  test('a cursor the server never issued is a JSON-RPC error saying the cursor is invalid', async () => {
    await assertInvalidCursor(server.client.listTools({ cursor: 'not-a-cursor' }), /not a cursor this server issued/);
    // The server keeps serving pages after it.
    assert.equal((await server.client.listTools()).tools.length, TOOLS_PAGE_SIZE);
  });

  test('a cursor taken before a plugin file changed is refused after it; listing again from the start works', async () => {
    const first = await server.client.listTools();
    assert.ok(first.nextCursor !== undefined);
    const changed = server.nextListChanged();
    workspace.write('.vscode/tools/late.json', LATE_PLUGIN);
    await changed;
    await assertInvalidCursor(server.client.listTools({ cursor: first.nextCursor }), /tool list changed since it was issued/);
    const again = await listAllTools(server.client);
    assert.equal(again.tools.length, 7 + FILES * TOOLS_PER_FILE);
  });
});
