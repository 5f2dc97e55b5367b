/**
 * Approval is keyed on what a plugin file runs: a save that changes only comments, formatting or
 * descriptions keeps the approval; any change to what runs withdraws it (the security promise:
 * nothing changed runs unapproved). Real files in a temp directory, the real per-user store.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ApprovalStore } from '../../../src/core/approval/approval-store';
import { whatRunsHash } from '../../../src/core/plugins/approval-hash';
import { contentHashOf, loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import type { PluginFile } from '../../../src/core/plugins/plugin-file';
import { StoredApprovalPolicy } from '../../../src/core/approval/approval-policy';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

const BASE = {
  name: 'team',
  version: '1.0.0',
  description: 'Team tools',
  tools: [
    {
      name: 'list-todos',
      description: 'Find TODO comments',
      inputSchema: {
        type: 'object',
        description: 'What to search',
        properties: {
          pattern: { type: 'string', default: 'TODO', description: 'Text to search for' },
          // a parameter *named* description is part of what runs
          description: { type: 'string', description: 'A parameter called description' },
        },
      },
      tags: ['read'],
      handler: { type: 'shell', command: ['grep', '-rn', '{{pattern}}', '.'] },
    },
  ],
};

type Tool = (typeof BASE.tools)[number];

/** BASE with its tool changed by `edit` (a deep copy). */
function withTool(edit: (tool: Tool) => void): typeof BASE {
  const copy = structuredClone(BASE);
  edit(copy.tools[0] as Tool);
  return copy;
}

const hash = (value: unknown): string => whatRunsHash(value);

describe('what runs: the hash approval records', () => {
  test('comments, whitespace, the version and every description leave it unchanged', () => {
    const reworded = structuredClone(BASE);
    reworded.description = 'Other words';
    reworded.version = '2.0.0';
    const tool = reworded.tools[0] as Tool;
    tool.description = 'Find TODO and FIXME comments, say where';
    tool.inputSchema.description = 'Other';
    tool.inputSchema.properties.pattern.description = 'What to look for';
    assert.equal(hash(reworded), hash(BASE));
    const text = `// the team's tools\n${JSON.stringify(BASE, null, 4)}\n/* end */\n`;
    const file = loadPluginFile('/ws/.vscode/tools/t.json', text, { name: 'ws', path: '/ws' });
    assert.equal(file.approvalHash, hash(BASE));
    assert.notEqual(file.contentHash, contentHashOf(Buffer.from(JSON.stringify(BASE))));
  });

  const changes: Array<[string, (tool: Tool) => void]> = [
    ['an argument of the command', (tool) => tool.handler.command.push('--include=*.ts')],
    ['the tags', (tool) => tool.tags.push('execute')],
    ['the name', (tool) => (tool.name = 'list-fixmes')],
    ['a default value', (tool) => (tool.inputSchema.properties.pattern.default = 'FIXME')],
    ['a parameter type', (tool) => (tool.inputSchema.properties.pattern.type = 'number')],
    ['the schema of a parameter named "description"', (tool) => (tool.inputSchema.properties.description.type = 'array')],
  ];
  for (const [what, edit] of changes) {
    test(`changing ${what} changes it`, () => {
      assert.notEqual(hash(withTool(edit)), hash(BASE));
    });
  }

  test('a declared test: its name and what it expects keep the hash, its input and time limit change it', () => {
    const tested = (test: Record<string, unknown>): unknown => ({ ...BASE, tools: [{ ...BASE.tools[0], tests: [test] }] });
    const base = tested({ name: 'finds TODO', input: { pattern: 'TODO' }, expect: { outputContains: 'TODO' } });
    assert.equal(hash(tested({ name: 'finds the TODO markers', input: { pattern: 'TODO' }, expect: { outputContains: 'TODO:', exitCode: 0 } })), hash(base));
    assert.notEqual(hash(tested({ name: 'finds TODO', input: { pattern: 'rm -rf' }, expect: { outputContains: 'TODO' } })), hash(base));
    assert.notEqual(hash(tested({ name: 'finds TODO', input: { pattern: 'TODO' }, expect: { outputContains: 'TODO' }, timeoutMs: 5 })), hash(base));
    assert.notEqual(hash(BASE), hash(base), 'adding a test (an input the tests run) changes it');
  });

  test('a key named "__proto__" is hashed like any key', () => {
    const a = JSON.parse('{"tools":[{"name":"t","handler":{"type":"shell","command":["env"],"env":{"__proto__":"a"}}}]}') as unknown;
    const b = JSON.parse('{"tools":[{"name":"t","handler":{"type":"shell","command":["env"],"env":{"__proto__":"b"}}}]}') as unknown;
    assert.notEqual(hash(a), hash(b));
  });
});

describe('StoredApprovalPolicy: what a save does to an approval', () => {
  let dir: TempDir;
  let policy: StoredApprovalPolicy;
  const file = (): string => path.join(dir.path, 'team.json');
  const load = (value: unknown, prefix = ''): PluginFile => {
    const text = `${prefix}${JSON.stringify(value, null, 2)}`;
    writeFileSync(file(), text);
    return loadPluginFile(file(), Buffer.from(text), { name: 'ws', path: dir.path });
  };
  const stateOf = async (loaded: PluginFile): Promise<string | undefined> => (await policy.statesOf([loaded])).get(loaded.file);

  beforeEach(() => {
    dir = makeTempDir('wt-what-runs-');
    policy = new StoredApprovalPolicy(path.join(dir.path, 'approvals.json'));
  });
  afterEach(() => dir.cleanup());

  test('an approval holds across a save of comments and descriptions, and not across a changed command', async () => {
    const approved = load(BASE);
    assert.equal(await stateOf(approved), 'new');
    await policy.approve(approved);
    const reworded = structuredClone(BASE);
    (reworded.tools[0] as Tool).description = 'Reworded for the model';
    assert.equal(await stateOf(load(reworded, '// a comment\n')), 'approved');
    assert.equal(await stateOf(load(withTool((tool) => tool.handler.command.push('/etc')))), 'changed');
  });

  test('an approval holds when only a declared test\'s expected text changes', async () => {
    const tested = (expected: string): unknown => ({ ...BASE, tools: [{ ...BASE.tools[0], tests: [{ name: 'finds TODO', input: { pattern: 'TODO' }, expect: { outputContains: expected } }] }] });
    const approved = load(tested('TODO'));
    assert.deepEqual(approved.diagnostics, []);
    await policy.approve(approved);
    assert.equal(await stateOf(load(tested('TODO: fix'))), 'approved');
  });

  test('an approval an earlier version recorded (the hash of the bytes) still approves those bytes, and only those', async () => {
    const loaded = load(BASE);
    await new ApprovalStore(path.join(dir.path, 'approvals.json')).approve([{ file: loaded.file, contentHash: loaded.contentHash }]);
    assert.equal(await stateOf(loaded), 'approved');
    assert.equal(await stateOf(load(BASE, '// now with a comment\n')), 'changed');
  });
});
