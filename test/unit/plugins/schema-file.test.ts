import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import schema from '../../../schemas/tool-plugin.schema.json';
import { createAjv } from '../../../src/core/json-schema/ajv';
import { LineIndex, scanToolExtents } from '../../../src/core/plugins/locate';

const scanToolOffsets = (text: string): number[] => scanToolExtents(text).map((extent) => extent.start);
import { parseJsoncTree } from '../../../src/core/plugins/parse-jsonc';
import { FIXTURES } from './fixtures';

/** Keywords VS Code's JSON language service understands and Ajv does not know. */
const VSCODE_KEYWORDS = ['markdownDescription', 'defaultSnippets', 'markdownEnumDescriptions'];

/** Every `properties` entry in the schema, with its JSON path (examples and snippets skipped). */
function propertyEntries(node: unknown, at: string): [string, Record<string, unknown>][] {
  if (typeof node !== 'object' || node === null) {
    return [];
  }
  const found: [string, Record<string, unknown>][] = [];
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (['examples', 'defaultSnippets', 'default', 'const', 'enum', 'if'].includes(key)) {
      continue;
    }
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const [name, property] of Object.entries(value as Record<string, unknown>)) {
        found.push([`${at}/properties/${name}`, property as Record<string, unknown>]);
      }
    }
    found.push(...propertyEntries(value, `${at}/${key}`));
  }
  return found;
}

describe('schemas/tool-plugin.schema.json', () => {
  test('compiles under Ajv strict mode with no warnings', () => {
    const warnings: string[] = [];
    const record = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
    // strictRequired is off: `anyOf: [{ required: [a] }, { required: [b] }]` is the standard way to
    // say "a or b", and that check wants every required name redeclared in each branch.
    const ajv = createAjv({
      strict: true,
      strictRequired: false,
      keywords: VSCODE_KEYWORDS,
      logger: { log: record, warn: record, error: record },
    });
    const validate = ajv.compile(schema);
    assert.deepEqual(warnings, []);
    assert.equal(validate({ tools: [{ name: 'a', description: 'd', handler: { type: 'file-read' } }] }), true);
    assert.equal(validate({ tools: [] }), false);
  });

  test('every property has a description (the hover text in VS Code)', () => {
    const entries = propertyEntries(schema, '#');
    assert.ok(entries.length > 30, `only ${entries.length} properties found`);
    const undocumented = entries.filter(([, property]) => typeof property['description'] !== 'string');
    assert.deepEqual(undocumented.map(([at]) => at), []);
  });

  test('every handler type has a definition that forbids unknown properties', () => {
    const definitions = schema.definitions as Record<string, { additionalProperties?: unknown }>;
    for (const name of ['tool', 'shellHandler', 'httpHandler', 'fileReadHandler', 'codeHandler', 'platformOverride']) {
      assert.equal(definitions[name]?.additionalProperties, false, name);
    }
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(schema.definitions.handler.properties.type.enum, ['shell', 'http', 'file-read', 'code']);
  });
});

describe('tool positions without the syntax tree', () => {
  const treeOffsets = (text: string): number[] => {
    const tree = parseJsoncTree(text);
    const tools = tree.children?.find((property) => property.children?.[0]?.value === 'tools')?.children?.[1];
    return (tools?.children ?? []).map((node) => node.offset);
  };

  test('the one-pass scan agrees with jsonc-parser on every fixture that parses', () => {
    const dirs = readdirSync(FIXTURES).map((dir) => path.join(FIXTURES, dir));
    const files = dirs.flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.json')).map((name) => path.join(dir, name)));
    let compared = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (file.includes('syntax-error')) {
        continue;
      }
      assert.deepEqual(scanToolOffsets(text), treeOffsets(text), file);
      compared++;
    }
    assert.ok(compared >= 10);
  });

  test('strings, escapes, comments and nested "tools" keys do not fool the scan', () => {
    const text = [
      '{ "description": "a { [ \\" tools ] }", // { "tools": [ {',
      '  /* "tools": [ { } ] */ "nested": { "tools": [ { "x": 1 } ] },',
      '  "tools": [ { "name": "a}", "inputSchema": { "tools": [ {} ] } },',
      '             { "name": "b" } ] }',
    ].join('\n');
    const offsets = scanToolOffsets(text);
    assert.deepEqual(offsets, treeOffsets(text));
    const lines = new LineIndex(text);
    assert.deepEqual(offsets.map((offset) => lines.position(offset)), [
      { line: 3, column: 14 },
      { line: 4, column: 14 },
    ]);
  });
});
