/**
 * The protocol by the book, over real stdio with the SDK client: invalid params are `-32602`
 * naming what was wrong (never the SDK's `-32603` dump, typescript-sdk #2284), a method that is
 * not served is `-32601`, no `tools/list_changed` arrives without a change, and every declared
 * capability is served.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import type { ConnectedServer } from '../helpers/mcp-client';
import { connectServer } from '../helpers/mcp-client';
import { LATE_PLUGIN } from './fixture-workspace';

const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;

let workspace: TempDir;
let server: ConnectedServer;

before(async () => {
  workspace = makeTempDir('wt-protocol-');
  workspace.write('.vscode/tools/late.json', LATE_PLUGIN);
  server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-history']);
});

after(async () => {
  await server.close();
  workspace.cleanup();
});

/** The JSON-RPC error `method` with `params` is answered with; fails if it succeeds. */
async function errorOf(method: string, params: Record<string, unknown>, to: ConnectedServer = server): Promise<McpError> {
  try {
    await to.client.request({ method, params }, ResultSchema);
  } catch (error) {
    assert.ok(error instanceof McpError, `not a JSON-RPC error: ${String(error)}`);
    return error;
  }
  assert.fail(`${method} ${JSON.stringify(params)} was answered without an error`);
}

describe('invalid params are -32602 Invalid params, saying what was wrong', () => {
  const cases: ReadonlyArray<readonly [string, Record<string, unknown>, RegExp]> = [
    ['initialize', { capabilities: {} }, /Invalid params for initialize: params\.protocolVersion/],
    ['logging/setLevel', { level: 'loud' }, /Invalid params for logging\/setLevel: params\.level: .*"debug"/],
    ['logging/setLevel', {}, /Invalid params for logging\/setLevel: params\.level/],
    // Worded as the README quotes it, by the SDK's own schema's words (not its raw issue dump).
    ['tools/call', { arguments: {} }, /Invalid params for tools\/call: params\.name: Invalid input: expected string, received undefined$/],
    ['tools/call', { name: 5 }, /Invalid params for tools\/call: params\.name: Invalid input: expected string, received number$/],
    ['tools/call', { name: 'late-tool', arguments: 'x' }, /Invalid params for tools\/call: params\.arguments: Invalid input: expected record, received string$/],
    ['tools/list', { cursor: 5 }, /Invalid params for tools\/list: params\.cursor/],
    ['resources/read', {}, /Invalid params for resources\/read: params\.uri/],
    ['resources/list', { cursor: 3 }, /Invalid params for resources\/list: params\.cursor/],
    ['prompts/get', {}, /Invalid params for prompts\/get: params\.name/],
    ['prompts/get', { name: 'x', arguments: { a: 1 } }, /Invalid params for prompts\/get: params\.arguments\.a: expected string, received number/],
    ['prompts/get', { name: 'nothing' }, /Unknown prompt: nothing/],
    ['prompts/list', { cursor: 'made-up' }, /Invalid params for prompts\/list: params\.cursor/],
    ['completion/complete', {}, /Invalid params for completion\/complete: params\.ref/],
    ['completion/complete', { ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a' } }, /Invalid params for completion\/complete: params\.argument\.value/],
    ['completion/complete', { ref: { type: 'ref/other' }, argument: { name: 'a', value: '' } }, /Invalid params for completion\/complete: params\.ref: expected/],
    ['completion/complete', { ref: { type: 'ref/resource', uri: 'x://{a}' }, argument: { name: 'a', value: '' } }, /Unknown resource template: x:\/\/\{a\}/],
  ];
  for (const [method, params, message] of cases) {
    test(`${method} ${JSON.stringify(params)}`, async () => {
      const error = await errorOf(method, params);
      assert.notEqual(error.code, -32603, `the SDK's internal-error answer is back: ${error.message}`);
      assert.equal(error.code, INVALID_PARAMS, error.message);
      assert.match(error.message, message);
    });
  }

  test('valid requests of the same methods are served as before; the server keeps serving after refusals', async () => {
    assert.deepEqual(await server.client.setLoggingLevel('info'), {});
    const result = await server.client.callTool({ name: 'late-tool', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: 'late' }]);
  });

  test('a method the server does not serve is -32601, also with invalid params', async () => {
    // Without plugin files there are no prompts to get or complete: neither is served.
    const builtinsOnly = await connectServer(['--workspace', workspace.path, '--no-plugins', '--no-history']);
    try {
      assert.deepEqual(Object.keys(builtinsOnly.client.getServerCapabilities() ?? {}).sort(), ['logging', 'resources', 'tasks', 'tools']);
      assert.equal((await errorOf('prompts/get', {}, builtinsOnly)).code, METHOD_NOT_FOUND);
      assert.equal((await errorOf('completion/complete', {}, builtinsOnly)).code, METHOD_NOT_FOUND);
    } finally {
      await builtinsOnly.close();
    }
    assert.equal((await errorOf('sampling/createMessage', {})).code, METHOD_NOT_FOUND);
  });
});

describe('notifications and capabilities', () => {
  test('no tools/list_changed after initialize when nothing changed', async () => {
    const fresh = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-history']);
    try {
      assert.deepEqual(
        (await fresh.client.listTools()).tools.map((tool) => tool.name).slice(-1),
        ['late-tool'],
      );
      // The stray one came ~25 ms after initialize; a second is ample even on a loaded machine.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(fresh.listChanged(), 0, 'tools/list_changed without a change');
    } finally {
      await fresh.close();
    }
  });

  test('every declared capability is served; tools.listChanged only when the list can change', async () => {
    const capabilities = server.client.getServerCapabilities() ?? {};
    assert.deepEqual(Object.keys(capabilities).sort(), ['completions', 'logging', 'prompts', 'resources', 'tasks', 'tools']);
    assert.equal(capabilities.tools?.listChanged, true);
    assert.deepEqual(capabilities.prompts, { listChanged: true });
    assert.ok(Array.isArray((await server.client.listPrompts()).prompts));
    assert.deepEqual((await server.client.complete({ ref: { type: 'ref/prompt', name: 'nothing' }, argument: { name: 'a', value: '' } }).catch((error: unknown) => error)) instanceof McpError, true);
    assert.ok(Array.isArray((await server.client.listTools()).tools));
    assert.ok(Array.isArray((await server.client.listResources()).resources));
    assert.ok(Array.isArray((await server.client.listResourceTemplates()).resourceTemplates));
    assert.deepEqual(capabilities.resources, { subscribe: true, listChanged: true });
    assert.deepEqual(await server.client.setLoggingLevel('warning'), {});

    const frozen = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-history', '--no-watch']);
    try {
      assert.notEqual(frozen.client.getServerCapabilities()?.tools?.listChanged, true, 'declares list_changed that --no-watch never sends');
      assert.notEqual(frozen.client.getServerCapabilities()?.resources?.listChanged, true, 'declares resources list_changed that --no-watch never sends');
      assert.notEqual(frozen.client.getServerCapabilities()?.prompts?.listChanged, true, 'declares prompts list_changed that --no-watch never sends');
    } finally {
      await frozen.close();
    }
  });
});
