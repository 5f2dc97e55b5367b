import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mergeAllowedTools } from '../../../src/core/client-config/claude-settings';

describe('mergeAllowedTools (.claude/settings.json)', () => {
  test('no file: a new one with the names', () => {
    const outcome = mergeAllowedTools(undefined, ['mcp__w__a', 'mcp__w__b']);
    assert.deepEqual(outcome.ok ? JSON.parse(outcome.text) : undefined, { permissions: { allow: ['mcp__w__a', 'mcp__w__b'] } });
  });

  test('adds only what is missing; comments, other settings and entries stay', () => {
    const existing = '{\n  // team settings\n  "model": "x",\n  "permissions": {\n    "allow": ["Bash(npm test)", "mcp__w__a"],\n    "deny": ["Read(.env)"]\n  }\n}\n';
    const outcome = mergeAllowedTools(existing, ['mcp__w__a', 'mcp__w__b']);
    assert.equal(outcome.ok && outcome.changed, true);
    const text = outcome.ok ? outcome.text : '';
    assert.match(text, /\/\/ team settings/);
    assert.match(text, /"deny": \["Read\(\.env\)"\]/);
    assert.deepEqual((JSON.parse(text.replace(/\/\/.*\n/, '')) as { permissions: { allow: string[] } }).permissions.allow, ['Bash(npm test)', 'mcp__w__a', 'mcp__w__b']);
    const again = mergeAllowedTools(text, ['mcp__w__a', 'mcp__w__b']);
    assert.deepEqual(again, { ok: true, text, changed: false });
  });

  test('no permissions yet: adds the object', () => {
    const outcome = mergeAllowedTools('{ "model": "x" }', ['mcp__w__a']);
    assert.deepEqual(outcome.ok ? JSON.parse(outcome.text) : undefined, { model: 'x', permissions: { allow: ['mcp__w__a'] } });
  });

  test('refuses, with line:column, a file that does not parse or whose allow is not a list', () => {
    assert.deepEqual(mergeAllowedTools('{\n  "permissions": ', ['a']).ok, false);
    const wrongShape = mergeAllowedTools('{\n  "permissions": { "allow": "all" }\n}', ['a']);
    assert.deepEqual(wrongShape, { ok: false, line: 2, column: 29, message: '"permissions.allow" must be a list' });
  });
});
