import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { whatRunsHash } from '../../../src/core/plugins/approval-hash';
import { buildSnapshot, awaitsApproval } from '../../../src/core/registry/snapshot';
import { approvalSubjectOf } from '../../../src/core/approval/approval-subject';
import { approvalLines } from '../../../src/core/approval/approval-text';
import { testSandboxView } from '../helpers/sandbox-view';
import type { PluginDiagnostic } from '../../../src/core/types';

const FOLDER = { name: 'w', path: '/tmp/wt-prompts-folder' };

function load(text: string, file = '/w/.vscode/tools/p.json'): ReturnType<typeof loadPluginFile> {
  return loadPluginFile(file, text, FOLDER);
}

function where(diagnostic: PluginDiagnostic): string {
  return `${diagnostic.line}:${diagnostic.column}-${diagnostic.endLine ?? '?'}:${diagnostic.endColumn ?? '?'} ${diagnostic.prompt ?? diagnostic.tool ?? ''}: ${diagnostic.message}`;
}

describe('prompts in a plugin file: loading', () => {
  test('a file with only prompts loads them, with their arguments and position', () => {
    const loaded = load(`{
  "prompts": [
    {
      "name": "review",
      "title": "Review a change",
      "description": "Review a file",
      "arguments": [{ "name": "file", "required": true, "complete": { "files": "src/**/*.ts" } }, { "name": "focus", "enum": ["security", "style"] }],
      "messages": [{ "role": "user", "text": "Review {{file}} for {{ focus }}." }, { "role": "user", "file": "{{file}}" }]
    }
  ]
}`);
    assert.deepEqual(loaded.diagnostics, []);
    assert.deepEqual(loaded.tools, []);
    const prompt = loaded.prompts?.[0];
    assert.equal(prompt?.name, 'review');
    assert.equal(prompt?.title, 'Review a change');
    assert.deepEqual(prompt?.arguments.map((argument) => [argument.name, argument.required]), [['file', true], ['focus', false]]);
    assert.deepEqual([prompt?.source.line, prompt?.source.column], [3, 5]);
    assert.deepEqual(prompt?.approvalLines, ['reads workspace file: {{file}}', 'completes "file" with workspace files matching: src/**/*.ts']);
  });

  test('an unknown argument in a template is a problem on the {{placeholder}} itself; the sibling prompt and the tools load', () => {
    const loaded = load(`{
  "tools": [{ "name": "t", "description": "d", "handler": { "type": "shell", "command": ["echo"] } }],
  "prompts": [
    { "name": "bad", "arguments": [{ "name": "a" }], "messages": [{ "role": "user", "text": "Hi {{b}}" }] },
    { "name": "good", "messages": [{ "role": "user", "text": "fine" }] }
  ]
}`);
    assert.deepEqual(loaded.diagnostics.map(where), ['4:97-4:102 bad: {{b}} is not an argument of this prompt (its arguments: a)']);
    assert.deepEqual(loaded.prompts?.map((prompt) => prompt.name), ['good']);
    assert.deepEqual(loaded.tools.map((tool) => tool.name), ['t']);
  });

  test('schema problems inside a prompt leave out that prompt only, located by line:column', () => {
    const loaded = load(`{
  "prompts": [
    { "name": "has space", "messages": [{ "role": "user", "text": "x" }] },
    { "name": "no-messages" },
    { "name": "two-kinds", "messages": [{ "role": "user", "text": "x", "image": "a.png" }] },
    { "name": "both", "arguments": [{ "name": "a", "enum": ["x"], "complete": { "files": "*" } }], "messages": [{ "role": "robot", "text": "x" }] },
    { "name": "ok", "messages": [{ "role": "assistant", "text": "x" }] }
  ]
}`);
    assert.deepEqual(loaded.prompts?.map((prompt) => prompt.name), ['ok']);
    const lines = loaded.diagnostics.map((diagnostic) => [diagnostic.line, diagnostic.prompt]);
    assert.deepEqual(lines, [[3, 'has space'], [4, 'no-messages'], [5, 'two-kinds'], [6, 'both'], [6, 'both']]);
    assert.ok(loaded.diagnostics.every((diagnostic) => diagnostic.rule !== undefined), JSON.stringify(loaded.diagnostics));
  });

  test('paths written in a prompt stay in the workspace: absolute, "..", and a non-image are load problems', () => {
    const loaded = load(`{
  "prompts": [
    { "name": "abs", "messages": [{ "role": "user", "file": "/etc/passwd" }] },
    { "name": "up", "messages": [{ "role": "user", "file": "docs/../../secret.txt" }] },
    { "name": "img", "messages": [{ "role": "user", "image": "docs/notes.txt" }] },
    { "name": "cmd", "arguments": [{ "name": "b", "complete": { "command": ["git", "{{b}}"] } }], "messages": [{ "role": "user", "text": "x" }] },
    { "name": "glob", "arguments": [{ "name": "b", "complete": { "files": "../*" } }], "messages": [{ "role": "user", "text": "x" }] }
  ]
}`);
    assert.deepEqual(loaded.prompts ?? [], []);
    const messages = loaded.diagnostics.map((diagnostic) => `${diagnostic.line} ${diagnostic.message}`);
    assert.deepEqual(messages.slice(0, 4), [
      '3 "/etc/passwd" must be relative to the workspace folder, not absolute',
      '4 "docs/../../secret.txt" contains "..": prompts read files inside the workspace folder only',
      '5 "docs/notes.txt" is not a PNG, JPEG, GIF or WebP image (by its extension)',
      '6 a completion command takes no {{placeholders}}: it runs as written',
    ]);
    assert.match(messages[4] ?? '', /^7 The glob "\.\.\/\*" must stay inside the workspace folder/);
  });

  test('duplicate prompt names in one file: the first wins, the later is reported naming both lines', () => {
    const loaded = load(`{
  "prompts": [
    { "name": "p", "messages": [{ "role": "user", "text": "1" }] },
    { "name": "p", "messages": [{ "role": "user", "text": "2" }] }
  ]
}`);
    assert.equal(loaded.prompts?.length, 1);
    assert.deepEqual(loaded.diagnostics.map((diagnostic) => diagnostic.message), ['duplicate prompt name "p": first defined at line 3, again at line 4; the one at line 4 is ignored']);
  });

  test('a file with neither tools nor prompts is a problem', () => {
    const loaded = load('{ "name": "empty" }');
    assert.equal(loaded.diagnostics.length, 1, JSON.stringify(loaded.diagnostics));
  });
});

