import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ApproveAllPolicy, ExistingFilesPolicy, StoredApprovalPolicy } from '../../../src/core/approval/approval-policy';
import type { PluginFile } from '../../../src/core/plugins/plugin-file';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import { StaleToolError } from '../../../src/core/tool-errors';
import type { ToolDefinition, ToolInput, ToolRunContext } from '../../../src/core/types';
import { textResult } from '../../../src/core/types';
import { memoryLogger, testRegistryDefaults, toolDefinition } from '../helpers/fake-tools';

function file(path: string, hash: string, tools: ToolDefinition[]): PluginFile {
  return { file: path, folder: { name: 'ws', path: '/ws' }, pluginName: 'p', text: '{}', contentHash: hash, tools, diagnostics: [] };
}

function registryWith(files: () => PluginFile[], extra: Partial<ConstructorParameters<typeof ToolRegistry>[0]> = {}) {
  return new ToolRegistry({
    ...testRegistryDefaults,
    builtins: [toolDefinition('git-status')],
    loadPlugins: () => Promise.resolve(files()),
    approval: new ApproveAllPolicy(),
    logger: memoryLogger(),
    ...extra,
  });
}

const never = new AbortController().signal;
const tempDirs: string[] = [];
after(async () => Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('ToolRegistry: registration order and duplicates', () => {
  test('built-ins come first and a plugin tool named like a built-in is refused, naming both places', async () => {
    const registry = registryWith(() => [file('/ws/.vscode/tools/a.json', 'h1', [toolDefinition('git-status', { file: '/ws/.vscode/tools/a.json', line: 7 }), toolDefinition('mine', { file: '/ws/.vscode/tools/a.json', line: 12 })])]);
    await registry.initialize();
    assert.deepEqual(registry.list().map((tool) => tool.name), ['git-status', 'mine']);
    assert.equal(registry.get('git-status')?.definition.source.kind, 'builtin');
    const [diagnostic] = registry.diagnostics();
    assert.equal(diagnostic?.tool, 'git-status');
    assert.equal(diagnostic?.line, 7);
    assert.match(diagnostic?.message ?? '', /duplicate tool name "git-status": already defined by the built-in tool/);
  });

  test('the first file wins a name; the later one is refused with the first place in its message', async () => {
    const registry = registryWith(() => [
      file('/ws/a.json', 'h1', [toolDefinition('lint', { file: '/ws/a.json', line: 3 })]),
      file('/ws/b.json', 'h2', [toolDefinition('lint', { file: '/ws/b.json', line: 9 })]),
    ]);
    await registry.initialize();
    assert.equal(registry.list().length, 2);
    const source = registry.get('lint')?.definition.source;
    assert.equal(source?.kind === 'plugin' ? source.file : '', '/ws/a.json');
    const diagnostic = registry.files()[1]?.diagnostics[0];
    assert.equal(diagnostic?.file, '/ws/b.json');
    assert.match(diagnostic?.message ?? '', /already defined by \/ws\/a\.json:3:5/);
  });
});

describe('ToolRegistry: approval by content hash', () => {
  test('with a store, new files wait; approving serves them; a changed file waits again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wt-approval-'));
    tempDirs.push(dir);
    const storePath = join(dir, 'approvals.json');
    const first = 'f'.repeat(64);
    const second = 'e'.repeat(64);
    let hash = first;
    const registry = registryWith(() => [file('/ws/t.json', hash, [toolDefinition('deploy', { file: '/ws/t.json' })])], {
      approval: new StoredApprovalPolicy(storePath),
    });
    await registry.initialize();
    assert.equal(registry.get('deploy')?.state, 'pending-approval');
    assert.notEqual(registry.get('deploy')?.state, 'active');
    assert.deepEqual(registry.list().map((tool) => tool.name), ['git-status']);
    const refused = await registry.call('deploy', {}, never);
    assert.equal(refused.isError, true);
    assert.match(refused.text, /waits for the user's approval/);

    await registry.approve('/ws/t.json');
    assert.equal(registry.get('deploy')?.state, 'active');
    assert.deepEqual(JSON.parse(await readFile(storePath, 'utf8')), { version: 1, approved: { '/ws/t.json': first } });
    assert.equal((await registry.call('deploy', {}, never)).text, 'deploy ran');

    hash = second;
    await registry.reload();
    assert.equal(registry.get('deploy')?.state, 'pending-approval');
    assert.equal(registry.files()[0]?.approval, 'changed');
    await assert.rejects(registry.approve('/ws/t.json', first), /changed since it was shown/);
    assert.equal(registry.get('deploy')?.state, 'pending-approval');
    await registry.approve('/ws/t.json', second);
    assert.equal(registry.get('deploy')?.state, 'active');
  });

  test('--approve-existing: files present at the first load are approved, later changes and new files wait', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wt-existing-'));
    tempDirs.push(dir);
    let files = [file('/ws/a.json', 'a1', [toolDefinition('a', { file: '/ws/a.json' })])];
    const registry = registryWith(() => files, { approval: new ExistingFilesPolicy(new StoredApprovalPolicy(join(dir, 'approvals.json'))) });
    await registry.initialize();
    assert.equal(registry.get('a')?.state, 'active');
    files = [
      file('/ws/a.json', 'a2', [toolDefinition('a', { file: '/ws/a.json' })]),
      file('/ws/b.json', 'b1', [toolDefinition('b', { file: '/ws/b.json' })]),
    ];
    await registry.reload();
    assert.equal(registry.get('a')?.state, 'pending-approval');
    assert.equal(registry.get('b')?.state, 'pending-approval');
    assert.deepEqual(registry.list().map((tool) => tool.name), ['git-status']);
  });
});

