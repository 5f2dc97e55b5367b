// Issue 34 item 3: a plugin tool widens its own OS sandbox in its file ("sandbox": write, read,
// hosts), checked at load with each problem at its field's line:column, its tags added to the
// tool's, carried to the handler (HandlerTarget.sandbox, which the engine reads) and covered by
// the file's approval: changing the block puts the tool back to waiting.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { StoredApprovalPolicy } from '../../../src/core/approval/approval-policy';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import type { PluginFile } from '../../../src/core/plugins/plugin-file';
import { handlerTarget } from '../../../src/core/plugins/tool-parts';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import { DEFAULT_LIMITS, formatDiagnostic } from '../../../src/core/types';
import { memoryLogger } from '../helpers/fake-tools';

const FOLDER = { name: 'ws', path: '/ws' };
const FILE = '/ws/.vscode/tools/widen.json';

function load(text: string): PluginFile {
  return loadPluginFile(FILE, text, FOLDER);
}

const problems = (file: PluginFile): string[] => file.diagnostics.map((diagnostic) => formatDiagnostic({ ...diagnostic, file: 'widen.json' }));

describe('a tool\'s sandbox block', () => {
  test('loads on a shell tool: its write paths make it a write tool, its hosts a network tool; the tool carries the block', () => {
    const file = load(
      JSON.stringify({
        tools: [
          { name: 'build', description: 'b', handler: { type: 'shell', command: ['make'] }, sandbox: { write: ['dist', 'out/cache'] } },
          { name: 'publish', description: 'p', tags: ['execute'], handler: { type: 'shell', command: ['npm', 'publish'] }, sandbox: { hosts: ['registry.npmjs.org', '*.npmjs.com'], read: ['~/.npmrc'] } },
        ],
      }),
    );
    assert.deepEqual(file.diagnostics, []);
    const [build, publish] = file.tools;
    assert.deepEqual(build?.tags, ['execute', 'write']);
    assert.deepEqual(build?.sandbox, { kind: 'os', folder: '/ws', tags: ['execute', 'write'], declared: { write: ['dist', 'out/cache'] } });
    assert.deepEqual(publish?.tags, ['execute', 'network']);
    assert.deepEqual(publish?.sandbox, { kind: 'os', folder: '/ws', tags: ['execute', 'network'], declared: { hosts: ['registry.npmjs.org', '*.npmjs.com'], read: ['~/.npmrc'] } });
  });

  test('the handler is compiled with the block (HandlerTarget.sandbox); without one it has none', () => {
    const context = { source: { kind: 'plugin' as const, pluginName: 'w', file: FILE, line: 1, column: 1 }, folder: FOLDER, locate: () => ({ line: 1, column: 1 }) };
    const spec = { name: 'build', handler: { type: 'shell' as const, command: ['make'] }, tags: ['execute' as const], sandbox: { write: ['dist'] } };
    const target = handlerTarget('build', { type: 'object' }, spec, context);
    assert.deepEqual(target.sandbox, { write: ['dist'] });
    // The declared tags stay the file's own: what the block implies is in the tool's effective tags.
    assert.deepEqual(target.tags, ['execute']);
    assert.equal('sandbox' in handlerTarget('build', { type: 'object' }, { name: 'build', handler: spec.handler }, context), false);
  });

  test('a path to write outside the workspace folder, or a path to read that is relative, is a problem at its own line:column; the tool does not load', () => {
    const text = [
      '{',
      '  "tools": [',
      '    { "name": "escape", "description": "e", "handler": { "type": "shell", "command": ["make"] },',
      '      "sandbox": {',
      '        "write": ["dist", "../outside", "/etc"],',
      '        "read": ["secrets/key"]',
      '      }',
      '    },',
      '    { "name": "fine", "description": "f", "handler": { "type": "shell", "command": ["true"] }, "sandbox": { "write": ["dist/../out"] } }',
      '  ]',
      '}',
    ].join('\n');
    const file = load(text);
    assert.deepEqual(file.tools.map((tool) => tool.name), ['fine']);
    assert.deepEqual(problems(file), [
      'widen.json:5:27: tool "escape": "../outside" is not inside the workspace folder: a tool may be given writes only to paths inside it, written relative to it.',
      'widen.json:5:41: tool "escape": "/etc" is not inside the workspace folder: a tool may be given writes only to paths inside it, written relative to it.',
      'widen.json:6:18: tool "escape": "secrets/key" must be an absolute path or start with "~/".',
    ]);
  });

  test('on a tool that starts no process in the OS sandbox (code, http, file-read, an alias, steps without a shell step) it is refused at "sandbox"', () => {
    const tools = [
      { name: 'fetch', description: 'f', handler: { type: 'http', url: 'https://example.com/' }, sandbox: { hosts: ['example.com'] } },
      { name: 'docs', description: 'd', handler: { type: 'file-read', basePath: 'docs' }, sandbox: { write: ['docs'] } },
      { name: 'again', alias: 'fetch', sandbox: { write: ['dist'] } },
      { name: 'chain', description: 'c', steps: [{ name: 'one', tool: 'fetch' }], sandbox: { write: ['dist'] } },
    ];
    const text = `{\n  "tools": [\n${tools.map((tool) => `    ${JSON.stringify(tool)}`).join(',\n')}\n  ]\n}`;
    const file = load(text);
    assert.deepEqual(file.tools.map((tool) => tool.name), []);
    const found = problems(file);
    assert.equal(found.length, 4, found.join('\n'));
    assert.match(found[0] ?? '', /^widen\.json:3:\d+: tool "fetch": "sandbox" widens the OS sandbox of the processes a shell tool starts; a http tool starts no process: the server sends the request itself, so a sandbox block would widen nothing$/);
    assert.match(found[1] ?? '', /^widen\.json:4:\d+: tool "docs": .*a file-read tool starts no process: the server reads the files itself/);
    assert.match(found[2] ?? '', /^widen\.json:5:\d+: tool "again": .*an alias runs the tool it aliases, in that tool's own sandbox \(put the block on "fetch"\)/);
    assert.match(found[3] ?? '', /^widen\.json:6:\d+: tool "chain": .*this steps tool has no shell step/);
    // Each at its tool's sandbox block.
    for (const [index, line] of found.entries()) {
      const column = Number(/^widen\.json:\d+:(\d+):/.exec(line)?.[1]);
      const source = text.split('\n')[index + 2] ?? '';
      assert.equal(column - 1, source.indexOf('"sandbox":') + '"sandbox":'.length, line);
    }
  });

  test('on a code tool it is refused too: Node\'s permission model, set by its tags, is its sandbox', () => {
    const file = load(JSON.stringify({ tools: [{ name: 'calc', description: 'c', handler: { type: 'code', module: 'tools/calc.mjs' }, sandbox: { write: ['dist'] } }] }));
    assert.ok(
      problems(file).some((line) => line.endsWith('tool "calc": "sandbox" widens the OS sandbox of the processes a shell tool starts; a code tool runs in Node\'s permission model, which its tags set, so a sandbox block would widen nothing')),
      problems(file).join('\n'),
    );
  });

  test('a steps tool with a shell step takes the block; what confines its other steps is said with it', () => {
    const file = load(
      JSON.stringify({
        tools: [
          { name: 'report', description: 'r', handler: { type: 'http', url: 'https://example.com/' } },
          {
            name: 'ship',
            description: 's',
            steps: [
              { name: 'build', handler: { type: 'shell', command: ['make'] } },
              { name: 'notify', handler: { type: 'http', url: 'https://example.com/hook', method: 'POST' } },
              { name: 'tell', tool: 'report' },
            ],
            sandbox: { write: ['dist'] },
          },
        ],
      }),
    );
    assert.deepEqual(file.diagnostics, []);
    const ship = file.tools.find((tool) => tool.name === 'ship');
    // The tool can reach the network (its http step); its shell step's sandbox cannot: it has the shell default and what its block implies.
    assert.deepEqual(ship?.tags, ['execute', 'network', 'write']);
    assert.deepEqual(ship?.sandbox, {
      kind: 'os',
      folder: '/ws',
      tags: ['execute', 'write'],
      declared: { write: ['dist'] },
      also: ['step notify: starts no process: the server sends the request itself, to the URL shown', 'step tell calls the tool report, which runs in its own sandbox'],
    });
  });

  test('the schema refuses an empty block, an unknown key and a host with a scheme, each at its place', () => {
    const text = [
      '{',
      '  "tools": [',
      '    { "name": "a", "description": "a", "handler": { "type": "shell", "command": ["true"] }, "sandbox": {} },',
      '    { "name": "b", "description": "b", "handler": { "type": "shell", "command": ["true"] }, "sandbox": { "writes": ["dist"] } },',
      '    { "name": "c", "description": "c", "handler": { "type": "shell", "command": ["true"] }, "sandbox": { "hosts": ["https://example.com"] } }',
      '  ]',
      '}',
    ].join('\n');
    const found = problems(load(text));
    assert.deepEqual(found, [
      'widen.json:3:104: tool "a": sandbox is empty: give it at least one property or remove it',
      'widen.json:4:106: tool "b": unknown property "writes" in sandbox (did you mean "write"?); allowed: write, read, hosts',
      'widen.json:5:116: tool "c": sandbox.hosts[0] "https://example.com" is not a host: write a host name (registry.npmjs.org) or *. and a domain (*.github.com), without a scheme, a port or a path',
    ]);
  });
});

describe('approval covers the sandbox block', () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'wt-widen-')));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('an approved tool whose block is changed (a path to write, a host) waits for approval again; a description does not', async () => {
    const folder = { name: 'ws', path: dir };
    const file = join(dir, '.vscode/tools/widen.json');
    const spec = (sandbox: unknown, description = 'builds'): string => JSON.stringify({ tools: [{ name: 'build', description, handler: { type: 'shell', command: ['make'] }, sandbox }] });
    let text = spec({ write: ['dist'] });
    const registry = new ToolRegistry({
      builtins: [],
      loadPlugins: () => Promise.resolve([loadPluginFile(file, text, folder)]),
      approval: new StoredApprovalPolicy(join(dir, 'approvals.json')),
      folders: () => [folder],
      limits: () => DEFAULT_LIMITS,
      env: {},
      logger: memoryLogger(),
    });
    const state = (): string | undefined => registry.all().find((tool) => tool.definition.name === 'build')?.state;
    try {
      await registry.initialize();
      assert.equal(state(), 'pending-approval');
      await registry.approve(file);
      assert.equal(state(), 'active');
      text = spec({ write: ['dist'] }, 'builds the site');
      await registry.reload();
      assert.equal(state(), 'active', 'a description is not what runs');
      text = spec({ write: ['dist', 'src'] });
      await registry.reload();
      assert.equal(state(), 'pending-approval', 'a wider write list waits for approval');
      await registry.approve(file);
      text = spec({ write: ['dist', 'src'], hosts: ['example.com'] });
      await registry.reload();
      assert.equal(state(), 'pending-approval', 'a host added waits for approval');
    } finally {
      registry.dispose();
    }
  });
});
