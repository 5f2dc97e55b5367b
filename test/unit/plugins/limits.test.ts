// Size limits and pattern checks applied when a plugin file loads: each drops what breaks it,
// says where, and keeps the rest of the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { MAX_TOOL_ARRAY_LENGTH } from '../../../src/core/plugins/size-limits';

const folder = { name: 'w', path: '/tmp/w' };

function tool(name: string, inputSchema: unknown): unknown {
  return { name, description: name, inputSchema, handler: { type: 'shell', command: ['echo', 'x'] } };
}

test('a tool with an over-long array is left out with a diagnostic at the array; its neighbours load', () => {
  const big = Array.from({ length: MAX_TOOL_ARRAY_LENGTH + 1 }, (_, i) => `v${i}`);
  const text = JSON.stringify(
    { tools: [tool('small', { type: 'object', properties: { x: { enum: ['a', 'b'] } } }), tool('big', { type: 'object', properties: { x: { enum: big } } })] },
    null,
    2,
  );
  const loaded = loadPluginFile('/tmp/w/.vscode/tools/t.json', text, folder);
  assert.deepEqual(loaded.tools.map((one) => one.name), ['small']);
  assert.equal(loaded.diagnostics.length, 1);
  const [diagnostic] = loaded.diagnostics;
  assert.equal(diagnostic?.tool, 'big');
  assert.match(diagnostic?.message ?? '', /1001 entries; a tool may have at most 1000/);
  // The "enum" key's line in the pretty-printed file.
  const enumLine = text.split('\n').findIndex((line, index) => line.includes('"enum"') && index > 10) + 1;
  assert.equal(diagnostic?.line, enumLine);
});

test('a file nested deeper than the limit loads nothing and says where, without overflowing', () => {
  const text = `{"tools": [\n${'['.repeat(300_000)}${']'.repeat(300_000)}]}`;
  const loaded = loadPluginFile('/tmp/w/.vscode/tools/deep.json', text, folder);
  assert.deepEqual(loaded.tools, []);
  assert.equal(loaded.diagnostics.length, 1);
  assert.equal(loaded.diagnostics[0]?.line, 2);
  assert.match(loaded.diagnostics[0]?.message ?? '', /more than 200 levels deep/);
});

test('brackets inside strings and comments do not count as nesting', () => {
  const text = `// ${'['.repeat(500)}\n{"tools": [${JSON.stringify(tool('ok', { type: 'object', properties: { x: { type: 'string', description: '{'.repeat(500) } } }))}]}`;
  const loaded = loadPluginFile('/tmp/w/.vscode/tools/s.json', text, folder);
  assert.deepEqual(loaded.tools.map((one) => one.name), ['ok']);
});

test('a pattern the linear-time engine cannot run is a load problem of its tool, at the pattern', () => {
  const text = JSON.stringify(
    {
      tools: [
        tool('lookahead', { type: 'object', properties: { x: { type: 'string', pattern: '^(?=a)a+$' } } }),
        tool('backref', { type: 'object', patternProperties: { '(a)\\1': { type: 'string' } } }),
        tool('fine', { type: 'object', properties: { x: { type: 'string', pattern: '^[a-z]+(-[a-z]+)*$' } } }),
      ],
    },
    null,
    2,
  );
  const loaded = loadPluginFile('/tmp/w/.vscode/tools/p.json', text, folder);
  assert.deepEqual(loaded.tools.map((one) => one.name), ['fine']);
  assert.deepEqual(loaded.diagnostics.map((one) => one.tool), ['lookahead', 'backref']);
  assert.match(loaded.diagnostics[0]?.message ?? '', /lookahead, lookbehind and backreferences are not supported/);
  const patternLine = text.split('\n').findIndex((line) => line.includes('"pattern": "^(?=a)')) + 1;
  assert.equal(loaded.diagnostics[0]?.line, patternLine);
});

test('problems after, between and inside too-big tools are placed in the file (their insides are left out of the syntax tree)', () => {
  const big = Array.from({ length: MAX_TOOL_ARRAY_LENGTH + 1 }, (_, i) => `v${i}`);
  const misspelt = { name: 'misspelt', description: 'd', handler: { type: 'shell', comand: ['echo'] } };
  const text = JSON.stringify(
    {
      tools: [
        tool('big1', { type: 'object', properties: { x: { enum: big } } }),
        { ...misspelt, name: 'between' },
        tool('big2', { type: 'object', properties: { y: { enum: big } } }),
        misspelt,
      ],
    },
    null,
    2,
  );
  const loaded = loadPluginFile('/tmp/w/.vscode/tools/t.json', text, folder);
  const lines = text.split('\n');
  const lineOf = (from: number, needle: string): number => lines.findIndex((line, index) => index >= from && line.includes(needle)) + 1;
  const places = loaded.diagnostics.map((one) => [one.tool, one.line, one.column, one.endColumn]);
  const firstEnum = lineOf(0, '"enum"');
  const between = lineOf(0, '"between"');
  const secondEnum = lineOf(between, '"enum"');
  const last = lineOf(secondEnum, '"misspelt"');
  const comand = (from: number): [number, number, number] => {
    const line = lineOf(from, '"comand"');
    const column = (lines[line - 1] ?? '').indexOf('"comand"') + 1;
    return [line, column, column + '"comand"'.length];
  };
  assert.deepEqual(places, [
    ['big1', firstEnum, (lines[firstEnum - 1] ?? '').indexOf('[') + 1, (lines[firstEnum - 1] ?? '').indexOf('[') + 2],
    ['between', ...comand(between)],
    ['big2', secondEnum, (lines[secondEnum - 1] ?? '').indexOf('[') + 1, (lines[secondEnum - 1] ?? '').indexOf('[') + 2],
    ['misspelt', ...comand(last)],
  ]);
});
