// Load errors of steps, aliases and tool references: each at its line:column, the rest still loads.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { ApproveAllPolicy } from '../../../src/core/approval/approval-policy';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import { DEFAULT_LIMITS, formatDiagnostic } from '../../../src/core/types';
import { memoryLogger, toolDefinition } from '../helpers/fake-tools';

const FILE = '/ws/.vscode/tools/p.json';
const folder = { name: 'ws', path: '/ws' };
const ok = { type: 'shell', command: ['true'] };

/** Loads `tools` (one tool a line, so line N+2 is tools[N]) and returns the diagnostics and what loaded. */
async function load(tools: unknown[]): Promise<{ problems: string[]; loaded: string[] }> {
  const text = `{\n  "tools": [\n${tools.map((tool) => `    ${JSON.stringify(tool)}`).join(',\n')}\n  ]\n}\n`;
  const registry = new ToolRegistry({
    builtins: [toolDefinition('git-status')],
    loadPlugins: () => Promise.resolve([loadPluginFile(FILE, text, folder)]),
    approval: new ApproveAllPolicy(),
    folders: () => [folder],
    limits: () => DEFAULT_LIMITS,
    env: {},
    logger: memoryLogger(),
  });
  await registry.initialize();
  return { problems: registry.diagnostics().map((diagnostic) => formatDiagnostic(diagnostic).replace(`${FILE}:`, '')), loaded: registry.list().map((tool) => tool.name) };
}

describe('steps: load errors at their place', () => {
  test('both handler and steps, or neither', async () => {
    const { problems, loaded } = await load([
      { name: 'both', description: 'd', handler: ok, steps: [{ name: 's', handler: ok }] },
      { name: 'neither', description: 'd' },
      { name: 'fine', description: 'd', handler: ok },
    ]);
    assert.deepEqual(problems, [
      '3:5: tool "both": a tool has exactly one of "handler", "steps" or "alias"; this one has "handler" and "steps"',
      '4:5: tool "neither": tool needs "handler" or "steps" or "alias"',
    ]);
    assert.deepEqual(loaded, ['git-status', 'fine']);
  });

  test('a step name used twice; runIf naming a later or unknown step; {{steps.x}} of a step that is not earlier', async () => {
    const { problems } = await load([
      { name: 'twice', description: 'd', steps: [{ name: 'a', handler: ok }, { name: 'a', handler: ok }] },
      { name: 'later', description: 'd', steps: [{ name: 'a', runIf: { step: 'b', exitCode: 0 }, handler: ok }, { name: 'b', handler: ok }] },
      { name: 'unknown', description: 'd', steps: [{ name: 'a', runIf: { step: 'nope', outputContains: 'x' }, handler: ok }] },
      { name: 'parallel', description: 'd', steps: [{ name: 'a', parallel: true, handler: ok }, { name: 'b', parallel: true, handler: { type: 'shell', command: ['echo', '{{steps.a.stdout}}'] } }] },
    ]);
    assert.equal(problems.length, 4, problems.join('\n'));
    assert.match(problems[0] ?? '', /^3:\d+: tool "twice": the step name "a" is used twice in this tool/);
    assert.match(problems[1] ?? '', /^4:\d+: tool "later": runIf names step "b", which is not an earlier step/);
    assert.match(problems[2] ?? '', /^5:\d+: tool "unknown": runIf names step "nope", which is not an earlier step/);
    assert.match(problems[3] ?? '', /^6:\d+: tool "parallel": \{\{steps\.a\.stdout\}\} refers to step "a", which is not an earlier step \(parallel steps cannot read each other\)/);
  });

  test('a tool step naming an unknown tool; tools calling each other in a cycle', async () => {
    const { problems, loaded } = await load([
      { name: 'calls-nothing', description: 'd', steps: [{ name: 's', tool: 'no-such-tool' }] },
      { name: 'a', description: 'd', steps: [{ name: 's', tool: 'b' }] },
      { name: 'b', description: 'd', steps: [{ name: 's', tool: 'a' }] },
      { name: 'uses-builtin', description: 'd', steps: [{ name: 's', tool: 'git-status' }] },
    ]);
    assert.match(problems.join('\n'), /^3:\d+: tool "calls-nothing": calls "no-such-tool", but no tool has that name/m);
    assert.match(problems.join('\n'), /^4:\d+: tool "a": tools call each other in a cycle \(a → b → a\); none of them is loaded/m);
    assert.match(problems.join('\n'), /^5:\d+: tool "b": tools call each other in a cycle/m);
    assert.deepEqual(loaded, ['git-status', 'uses-builtin']);
  });

  test('an alias of an unknown tool, and defaults that name no property of the base', async () => {
    const { problems, loaded } = await load([
      { name: 'ghost', alias: 'nothing-here' },
      { name: 'echo', description: 'd', inputSchema: { type: 'object', properties: { word: { type: 'string' } } }, handler: { type: 'shell', command: ['echo', '{{word}}'] } },
      { name: 'bad-defaults', alias: 'echo', defaults: { colour: 'red' } },
      { name: 'hello', alias: 'echo', defaults: { word: 'hello' } },
    ]);
    assert.match(problems.join('\n'), /^3:\d+: tool "ghost": is an alias of "nothing-here", but no tool has that name/m);
    assert.match(problems.join('\n'), /^5:\d+: tool "bad-defaults": "defaults" names "colour", which is not an input property of "echo" \(it has: word\)/m);
    assert.deepEqual(loaded, ['git-status', 'echo', 'hello']);
  });
});
