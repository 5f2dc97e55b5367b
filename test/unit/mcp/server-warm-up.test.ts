/**
 * The first moments of a session (issue 37, item 2): the work a session needs is done before the
 * server's first answer (the first load, Ajv for plugin tools' validators, the host's warm-up), so
 * that none of it lands on tools/list or the first calls; a load that does not end lets the first
 * answer go after a bounded wait; plugin tools' validators compile in the background.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { PluginFile } from '../../../src/core/plugins/plugin-file';
import { ApproveAllPolicy } from '../../../src/core/approval/approval-policy';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import type { ToolDefinition } from '../../../src/core/types';
import * as path from 'node:path';
import { warmUpFileReads } from '../../../src/core/files/read-warm-up';
import { AjvJsonSchemaValidator } from '../../../src/mcp/sdk-ajv-provider';
import { createServer } from '../../../src/mcp/server';
import { memoryLogger, testRegistryDefaults, toolDefinition } from '../helpers/fake-tools';

/** A plugin tool with a schema of its own (equal schemas share one compiled validator). */
const tool = (name: string): ToolDefinition =>
  toolDefinition(name, { file: '/ws/a.json', inputSchema: { type: 'object', properties: { [`${name}-value`]: { type: 'string' } } } });

/** Waits, a turn of the event loop at a time, until `condition` holds; fails after `limitMs`. */
async function eventually(condition: () => boolean, what: string, limitMs = 5000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `${what} did not happen within ${limitMs} ms`);
    await sleep(5);
  }
}

/** The server side of a connection on the SDK's in-memory transport, spoken to in raw JSON-RPC. */
/** Sends `initialize` and checks it is answered; the client's `initialized` is left to the test. */
async function answerInitialize(connection: Awaited<ReturnType<typeof rawConnection>>): Promise<void> {
  const answer = await connection.request({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '0' } },
  });
  assert.ok('result' in answer);
}

async function rawConnection(server: ReturnType<typeof createServer>['server']): Promise<{ request(message: JSONRPCMessage): Promise<JSONRPCMessage>; notify(method: string): Promise<void> }> {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<unknown, (message: JSONRPCMessage) => void>();
  client.onmessage = (message) => {
    if ('id' in message) {
      waiting.get(message.id)?.(message);
    }
  };
  await server.connect(serverSide);
  await client.start();
  return {
    request: (message) =>
      new Promise((resolve) => {
        waiting.set('id' in message ? message.id : undefined, resolve);
        void client.send(message);
      }),
    notify: (method) => client.send({ jsonrpc: '2.0', method }),
  };
}

