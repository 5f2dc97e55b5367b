import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { outlinePluginFile, placeholderAt, placeholderHover } from '../../../src/extension/editor/plugin-outline';

const TEXT = `// tools
{
  "tools": [
    {
      "name": "list-todos",
      "description": "Find {{pattern}} comments", // not a template: descriptions are text
      "inputSchema": {
        "type": "object",
        "properties": { "pattern": { "type": "string", "default": "TODO", "description": "Text to search for" }, "dir": { "type": "string" } },
        "required": ["dir"]
      },
      "handler": { "type": "shell", "command": ["grep", "-rn", "{{ pattern }}", "--", "{{dir}}"] },
      "tests": [{ "name": "t", "input": { "dir": "{{not-a-template}}" }, "expect": {} }],
    },
    {
      "name": "report",
      "description": "Steps",
      "steps": [
        { "name": "lines", "handler": { "type": "shell", "script": "wc -l" } },
        { "name": "show", "handler": { "type": "shell", "command": ["echo", "{{steps.lines.stdout}}", "{{missing}}"] } }
      ]
    },
    { "description": "no name yet" },
    { "name": "notes", "description": "x", "handler": { "type": "file-read" } }
  ]
}`;

describe('plugin file outline', () => {
  const tools = outlinePluginFile(TEXT);

  test('lists the named tools where they start, with their tests and input properties', () => {
    assert.deepEqual(tools.map((tool) => [tool.name, TEXT.slice(tool.offset, tool.offset + 1), tool.hasTests]), [
      ['list-todos', '{', true],
      ['report', '{', false],
      ['notes', '{', false],
    ]);
    assert.deepEqual(Object.keys(tools[0]?.properties ?? {}), ['pattern', 'dir']);
    assert.deepEqual(tools[0]?.required, ['dir']);
    assert.equal(tools[2]?.properties, undefined);
  });

  test('finds the placeholders of handlers and steps only, at their place in the text', () => {
    const names = tools.map((tool) => tool.placeholders.map((placeholder) => TEXT.slice(placeholder.offset, placeholder.offset + placeholder.length)));
    assert.deepEqual(names, [['{{ pattern }}', '{{dir}}'], ['{{steps.lines.stdout}}', '{{missing}}'], []]);
    assert.deepEqual(tools[0]?.placeholders.map((placeholder) => placeholder.name), ['pattern', 'dir']);
  });

  test('the placeholder under the cursor', () => {
    const offset = TEXT.indexOf('{{dir}}') + 3;
    assert.equal(placeholderAt(tools, offset)?.placeholder.name, 'dir');
    assert.equal(placeholderAt(tools, TEXT.indexOf('"grep"')), undefined);
  });

  test('a broken file still outlines what parses', () => {
    assert.deepEqual(outlinePluginFile('{ "tools": [ { "name": "a", "handler": { "command": ["{{x}}"] } }, { "name": ').map((tool) => tool.name), ['a']);
    assert.deepEqual(outlinePluginFile('not json'), []);
  });
});

describe('placeholder hover', () => {
  const properties = { pattern: { type: 'string', default: 'TODO', description: 'Text to search for' }, level: { enum: ['a', 'b'] } };

  test('shows the input property it reads', () => {
    assert.equal(placeholderHover('pattern', properties, []), '`{{pattern}}` reads the input property `pattern`: *string*, optional, default `"TODO"`\n\nText to search for');
    assert.match(placeholderHover('level', properties, ['level']), /\*enum\*, required, one of `"a"`, `"b"`/);
  });

  test('an earlier step, or nothing at all', () => {
    assert.match(placeholderHover('steps.lines.stdout', undefined, []), /standard output of the earlier step `lines`/);
    assert.match(placeholderHover('steps.lines.exitCode', undefined, []), /exit code of the earlier step `lines`/);
    assert.match(placeholderHover('missing', properties, []), /names no property of `inputSchema.properties` \(declared: `pattern`, `level`\)/);
  });
});
