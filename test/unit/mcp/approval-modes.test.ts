import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import type { ConnectedServer } from '../helpers/mcp-client';
import { connectServer, resultText } from '../helpers/mcp-client';
import { LATE_PLUGIN } from './fixture-workspace';

let workspace: TempDir | undefined;
let server: ConnectedServer | undefined;

afterEach(async () => {
  await server?.close();
  workspace?.cleanup();
});

async function toolNames(connected: ConnectedServer): Promise<string[]> {
  return (await connected.client.listTools()).tools.map((tool) => tool.name);
}

describe('stdio server: approval modes', () => {
  test('--approve-changes serves a file written while it runs', async () => {
    workspace = makeTempDir('wt-approve-');
    server = await connectServer(['--workspace', workspace.path, '--no-builtins', '--approve-changes']);
    assert.deepEqual(await toolNames(server), []);
    const changed = server.nextListChanged();
    workspace.write('.vscode/tools/late.json', LATE_PLUGIN);
    await changed;
    assert.deepEqual(await toolNames(server), ['late-tool']);
    assert.equal(resultText(await server.client.callTool({ name: 'late-tool', arguments: {} })), 'late');
  });

  test('--approvals FILE serves only approved content and picks up a new approval', async () => {
    workspace = makeTempDir('wt-store-');
    workspace.write('.vscode/tools/late.json', LATE_PLUGIN);
    const store = path.join(workspace.path, 'approvals.json');
    server = await connectServer(['--workspace', workspace.path, '--no-builtins', '--approvals', store]);
    assert.deepEqual(await toolNames(server), []);
    const file = path.join(workspace.path, '.vscode/tools/late.json');
    const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
    const changed = server.nextListChanged();
    writeFileSync(store, JSON.stringify({ version: 1, approved: { [file]: hash } }));
    await changed;
    assert.deepEqual(await toolNames(server), ['late-tool']);
  });

  test('--no-plugins serves built-ins only, even with plugin files present', async () => {
    workspace = makeTempDir('wt-noplug-');
    workspace.write('.vscode/tools/late.json', LATE_PLUGIN);
    server = await connectServer(['--workspace', workspace.path, '--no-plugins']);
    const names = await toolNames(server);
    assert.ok(names.includes('git-status'));
    assert.equal(names.includes('late-tool'), false);
  });
});