/** A promise and the function that resolves it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Whether `promise` settled within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);
}

test('MCP server: the first answer waits for the first load; plugin tools\' validators then compile in the background, and again for tools a reload adds', async () => {
  let served = ['first', 'second', 'third'];
  const loading = gate();
  let loads = 0;
  const registry = new ToolRegistry({
    ...testRegistryDefaults,
    builtins: [],
    loadPlugins: async () => {
      loads += 1;
      if (loads === 1) {
        await loading.promise;
      }
      return [{ file: '/ws/a.json', folder: { name: 'ws', path: '/ws' }, pluginName: 'p', text: '{}', contentHash: served.join(), tools: served.map(tool), diagnostics: [] } satisfies PluginFile];
    },
    approval: new ApproveAllPolicy(),
    logger: memoryLogger(),
  });
  const compiled = (): string[] => served.filter((name) => registry.isValidatorCompiled(name));
  const { server, cleanup } = createServer({ registry, name: 'test', version: '0.0.0', logger: memoryLogger() });
  try {
    const connection = await rawConnection(server);
    const answered = answerInitialize(connection);
    assert.equal(await settlesWithin(answered, 200), false, 'initialize was answered before the first load was done');
    loading.open();
    await answered;
    // Answered once loaded: the list is there at once, with nothing left to wait for.
    assert.deepEqual(registry.list().map((definition) => definition.name), served);
    await eventually(() => compiled().length === served.length, 'compiling every validator in the background');

    served = [...served, 'added-later'];
    await registry.reload();
    await eventually(() => registry.isValidatorCompiled('added-later'), 'compiling the validator of a tool a reload added');
  } finally {
    cleanup();
    await server.close();
    registry.dispose();
  }
});

test('MCP server: the host\'s warm-up (serve: the file read path) is done before the first answer', async () => {
  const registry = new ToolRegistry({ ...testRegistryDefaults, builtins: [], approval: new ApproveAllPolicy(), logger: memoryLogger() });
  const warming = gate();
  let warmUps = 0;
  const { server, cleanup } = createServer({
    registry,
    name: 'test',
    version: '0.0.0',
    logger: memoryLogger(),
    warmUp: () => {
      warmUps += 1;
      return warming.promise;
    },
  });
  try {
    assert.equal(warmUps, 1, 'the warm-up starts with the server, beside start-up');
    const connection = await rawConnection(server);
    const answered = answerInitialize(connection);
    assert.equal(await settlesWithin(answered, 200), false, 'initialize was answered before the warm-up was done');
    warming.open();
    await answered;
    await connection.notify('notifications/initialized');
    await sleep(50);
    assert.equal(warmUps, 1, 'warmed up once');
  } finally {
    cleanup();
    await server.close();
    registry.dispose();
  }
});

test('MCP server: a first load that does not end lets the first answer go after the wait (readyWaitMs)', async () => {
  const registry = new ToolRegistry({ ...testRegistryDefaults, builtins: [], loadPlugins: () => new Promise(() => undefined), approval: new ApproveAllPolicy(), logger: memoryLogger() });
  const created = performance.now();
  const { server, cleanup } = createServer({ registry, name: 'test', version: '0.0.0', logger: memoryLogger(), readyWaitMs: 300 });
  try {
    const connection = await rawConnection(server);
    await answerInitialize(connection);
    assert.ok(performance.now() - created >= 290, 'answered before the wait was over');
  } finally {
    cleanup();
    await server.close();
    registry.dispose();
  }
});

test('MCP server: on 2026-07-28 (no initialize) the first answer waits for the session\'s work too', async () => {
  const loading = gate();
  const registry = new ToolRegistry({
    ...testRegistryDefaults,
    builtins: [],
    loadPlugins: async () => {
      await loading.promise;
      return [{ file: '/ws/a.json', folder: { name: 'ws', path: '/ws' }, pluginName: 'p', text: '{}', contentHash: 'x', tools: [tool('only')], diagnostics: [] } satisfies PluginFile];
    },
    approval: new ApproveAllPolicy(),
    logger: memoryLogger(),
  });
  const { server, cleanup } = createServer({ registry, name: 'test', version: '0.0.0', logger: memoryLogger() }, 'modern');
  try {
    const connection = await rawConnection(server);
    const answer = connection.request({ jsonrpc: '2.0', id: 1, method: 'ping' });
    assert.equal(await settlesWithin(answer, 200), false, 'answered before the first load was done');
    loading.open();
    assert.ok('result' in (await answer));
    await eventually(() => registry.isValidatorCompiled('only'), 'compiling the plugin tool\'s validator in the background');
  } finally {
    cleanup();
    await server.close();
    registry.dispose();
  }
});

test('MCP server: the SDK\'s JSON Schema validator (esbuild.mjs points the SDK at ours, on the project\'s Ajv, loaded on first use) validates', () => {
  const validate = new AjvJsonSchemaValidator().getValidator<{ name: string }>({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
  assert.deepEqual(validate({ name: 'ada' }), { valid: true, data: { name: 'ada' }, errorMessage: undefined });
  const refused = validate({ name: 1 });
  assert.equal(refused.valid, false);
  assert.match(refused.errorMessage ?? '', /name/);
});

test('warmUpFileReads: reads a line of a file that exists, and never rejects for one that does not', async () => {
  assert.equal(await warmUpFileReads(__filename), true);
  assert.equal(await warmUpFileReads(path.join(path.dirname(__filename), 'no-such-file.js')), false);
});
