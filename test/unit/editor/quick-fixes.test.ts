import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import type { QuickFix } from '../../../src/extension/editor/quick-fixes';
import { quickFixesAt } from '../../../src/extension/editor/quick-fixes';

const TEXT = `{
  // team tools
  "tools": [
    {
      "name": "todos",
      "descripton": "Find TODOs",
      "inputSchema": { "type": "object", "properties": { "pattern": { "type": "string" }, "max-count": { "type": "integer" } } },
      "handler": { "type": "shell", "command": "grep -rn {{pattern}} src | head -n {{max-count}}", "timout": 5000 }
    },
    { "name": "ok", "description": "x", "handler": { "type": "http", "url": "https://example.com", "methd": "GET" } },
    { "name": "fine", "description": "x", "handler": { "type": "shell", "command": "git status" } }
  ]
}`;

const at = (needle: string, shift = 1): QuickFix[] => quickFixesAt(TEXT, TEXT.indexOf(needle) + shift);

function apply(text: string, fix: QuickFix): string {
  return [...fix.edits].sort((a, b) => b.offset - a.offset).reduce((result, edit) => result.slice(0, edit.offset) + edit.newText + result.slice(edit.offset + edit.length), text);
}

describe('plugin file quick fixes', () => {
  test('an unknown property of a tool, a shell handler or an http handler: the name it most likely meant', () => {
    assert.deepEqual(at('"descripton"').map((fix) => fix.title), ['Change "descripton" to "description"']);
    assert.deepEqual(at('"timout"').map((fix) => fix.title), ['Change "timout" to "timeout"']);
    assert.deepEqual(at('"methd"').map((fix) => fix.title), ['Change "methd" to "method"']);
    assert.equal(apply(TEXT, at('"descripton"')[0]!).includes('"description": "Find TODOs"'), true);
  });

  test('nothing for a known property, or one too far from any name', () => {
    assert.deepEqual(at('"name": "todos"'), []);
    assert.deepEqual(quickFixesAt('{ "tools": [ { "name": "a", "zzzzzzzz": 1 } ] }', 20), []);
  });

  test('a string command with a pipe becomes a script that reads its values from $INPUT_ variables, and loads', () => {
    const fixes = at('grep -rn', 3);
    assert.deepEqual(fixes.map((fix) => fix.title), ['Convert to "script" (run by a shell; values become $INPUT_ variables)']);
    const fixed = apply(TEXT, fixes[0]!);
    const handler = (parse(fixed) as { tools: { handler: Record<string, unknown> }[] }).tools[0]?.handler;
    assert.equal(handler?.['script'], 'grep -rn "$INPUT_PATTERN" src | head -n "$INPUT_MAX_COUNT"');
    assert.equal(handler?.['command'], undefined);
    const loaded = loadPluginFile('/ws/.vscode/tools/t.json', fixed.replace('"descripton"', '"description"').replace('"timout"', '"timeout"').replace('"methd"', '"method"'), { name: 'ws', path: '/ws' });
    assert.deepEqual(loaded.diagnostics, []);
  });

  test('no conversion for a command without shell operators', () => {
    assert.deepEqual(at('git status', 2), []);
  });
});
