import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileReadHandler } from '../../../src/core/handlers/file-read/handler';
import type { ToolDefinition } from '../../../src/core/types';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { FOLDER, fixture, loadFixture, onlyDiagnostic } from './fixtures';

/** Line and column of a plugin tool's object. */
function position(tool: ToolDefinition): number[] {
  return tool.source.kind === 'plugin' ? [tool.source.line, tool.source.column] : [];
}

describe('loadPluginFile: schema violations name file, tool and line:column', () => {
  test('a missing handler points at the tool object; its sibling still loads', () => {
    const loaded = loadFixture('schema', 'missing-handler.json');
    const diagnostic = onlyDiagnostic(loaded);
    assert.deepEqual(
      { ...diagnostic },
      {
        file: fixture('schema', 'missing-handler.json'),
        tool: 'no-handler',
        line: 3,
        column: 5,
        // an object is underlined by its opening brace, not as a whole
        endLine: 3,
        endColumn: 6,
        rule: 'required',
        message: 'tool needs "handler" or "steps" or "alias"',
      },
    );
    assert.deepEqual(loaded.tools.map((tool) => [tool.name, ...position(tool)]), [['fine', 7, 5]]);
  });

  test('a bad tool name points at the name value', () => {
    const diagnostic = onlyDiagnostic(loadFixture('schema', 'bad-name.json'));
    assert.equal(diagnostic.tool, 'has space');
    assert.deepEqual([diagnostic.line, diagnostic.column], [4, 15]);
    assert.match(diagnostic.message, /invalid name "has space": use 1-64 letters, digits/);
  });

  test('an unknown handler type is one error at the type value', () => {
    const loaded = loadFixture('schema', 'unknown-handler-type.json');
    const diagnostic = onlyDiagnostic(loaded);
    assert.deepEqual([diagnostic.tool, diagnostic.line, diagnostic.column], ['bad-type', 6, 28]);
    assert.equal(diagnostic.message, 'handler type must be one of shell, http, file-read, code');
    assert.equal(loaded.tools.length, 0);
  });

  test('a misspelt property is one error at its key, with a suggestion and the allowed names', () => {
    const diagnostic = onlyDiagnostic(loadFixture('schema', 'misspelt-property.json'));
    assert.deepEqual([diagnostic.tool, diagnostic.line, diagnostic.column], ['typo', 8, 9]);
    assert.match(diagnostic.message, /^unknown property "comand" in handler \(did you mean "command"\?\); allowed: command, script, /);
  });

  test('a problem outside the tools yields no tools at all', () => {
    const loaded = loadFixture('schema', 'top-level-error.json');
    const diagnostic = onlyDiagnostic(loaded);
    assert.equal(diagnostic.tool, undefined);
    assert.deepEqual([diagnostic.line, diagnostic.column], [3, 3]);
    assert.match(diagnostic.message, /unknown property "tool" in the file \(did you mean "tools"\?\)/);
    assert.deepEqual(loaded.tools, []);
    assert.equal(loaded.pluginName, 'oops');
  });

  test('a tool without a name is called tools[N]', () => {
    const diagnostic = onlyDiagnostic(loadFixture('schema', 'unnamed-tool.json'));
    assert.deepEqual([diagnostic.tool, diagnostic.line, diagnostic.column], ['tools[0]', 3, 5]);
    assert.equal(diagnostic.message, 'missing required property "name" in tool');
  });
});