describe('ToolRegistry: reload', () => {
  test('a call in flight finishes on the tool it started with while reload swaps the set', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let version = 1;
    const registry = registryWith(() => {
      const label = `v${version}`;
      return [file('/ws/a.json', label, [toolDefinition('slow', { file: '/ws/a.json', run: async () => { await gate; return textResult(label); } })])];
    });
    await registry.initialize();
    const inFlight = registry.call('slow', {}, never);
    version = 2;
    assert.equal(await registry.reload(), true);
    release();
    assert.equal((await inFlight).text, 'v1');
    assert.equal((await registry.call('slow', {}, never)).text, 'v2');
    assert.equal(registry.get('git-status')?.definition.source.kind, 'builtin');
  });

  test('concurrent reloads coalesce and the last state wins; change events fire only on change', async () => {
    let loads = 0;
    let names = ['one'];
    const registry = registryWith(() => {
      loads += 1;
      return [file('/ws/a.json', names.join(), names.map((name) => toolDefinition(name, { file: '/ws/a.json' })))];
    });
    let changes = 0;
    registry.onDidChange(() => {
      changes += 1;
    });
    await registry.initialize();
    assert.equal(changes, 1);
    names = ['two'];
    await Promise.all([registry.reload(), registry.reload(), registry.reload(), registry.reload()]);
    assert.ok(loads <= 3, `expected coalesced loads, got ${loads}`);
    assert.deepEqual(registry.list().map((tool) => tool.name), ['git-status', 'two']);
    assert.equal(changes, 2);
    assert.equal(await registry.reload(), false);
    assert.equal(changes, 2);
  });
});

describe('ToolRegistry: a failing load', () => {
  test('keeps the tools it had, logs why, and never rejects', async () => {
    let fail = false;
    const logger = memoryLogger();
    const registry = registryWith(() => {
      if (fail) {
        throw new Error('disk went away');
      }
      return [file('/ws/a.json', 'h1', [toolDefinition('mine', { file: '/ws/a.json' })])];
    }, { logger });
    await registry.initialize();
    fail = true;
    assert.equal(await registry.reload(), false);
    assert.deepEqual(registry.list().map((tool) => tool.name), ['git-status', 'mine']);
    assert.ok(logger.lines.some((line) => line.startsWith('error') && line.includes('disk went away')), logger.lines.join('\n'));
    fail = false;
    assert.equal(await registry.reload(), false);
  });
});

describe('ToolRegistry: calls', () => {
  test('input is validated before anything runs and defaults are applied', async () => {
    const seen: unknown[] = [];
    const tool = toolDefinition('greet', {
      inputSchema: { type: 'object', properties: { name: { type: 'string' }, times: { type: 'integer', default: 2 } }, required: ['name'], additionalProperties: false },
      run: (input) => {
        seen.push(input);
        return Promise.resolve(textResult('ok'));
      },
    });
    const registry = registryWith(() => [], { builtins: [tool] });
    const bad = await registry.call('greet', { times: 'x', extra: 1 }, never);
    assert.equal(bad.isError, true);
    assert.match(bad.text, /missing required property "name"/);
    assert.match(bad.text, /"times": must be integer/);
    assert.match(bad.text, /unknown property "extra"/);
    assert.equal(seen.length, 0);
    const sent = { name: 'Ada' };
    assert.equal((await registry.call('greet', sent, never)).text, 'ok');
    assert.deepEqual(seen, [{ name: 'Ada', times: 2 }]);
    assert.deepEqual(sent, { name: 'Ada' });
  });

  test('unknown, disabled and throwing tools give error results worded for the model', async () => {
    const boom = toolDefinition('boom', { run: () => Promise.reject(new Error('disk on fire')) });
    const registry = registryWith(() => [], { builtins: [toolDefinition('git-status'), boom] });
    const unknown = await registry.call('nope', {}, never);
    assert.match(unknown.text, /Unknown tool "nope"\. Available tools: git-status, boom\./);
    const thrown = await registry.call('boom', {}, never);
    assert.deepEqual(thrown, { isError: true, text: 'Tool "boom" failed: disk on fire', folder: process.cwd() }, 'the folder it ran in, named even when it threw');
    registry.setDisabledTools(['boom']);
    assert.notEqual(registry.get('boom')?.state, 'active');
    assert.match((await registry.call('boom', {}, never)).text, /disabled by the user/);
    assert.deepEqual(registry.list().map((tool) => tool.name), ['git-status']);
  });

  test('a tool whose definition changed on disk (StaleToolError) is an error result and the registry reloads', async () => {
    let loads = 0;
    const stale = toolDefinition('stale', { file: '/ws/a.json', run: () => Promise.reject(new StaleToolError('its module changed')) });
    const registry = registryWith(() => {
      loads += 1;
      return [file('/ws/a.json', `hash-${loads}`, loads === 1 ? [stale] : [])];
    });
    await registry.initialize();
    const reloaded = new Promise<void>((resolve) => registry.onDidChange(() => resolve()));
    const result = await registry.call('stale', {}, never);
    assert.deepEqual(result, { isError: true, text: 'Tool "stale" failed: its module changed', folder: process.cwd() });
    await reloaded;
    assert.equal(loads, 2);
    assert.notEqual(registry.get('stale')?.state, 'active');
  });

  test('each tool carries a token estimate from its description and schema', async () => {
    const registry = registryWith(() => []);
    await registry.initialize();
    const estimate = registry.get('git-status')?.tokenEstimate ?? 0;
    const definition = registry.get('git-status')?.definition;
    assert.ok(definition);
    const expected = Math.ceil((definition.name.length + definition.description.length + JSON.stringify(definition.inputSchema).length) / 4);
    assert.equal(estimate, expected);
  });
});