describe('prompts: approval and the registry snapshot', () => {
  const text = `{ "prompts": [{ "name": "p", "description": "words", "arguments": [{ "name": "b", "description": "w", "complete": { "command": ["git", "branch"] } }], "messages": [{ "role": "user", "text": "Use {{b}}" }] }] }`;

  test('the approval hash ignores prompt descriptions but not messages or completion commands', () => {
    const hash = (value: string): string => whatRunsHash(JSON.parse(value));
    assert.equal(hash(text), hash(text.replace('"words"', '"other words"').replace('"w"', '"x"')));
    assert.notEqual(hash(text), hash(text.replace('Use {{b}}', 'Delete {{b}}')));
    assert.notEqual(hash(text), hash(text.replace('"branch"', '"tag"')));
  });

  test('a waiting file\'s prompts are not served; approved, they are; the approval text lists what they run', () => {
    const loaded = load(text);
    const waiting = buildSnapshot({ builtins: [], files: [loaded], approvals: new Map(), disabledTools: new Set() });
    assert.deepEqual(waiting.activePrompts, []);
    assert.equal(waiting.prompts.get('p')?.state, 'pending-approval');
    assert.equal(awaitsApproval(waiting.files[0] as never), true);
    const lines = approvalLines(approvalSubjectOf(waiting.files[0] as never), testSandboxView());
    assert.deepEqual(lines, ['• prompt p', '    completes "b" with the lines of: git branch', '']);
    const approved = buildSnapshot({ builtins: [], files: [loaded], approvals: new Map([[loaded.file, 'approved']]), disabledTools: new Set() });
    assert.deepEqual(approved.activePrompts.map((prompt) => prompt.name), ['p']);
    assert.notEqual(approved.fingerprint, waiting.fingerprint);
  });

  test('the same prompt name in two files: the first file wins, the second is told where', () => {
    const first = load(text, '/w/.vscode/tools/a.json');
    const second = load(`{\n  "prompts": [\n    { "name": "p", "messages": [{ "role": "user", "text": "2" }] }\n  ]\n}`, '/w/.vscode/tools/b.json');
    const snapshot = buildSnapshot({ builtins: [], files: [first, second], approvals: new Map(), disabledTools: new Set() });
    assert.equal(snapshot.prompts.get('p')?.definition.source.file, '/w/.vscode/tools/a.json');
    assert.deepEqual(snapshot.files[1]?.diagnostics.map((diagnostic) => [diagnostic.line, diagnostic.column, diagnostic.message]), [
      [3, 5, 'duplicate prompt name "p": already defined by /w/.vscode/tools/a.json:1:15; this one is not loaded (rename it)'],
    ]);
  });
});
