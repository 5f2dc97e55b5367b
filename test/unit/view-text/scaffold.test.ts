import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { parseToolInput, pluginFileTemplate, sampleInput, validatePluginFileName } from '../../../src/extension/view-text/scaffold';

const folder = { name: 'ws', path: path.resolve('/tmp/ws') };

describe('new plugin file', () => {
  test('the template is JSONC that loads with no problems and one read-only tool named after the file', () => {
    const text = pluginFileTemplate('build');
    assert.match(text, /^\/\/ /, 'starts with an explaining comment');
    const loaded = loadPluginFile(path.join(folder.path, '.vscode/tools/build.json'), text, folder);
    assert.deepEqual(loaded.diagnostics, []);
    assert.equal(loaded.pluginName, 'build');
    assert.deepEqual(loaded.tools.map((tool) => tool.name), ['build-todos']);
    assert.deepEqual(loaded.tools[0]!.tags, ['read']);
    assert.doesNotMatch(text, /"\$schema"/, 'the schema comes from jsonValidation, not a path into the extension');
  });

  test('the longest accepted name still gives a valid tool name', () => {
    const name = 'a'.repeat(48);
    assert.equal(validatePluginFileName(name), undefined);
    const loaded = loadPluginFile(path.join(folder.path, `.vscode/tools/${name}.json`), pluginFileTemplate(name), folder);
    assert.deepEqual(loaded.diagnostics, []);
  });

  test('names: letters, digits, - and _ only, not empty, not too long', () => {
    for (const good of ['build', 'my-tools', 'Team_2']) {
      assert.equal(validatePluginFileName(good), undefined, good);
    }
    assert.match(validatePluginFileName('') ?? '', /Enter a name/);
    for (const bad of ['my tools', '../evil', 'a.json', 'ä', 'x/y']) {
      assert.match(validatePluginFileName(bad) ?? '', /letters, digits/, bad);
    }
    assert.match(validatePluginFileName('a'.repeat(49)) ?? '', /at most 48/);
  });
});

describe('run tool input', () => {
  test('sample input: defaults, else empty values for required properties; optional ones left out', () => {
    const sample = sampleInput({
      type: 'object',
      properties: {
        pattern: { type: 'string', default: 'TODO' },
        count: { type: 'integer' },
        flag: { type: 'boolean' },
        list: { type: 'array' },
        mode: { type: 'string', enum: ['fast', 'slow'] },
        name: { type: 'string' },
        optional: { type: 'string' },
        either: { type: ['number', 'null'] },
      },
      required: ['count', 'flag', 'list', 'mode', 'name', 'either'],
    });
    assert.deepEqual(sample, { pattern: 'TODO', count: 0, flag: false, list: [], mode: 'fast', name: '', either: 0 });
  });

  test('sample input of a tool without parameters is an empty object', () => {
    assert.deepEqual(sampleInput({ type: 'object' }), {});
  });

  test('parsing: objects pass, empty text is no arguments, anything else says what to fix', () => {
    assert.deepEqual(parseToolInput('{"a": 1}'), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseToolInput('  '), { ok: true, value: {} });
    const broken = parseToolInput('{"a": }');
    assert.equal(broken.ok, false);
    assert.match(broken.ok ? '' : broken.message, /^Not valid JSON \(.+\)\. Write an object/);
    for (const notObject of ['[1]', '"x"', 'null', '3']) {
      const parsed = parseToolInput(notObject);
      assert.match(parsed.ok ? '' : parsed.message, /must be a JSON object/, notObject);
    }
  });
});