describe('loadPluginFile: semantic checks', () => {
  test('a duplicate name within a file names both lines; the first one loads', () => {
    const loaded = loadFixture('semantic', 'duplicates.json');
    const diagnostic = onlyDiagnostic(loaded);
    assert.deepEqual([diagnostic.tool, diagnostic.line, diagnostic.column], ['twice', 5, 15]);
    assert.match(diagnostic.message, /duplicate tool name "twice": first defined at line 3, again at line 5/);
    assert.deepEqual(loaded.tools.map((tool) => [tool.description, position(tool)[0]]), [['First', 3], ['Other', 4]]);
  });

  test('an invalid inputSchema is reported at the offending keyword', () => {
    const loaded = loadFixture('semantic', 'invalid-input-schema.json');
    const diagnostic = onlyDiagnostic(loaded);
    assert.deepEqual([diagnostic.tool, diagnostic.line, diagnostic.column], ['bad-schema', 9, 26]);
    assert.match(diagnostic.message, /^inputSchema\.properties\.x\.type must be one of array, boolean, integer/);
    assert.deepEqual(loaded.tools.map((tool) => tool.name), ['good']);
  });

  test('a file-read tool gets the fixed input schema, and declaring one is an error', () => {
    const loaded = loadFixture('semantic', 'file-read.json');
    const diagnostic = onlyDiagnostic(loaded);
    assert.deepEqual([diagnostic.tool, diagnostic.line, diagnostic.column], ['docs-with-schema', 7, 22]);
    assert.match(diagnostic.message, /fixed input .*remove "inputSchema"/);
    const [docs] = loaded.tools;
    assert.equal(loaded.tools.length, 1);
    assert.ok(fileReadHandler.fixedInputSchema !== undefined);
    assert.deepEqual(docs?.inputSchema, fileReadHandler.fixedInputSchema);
    assert.ok('path' in (docs?.inputSchema.properties ?? {}));
  });

  test("the handler's own problems are placed by their path, on the offending text", () => {
    const loaded = loadFixture('semantic', 'handler-problem.json');
    const where = loaded.diagnostics.map((d) => [d.tool, d.line, d.column, d.endLine, d.endColumn]);
    // {{missing}} inside the second element of the command array; the "|" of the piped string on line 11.
    assert.deepEqual(where, [['undeclared', 8, 30, 8, 41], ['piped', 11, 122, 11, 123]]);
    assert.match(loaded.diagnostics[0]?.message ?? '', /missing/);
    assert.deepEqual(loaded.tools, []);
  });

  test('tags default by handler type; declared tags are kept', () => {
    const loaded = loadFixture('semantic', 'tags.json');
    assert.deepEqual(loaded.diagnostics, []);
    assert.deepEqual(
      loaded.tools.map((tool) => [tool.name, tool.tags]),
      [
        ['sh', ['execute']],
        ['web', ['network']],
        ['reader', ['read']],
        ['tagged', ['write', 'execute']],
      ],
    );
  });
});

describe('loadPluginFile: what a good file gives', () => {
  test('name, version, content hash of the raw bytes, positions and a runnable definition', () => {
    const file = fixture('mixed', 'a-valid.json');
    const bytes = readFileSync(file);
    const loaded = loadPluginFile(file, bytes, FOLDER);
    assert.deepEqual(loaded.diagnostics, []);
    assert.equal(loaded.pluginName, 'team-tools');
    assert.equal(loaded.version, '1.2.0');
    assert.equal(loaded.contentHash, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(loaded.folder, FOLDER);
    const [tool] = loaded.tools;
    assert.deepEqual(tool?.source, { kind: 'plugin', pluginName: 'team-tools', file, line: 5, column: 5 });
    const definition = tool;
    assert.equal(definition?.name, 'list-todos');
    assert.deepEqual(definition?.tags, ['read']);
    assert.deepEqual(definition?.inputSchema.properties?.['pattern'], { type: 'string', default: 'TODO' });
    assert.match(definition?.handlerSummary ?? '', /grep/);
    assert.equal(typeof definition?.run, 'function');
  });

  test('comments and trailing commas load; the plugin name defaults to the base name', () => {
    const loaded = loadFixture('mixed', 'c-comments.json');
    assert.deepEqual(loaded.diagnostics, []);
    assert.equal(loaded.pluginName, 'c-comments');
    assert.equal(loaded.version, undefined);
    assert.deepEqual(loaded.tools.map((tool) => [tool.name, ...position(tool)]), [['ping', 5, 5]]);
    assert.deepEqual(loaded.tools[0]?.inputSchema, { type: 'object', properties: {} });
  });

  test('a syntax error is one diagnostic at its line:column and no tools', () => {
    const loaded = loadFixture('mixed', 'b-syntax-error.json');
    const diagnostic = onlyDiagnostic(loaded);
    assert.deepEqual([diagnostic.tool, diagnostic.line, diagnostic.column], [undefined, 6, 7]);
    assert.equal(diagnostic.message, "JSON syntax error: expected ',' between items");
    assert.deepEqual(loaded.tools, []);
  });

  test('a byte-order mark is not a syntax error, and the hash still covers it', () => {
    const text = '\uFEFF{ "tools": [ { "name": "a", "description": "d", "handler": { "type": "file-read" } } ] }';
    const loaded = loadPluginFile('/tmp/bom.json', text, FOLDER);
    assert.deepEqual(loaded.diagnostics, []);
    assert.equal(loaded.tools.length, 1);
    assert.equal(loaded.contentHash, createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
  });
});