describe('ToolRegistry: before the first load', () => {
  test('the built-ins are listed at once; plugin files come with the first load', () => {
    let loaded = false;
    const registry = registryWith(() => {
      loaded = true;
      return [];
    });
    assert.deepEqual(registry.list().map((tool) => tool.name), ['git-status']);
    assert.equal(registry.get('git-status')?.state, 'active');
    assert.equal(loaded, false);
  });
});

describe('ToolRegistry: tools calling tools (context.callTool) and progress', () => {
  const callInner = (inner: string) => (_input: ToolInput, context: ToolRunContext) => context.callTool?.(inner, {}) ?? Promise.resolve(textResult('no callTool'));

  test('a call through callTool runs the other tool with the same rules; progress reaches the door', async () => {
    const seen: string[] = [];
    const reporter = toolDefinition('reporter', {
      run: (_input, context) => {
        context.progress?.('half way');
        return Promise.resolve(textResult('reported'));
      },
    });
    const registry = registryWith(() => [file('/ws/a.json', 'a'.repeat(64), [{ ...toolDefinition('outer', { file: '/ws/a.json', run: callInner('reporter') }) }])], {
      builtins: [reporter],
    });
    const result = await registry.call('outer', {}, { signal: never, progress: (message) => seen.push(message) });
    assert.deepEqual(result, { isError: false, text: 'reported', folder: process.cwd() }, 'the outer call names its folder; the nested result it relayed did not');
    assert.deepEqual(seen, ['half way']);
  });

  test('a tool reaches through other tools only what its tags allow: read-only reaches read-only, execute does not reach write', async () => {
    const writer = { ...toolDefinition('writer'), tags: ['write'] as const };
    const readOnlyOuter = toolDefinition('reader-outer', { run: callInner('writer') });
    const executeOuter = { ...toolDefinition('exec-outer', { run: callInner('writer') }), tags: ['execute'] as const };
    const bothOuter = { ...toolDefinition('both-outer', { run: callInner('writer') }), tags: ['execute', 'write'] as const };
    const untaggedOuter = { ...toolDefinition('untagged-outer', { run: callInner('writer') }), tags: [] as const };
    const registry = registryWith(() => [], { builtins: [writer, readOnlyOuter, executeOuter, bothOuter, untaggedOuter] });
    const refused = await registry.call('reader-outer', {}, never);
    assert.equal(refused.isError, true);
    assert.match(refused.text, /the read-only tool "reader-outer" cannot call "writer", which is not read-only/);
    const narrower = await registry.call('exec-outer', {}, never);
    assert.equal(narrower.isError, true);
    assert.match(narrower.text, /"exec-outer" \(tags: execute\) cannot call "writer" \(tags: write\): a tool reaches through other tools only what its own tags allow, and it is not tagged "write"/);
    assert.deepEqual(await registry.call('both-outer', {}, never), { isError: false, text: 'writer ran', folder: process.cwd() });
    assert.deepEqual(await registry.call('untagged-outer', {}, never), { isError: false, text: 'writer ran', folder: process.cwd() }, 'an untagged tool is confirmed like one with every tag');
  });

  test('tools that call each other in a loop stop at the depth limit with an error naming the chain', async () => {
    const ping = toolDefinition('ping', { run: callInner('pong') });
    const pong = toolDefinition('pong', { run: callInner('ping') });
    const registry = registryWith(() => [], { builtins: [ping, pong] });
    const result = await registry.call('ping', {}, never);
    assert.equal(result.isError, true);
    assert.match(result.text, /tools called each other 8 deep \(ping → pong → ping/);
  });
});
