import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import schema from '../../../schemas/tool-plugin.schema.json';
import { createAjv } from '../../../src/core/json-schema/ajv';
import { parseJsonc } from '../../../src/core/plugins/parse-jsonc';
import { validate as generated } from '../../../src/core/plugins/plugin-file-validator.generated';
import { FIXTURES } from './fixtures';

/** The repository root, from the compiled test's place in out/test/unit/plugins. */
const ROOT = path.resolve(__dirname, '../../../..');

interface Generator {
  GENERATED_PATH: string;
  generatePluginFileValidator(): string;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/** Every fixture plugin file that parses, as values. */
function fixtureValues(): [string, unknown][] {
  const dirs = readdirSync(FIXTURES).map((dir) => path.join(FIXTURES, dir));
  const files = dirs.flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.json')).map((name) => path.join(dir, name)));
  return files.flatMap((file): [string, unknown][] => {
    const parsed = parseJsonc(readFileSync(file, 'utf8'));
    return parsed.ok ? [[file, parsed.value]] : [];
  });
}

describe('the generated plugin-file validator', () => {
  test('is up to date with schemas/tool-plugin.schema.json', async () => {
    const script = pathToFileURL(path.join(ROOT, 'scripts/build-plugin-validator.mjs')).href;
    const generator = (await import(script)) as Generator;
    const committed = readFileSync(path.join(ROOT, generator.GENERATED_PATH), 'utf8');
    assert.ok(
      committed === generator.generatePluginFileValidator(),
      `${generator.GENERATED_PATH} is stale: run \`node scripts/build-plugin-validator.mjs\` and commit it`,
    );
  });

  test('reports the same errors as Ajv compiling the schema, on every fixture', () => {
    const compiled = createAjv({ allErrors: true, strict: false, verbose: true, logger: false }).compile(schema);
    const values = fixtureValues();
    assert.ok(values.length >= 10, `only ${values.length} fixtures`);
    for (const [file, value] of values) {
      const ours = generated as Validate;
      assert.equal(ours(value), compiled(value), file);
      assert.deepEqual(ours.errors, compiled.errors, file);
    }
  });

  test('checks a tool inputSchema against the draft-07 meta-schema', () => {
    const tool = (inputSchema: unknown) => ({ tools: [{ name: 'a', description: 'd', inputSchema, handler: { type: 'shell', command: 'x' } }] });
    const ours = generated as Validate;
    assert.equal(ours(tool({ type: 'object', properties: { p: { type: 'string' } } })), true);
    assert.equal(ours(tool({ type: 'object', properties: { p: { type: 'strin' } } })), false);
    assert.equal(ours(tool({ type: 'object', required: 'p' })), false);
  });
});
