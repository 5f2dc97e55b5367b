import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { StoredApprovalPolicy } from '../../../src/core/approval/approval-policy';
import type { PluginFile } from '../../../src/core/plugins/plugin-file';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import type { ToolDefinition } from '../../../src/core/types';
import { textResult } from '../../../src/core/types';
import { memoryLogger, testRegistryDefaults, toolDefinition } from '../helpers/fake-tools';

const never = new AbortController().signal;
const tempDirs: string[] = [];
after(async () => Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

function file(path: string, tools: ToolDefinition[]): PluginFile {
  return { file: path, folder: { name: 'ws', path: '/ws' }, pluginName: 'p', text: '{}', contentHash: 'a'.repeat(64), tools, diagnostics: [] };
}

/** A registry with one served built-in, one plugin tool waiting for approval (a real, empty store) and one that runs. */
async function registryOfEveryState(ran: string[]): Promise<ToolRegistry> {
  const dir = await mkdtemp(join(tmpdir(), 'wt-pipeline-'));
  tempDirs.push(dir);
  return new ToolRegistry({
    ...testRegistryDefaults,
    builtins: [toolDefinition('git-status'), toolDefinition('echo', { inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, run: () => (ran.push('echo'), Promise.resolve(textResult('echoed'))) })],
    loadPlugins: () => Promise.resolve([file('/ws/.vscode/tools/t.json', [toolDefinition('deploy', { file: '/ws/.vscode/tools/t.json', run: () => (ran.push('deploy'), Promise.resolve(textResult('deployed'))) })])]),
    approval: new StoredApprovalPolicy(join(dir, 'approvals.json')),
    logger: memoryLogger(),
  });
}

describe('the call pipeline: a typed refusal beside results', () => {
  test('unknown, awaiting approval and disabled each come back as their refusal, with the text for the model, and nothing runs', async () => {
    const ran: string[] = [];
    const registry = await registryOfEveryState(ran);
    // No initialize first: the call waits for the first load itself, so "deploy" is known (and waiting).
    const waiting = await registry.call('deploy', {}, never);
    assert.deepEqual(waiting.refusal, { reason: 'awaiting-approval', tool: 'deploy' });
    assert.equal(waiting.isError, true);
    assert.match(waiting.text, /waits for the user's approval/);

    const unknown = await registry.call('nope', {}, never);
    assert.deepEqual(unknown.refusal, { reason: 'unknown', tool: 'nope', available: ['git-status', 'echo'] });
    assert.equal(unknown.text, 'Unknown tool "nope". Available tools: git-status, echo.');

    registry.setDisabledTools(['echo']);
    const disabled = await registry.call('echo', {}, { signal: never, door: 'mcp' });
    assert.deepEqual(disabled.refusal, { reason: 'disabled', tool: 'echo' });
    assert.equal(disabled.text, 'Tool "echo" is disabled by the user.');
    assert.deepEqual(ran, []);
  });

  test('a call that runs carries no refusal, error result or not', async () => {
    const ran: string[] = [];
    const registry = await registryOfEveryState(ran);
    const result = await registry.call('echo', { n: 1 }, never);
    assert.deepEqual(result, { isError: false, text: 'echoed', folder: process.cwd() });
    const refusedInput = await registry.call('echo', { n: 'one' }, never);
    assert.equal(refusedInput.isError, true);
    assert.equal(refusedInput.refusal, undefined, 'wrong input is an error result of a served tool, not a refusal');
    assert.deepEqual(ran, ['echo']);
  });
});
