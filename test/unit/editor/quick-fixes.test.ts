import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import type { QuickFix } from '../../../src/extension/editor/quick-fixes';
import { quickFixesAt } from '../../../src/extension/editor/quick-fixes';
import { pluginFileTemplate } from '../../../src/extension/view-text/scaffold';

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

  test('a handler type that is not one: the type most likely meant, and the fixed file loads; the problem says it too', () => {
    const tool = (type: string): string => `{ "tools": [ { "name": "a", "description": "x", "handler": { "type": ${JSON.stringify(type)}, "command": ["ls"] } } ] }`;
    const fixesFor = (type: string): QuickFix[] => quickFixesAt(tool(type), tool(type).indexOf(JSON.stringify(type)) + 2);
    assert.deepEqual(['bash', 'shel', 'sh', 'powershell', 'fetch', 'javascript', 'file'].map((type) => fixesFor(type).map((fix) => fix.title)), [
      ['Change "bash" to "shell"'],
      ['Change "shel" to "shell"'],
      ['Change "sh" to "shell"'],
      ['Change "powershell" to "shell"'],
      ['Change "fetch" to "http"'],
      ['Change "javascript" to "code"'],
      ['Change "file" to "file-read"'],
    ]);
    assert.deepEqual(fixesFor('shell'), [], 'a known type has no fix');
    assert.deepEqual(fixesFor('zzzzzzzz'), [], 'nothing likely: no fix');
    const fixed = apply(tool('bash'), fixesFor('bash')[0]!);
    assert.deepEqual(loadPluginFile('/ws/.vscode/tools/t.json', fixed, { name: 'ws', path: '/ws' }).diagnostics, []);
    const [problem] = loadPluginFile('/ws/.vscode/tools/t.json', tool('bash'), { name: 'ws', path: '/ws' }).diagnostics;
    assert.equal(problem?.message, 'handler type must be one of shell, http, file-read, code (did you mean "shell"?)');
    // A "type" that is not a handler's (an input property's JSON type) is not touched.
    assert.deepEqual(quickFixesAt('{ "tools": [ { "name": "a", "inputSchema": { "type": "bash" } } ] }', 48), []);
  });
});

describe('placeholders: undeclared ones are declared, never hidden', () => {
  const load = (text: string): string[] => loadPluginFile('/ws/.vscode/tools/t.json', text, { name: 'ws', path: '/ws' }).diagnostics.map((d) => d.message);

  test('"Convert to script" keeps an undeclared placeholder as it is, so it is still reported', () => {
    const text = '{ "tools": [ { "name": "a", "description": "x", "inputSchema": { "type": "object", "properties": { "dir": { "type": "string" } } },\n'
      + '  "handler": { "type": "shell", "command": "grep -rn {{pattern}} {{dir}} | wc -l" } } ] }';
    const [convert] = quickFixesAt(text, text.indexOf('grep'));
    const fixed = apply(text, convert!);
    assert.match(fixed, /"script": "grep -rn \{\{pattern\}\} \\"\$INPUT_DIR\\" \| wc -l"/);
    assert.match(load(fixed).join('\n'), /\{\{pattern\}\} in "script" names no property/);
  });

  test('an undeclared placeholder in a command is declared as a required string; the file then loads', () => {
    const text = '{\n  "tools": [\n    {\n      "name": "a",\n      "description": "x",\n      "handler": { "type": "shell", "command": ["echo", "{{message}}"] }\n    }\n  ]\n}\n';
    assert.match(load(text).join(), /\{\{message\}\} names no property/);
    const fixes = quickFixesAt(text, text.indexOf('{{message}}') + 2);
    assert.deepEqual(fixes.map((fix) => fix.title), ['Declare "message" as a parameter of a']);
    const fixed = apply(text, fixes[0]!);
    assert.equal(fixes[0]!.edits.length, 1);
    assert.deepEqual((parse(fixed) as { tools: { inputSchema: unknown }[] }).tools[0]?.inputSchema, { type: 'object', properties: { message: { type: 'string', description: '' } }, required: ['message'] });
    assert.deepEqual(load(fixed), []);
  });

  test('declaring adds to an existing inputSchema and required list', () => {
    const text = '{ "tools": [ { "name": "a", "description": "x", "inputSchema": { "type": "object", "properties": { "p": { "type": "string" } }, "required": ["p"] },\n'
      + '  "handler": { "type": "http", "method": "GET", "url": "https://example.com/{{p}}/{{q}}" } } ] }';
    const fixed = apply(text, quickFixesAt(text, text.indexOf('{{q}}') + 1)[0]!);
    const schema = (parse(fixed) as { tools: { inputSchema: { properties: object; required: string[] } }[] }).tools[0]?.inputSchema;
    assert.deepEqual(Object.keys(schema?.properties ?? {}), ['p', 'q']);
    assert.deepEqual(schema?.required, ['p', 'q']);
    assert.deepEqual(load(fixed), []);
  });

  test('in a script, an undeclared placeholder is declared and read as "$INPUT_NAME"; a declared one is read so', () => {
    const text = '{ "tools": [ { "name": "a", "description": "x", "handler": { "type": "shell", "script": "grep -c {{word}} notes.txt" } } ] }';
    const [declare] = quickFixesAt(text, text.indexOf('{{word}}') + 3);
    assert.equal(declare?.title, 'Declare "word" as a parameter of a');
    const declared = apply(text, declare);
    assert.match(declared, /"script": "grep -c \\"\$INPUT_WORD\\" notes.txt"/);
    assert.deepEqual(load(declared), []);
    const again = declared.replace('\\"$INPUT_WORD\\"', '{{word}}');
    const [read] = quickFixesAt(again, again.indexOf('{{word}}') + 3);
    assert.equal(read?.title, 'Read {{word}} as "$INPUT_WORD"');
    assert.deepEqual(load(apply(again, read)), []);
  });

  test('nothing for a declared placeholder in a command, a step output, or a file-read tool', () => {
    const text = '{ "tools": [ { "name": "a", "description": "x", "inputSchema": { "type": "object", "properties": { "p": { "type": "string" } } }, "handler": { "type": "shell", "command": ["echo", "{{p}}"] } } ] }';
    assert.deepEqual(quickFixesAt(text, text.indexOf('{{p}}') + 1), []);
    const steps = '{ "tools": [ { "name": "a", "description": "x", "steps": [ { "name": "s", "handler": { "type": "shell", "command": ["true"] } }, { "name": "t", "handler": { "type": "shell", "command": ["echo", "{{steps.s.stdout}}"] } } ] } ] }';
    assert.deepEqual(quickFixesAt(steps, steps.indexOf('{{steps') + 2), []);
  });
});

describe('declaring keeps the file as it was written', () => {
  test('the new property goes on a line of its own at its siblings\' indentation; nothing else moves', () => {
    const text = pluginFileTemplate('team').replace('"{{path}}"]', '"{{path}}", "{{limit}}"]');
    const [declare] = quickFixesAt(text, text.indexOf('{{limit}}') + 2);
    const fixed = apply(text, declare!);
    const added = fixed.split('\n').filter((line) => !text.split('\n').includes(line));
    assert.deepEqual(added, [
      '          "path": { "type": "string", "description": "File or folder to search, relative to the workspace folder", "default": "." },',
      '          "limit": { "type": "string", "description": "" }',
      '        },',
      '        "required": ["limit"]',
    ]);
    assert.deepEqual(loadPluginFile('/ws/.vscode/tools/team.json', fixed, { name: 'ws', path: '/ws' }).diagnostics, []);
  });
});
