// The `resources` section as the loader reads it: what compiles, and each problem at its line:column.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { whatRunsHash } from '../../../src/core/plugins/approval-hash';
import { describeResource } from '../../../src/core/resources/plugin-resource';

const FOLDER = { name: 'ws', path: '/tmp/ws' };

function load(text: string) {
  return loadPluginFile('/tmp/ws/.vscode/tools/r.json', text, FOLDER);
}

describe('the resources section', () => {
  test('a file with only resources loads them, with default URIs and no problem', () => {
    const file = load(
      JSON.stringify({
        resources: [
          { name: 'handbook', file: 'docs/hand book.md' },
          { name: 'docs', files: 'docs/**/*.md' },
          { name: 'log', command: ['git', 'log', '-3'] },
          { name: 'ticket', uriTemplate: 'tickets://{id}', file: 'tickets/{{id}}.md', variables: { id: { enum: ['1', '2'] } } },
        ],
      }),
    );
    assert.deepEqual(file.diagnostics, []);
    assert.equal(file.tools.length, 0);
    const resources = file.resources ?? [];
    assert.deepEqual(
      resources.map((resource) => [resource.name, resource.uri ?? resource.template?.text, describeResource(resource)]),
      [
        ['handbook', 'workspace-tools://file/ws/docs/hand%20book.md', 'file docs/hand book.md'],
        ['docs', undefined, 'files docs/**/*.md'],
        ['log', 'workspace-tools://resource/r/log', 'command git log -3'],
        ['ticket', 'tickets://{id}', 'file tickets/{{id}}.md'],
      ],
    );
  });

  test('a bad resource is reported at its line:column and its siblings (and the tools) still load', () => {
    const text = [
      '{',
      '  "tools": [{ "name": "t", "description": "a tool", "handler": { "type": "shell", "command": ["echo"] } }],',
      '  "resources": [',
      '    { "name": "up", "file": "../secret.txt" },',
      '    { "name": "abs", "file": "/etc/passwd" },',
      '    { "name": "two", "file": "a.txt", "command": ["cat"] },',
      '    { "name": "ok", "file": "a.txt" },',
      '    { "name": "var", "uriTemplate": "x://{id}", "command": ["echo", "{{nope}}"] },',
      '    { "name": "prog", "uriTemplate": "x://{id}", "command": ["{{id}}"] },',
      '    { "name": "tpl", "uriTemplate": "x://{+id}", "file": "a.txt" },',
      '    { "name": "typo", "fiel": "a.txt" },',
      '    { "name": "reserved", "uri": "workspace-tools://output/x", "file": "a.txt" }',
      '  ]',
      '}',
    ].join('\n');
    const file = load(text);
    assert.deepEqual(file.tools.map((tool) => tool.name), ['t']);
    assert.deepEqual(file.resources?.map((resource) => resource.name), ['ok']);
    const at = (name: string) => file.diagnostics.filter((diagnostic) => diagnostic.tool === `resource ${name}`).map((diagnostic) => `${diagnostic.line}:${diagnostic.column} ${diagnostic.message}`);
    assert.match(at('up')[0] ?? '', /^4:29 .*contains "\.\."/);
    assert.match(at('abs')[0] ?? '', /^5:30 .*must be relative/);
    assert.match(at('two')[0] ?? '', /^6:5 a resource has one source; this one has "file" and "command"/);
    assert.match(at('var')[0] ?? '', /^8:70 "\{\{nope\}\}" is not a variable of the uriTemplate \(it has \{id\}\)/);
    assert.match(at('prog')[0] ?? '', /^9:62 the program must be fixed text/);
    assert.match(at('tpl')[0] ?? '', /^10:42 uriTemplate: "\{\+id\}" is not a level 1 variable/);
    assert.match(at('typo').join('\n'), /^11:23 .*fiel/m);
    assert.match(at('reserved')[0] ?? '', /^12:34 URIs under workspace-tools:\/\/output\/ are the server's kept outputs/);
  });

  test('a URI defined twice in one file is reported naming both lines; the first is served', () => {
    const file = load(['{ "resources": [', '  { "name": "a", "uri": "x://same", "file": "a.txt" },', '  { "name": "b", "uri": "x://same", "file": "b.txt" }', '] }'].join('\n'));
    assert.deepEqual(file.resources?.map((resource) => resource.name), ['a']);
    assert.match(file.diagnostics[0]?.message ?? '', /duplicate resource URI "x:\/\/same": first defined at line 2, again at line 3/);
    assert.equal(file.diagnostics[0]?.line, 3);
  });

  test('a file with neither tools, prompts, resources nor import is a problem', () => {
    const file = load('{ "name": "empty" }');
    assert.deepEqual(file.diagnostics.map((diagnostic) => diagnostic.message), ['the file needs "tools" or "prompts" or "resources" or "import"']);
  });

  test('what a resource reads is covered by approval: changing its file or command withdraws it', () => {
    const base = { resources: [{ name: 'a', file: 'a.txt' }] };
    const hash = whatRunsHash(base);
    assert.notEqual(whatRunsHash({ resources: [{ name: 'a', file: 'b.txt' }] }), hash);
    assert.notEqual(whatRunsHash({ resources: [{ name: 'a', command: ['cat', 'a.txt'] }] }), hash);
    assert.notEqual(whatRunsHash({ resources: [{ name: 'a', file: 'a.txt', uri: 'x://a' }] }), hash);
  });
});
