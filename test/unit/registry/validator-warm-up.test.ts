import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PluginFile } from '../../../src/core/plugins/plugin-file';
import { ApproveAllPolicy } from '../../../src/core/approval/approval-policy';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import type { JsonObjectSchema, ToolDefinition } from '../../../src/core/types';
import { memoryLogger, testRegistryDefaults, toolDefinition } from '../helpers/fake-tools';

/** A tool whose schema no other tool shares (equal schema texts share one compiled validator). */
function toolWithOwnSchema(name: string, schema?: JsonObjectSchema): ToolDefinition {
  return toolDefinition(name, { file: '/ws/a.json', inputSchema: schema ?? { type: 'object', properties: { [`${name}-value`]: { type: 'string' } } } });
}

function pluginFile(tools: ToolDefinition[]): PluginFile {
  return { file: '/ws/a.json', folder: { name: 'ws', path: '/ws' }, pluginName: 'p', text: '{}', contentHash: tools.map((tool) => tool.name).join(), tools, diagnostics: [] };
}

function registryServing(tools: () => ToolDefinition[], disabledTools: string[] = []): ToolRegistry {
  return new ToolRegistry({
    ...testRegistryDefaults,
    builtins: [],
    loadPlugins: () => Promise.resolve([pluginFile(tools())]),
    approval: new ApproveAllPolicy(),
    logger: memoryLogger(),
    disabledTools,
  });
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const names = (count: number, prefix = 'tool'): string[] => Array.from({ length: count }, (_, index) => `${prefix}-${index}`);

describe('ToolRegistry: input validators compiled ahead of first calls', () => {
  test('loading compiles nothing; compileValidators compiles every served tool, and only those', async () => {
    const registry = registryServing(() => names(5).map((name) => toolWithOwnSchema(name)), ['tool-4']);
    await registry.initialize();
    assert.deepEqual(names(5).filter((name) => registry.isValidatorCompiled(name)), []);
    assert.equal(await registry.compileValidators(), 4);
    assert.deepEqual(names(5).filter((name) => registry.isValidatorCompiled(name)), names(4));
    // Nothing is left to do on a second run.
    assert.equal(await registry.compileValidators(), 0);
  });

  test('one validator per turn of the event loop: other work runs between them', async () => {
    const registry = registryServing(() => names(5).map((name) => toolWithOwnSchema(name)));
    await registry.initialize();
    const done = registry.compileValidators();
    await nextTurn();
    assert.equal(names(5).filter((name) => registry.isValidatorCompiled(name)).length, 1);
    await done;
    assert.equal(names(5).filter((name) => registry.isValidatorCompiled(name)).length, 5);
  });

  test('a reload while compiling is followed: tools it adds are compiled in the same run', async () => {
    let served = names(3, 'old');
    const registry = registryServing(() => served.map((name) => toolWithOwnSchema(name)));
    await registry.initialize();
    const done = registry.compileValidators();
    served = [...served, ...names(2, 'new')];
    await registry.reload();
    // The host asks again on every change; that joins the run under way.
    assert.equal(registry.compileValidators(), done);
    assert.equal(await done, 5);
    assert.ok([...names(3, 'old'), ...names(2, 'new')].every((name) => registry.isValidatorCompiled(name)));
  });

  test('a schema Ajv cannot compile is left to its call, which reports it; the rest are compiled', async () => {
    const broken: JsonObjectSchema = { type: 'object', properties: { n: { type: 'no-such-type' } } };
    const registry = registryServing(() => [toolWithOwnSchema('broken', broken), toolWithOwnSchema('fine')]);
    await registry.initialize();
    assert.equal(await registry.compileValidators(), 1);
    assert.equal(registry.isValidatorCompiled('fine'), true);
    assert.equal(registry.isValidatorCompiled('broken'), false);
    const result = await registry.call('broken', {}, new AbortController().signal);
    assert.equal(result.isError, true);
  });

  test('dispose stops a run at its next turn', async () => {
    const registry = registryServing(() => names(5).map((name) => toolWithOwnSchema(name)));
    await registry.initialize();
    const done = registry.compileValidators();
    registry.dispose();
    assert.equal(await done, 0);
    assert.deepEqual(names(5).filter((name) => registry.isValidatorCompiled(name)), []);
  });
});
