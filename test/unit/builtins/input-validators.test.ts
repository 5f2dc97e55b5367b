/**
 * The built-ins' input validators are precompiled (scripts/build-builtin-validators.mjs, Ajv
 * standalone code): the generated file is up to date with every built-in's inputSchema, each
 * validator answers exactly as Ajv compiling the schema at run time (the errors, the defaults it
 * fills in), and checking a built-in's input does not load Ajv.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { BUILTIN_TOOLS } from '../../../src/core/builtins';
import { VALIDATORS_BY_SCHEMA_TEXT } from '../../../src/core/builtins/input-validators.generated';
import { createAjv } from '../../../src/core/json-schema/ajv';
import { InputValidator } from '../../../src/core/registry/input-validator';

/** The repository root, from the compiled test's place in out/test/unit/builtins. */
const ROOT = path.resolve(__dirname, '../../../..');

interface Generator {
  GENERATED_PATH: string;
  generateBuiltinValidators(schemas: readonly unknown[]): string;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/** Inputs of every kind of mistake, and good ones, tried on every built-in. */
const INPUTS: readonly unknown[] = [
  {},
  { path: 'a.txt' },
  { path: 5 },
  { path: 'a.txt', startLine: 0, endLine: 2.5 },
  { path: 'a.txt', startLine: 3, endLine: 4, folder: 'ws' },
  { unknown: true, another: 1 },
  { query: '' },
  { query: 'x', regex: 'yes', caseSensitive: true, glob: '*.ts', maxResults: 5000 },
  { query: 'x', maxResults: 0 },
  { glob: '**/*.md', maxResults: 6000 },
  { maxCount: 201, path: 'src' },
  { maxCount: 10 },
  { staged: 'no' },
  { staged: true, folder: 2 },
  { folder: 'ws' },
  [],
  'text',
  null,
];

describe('the precompiled input validators of the built-ins', () => {
  // First: the other tests load Ajv (to compare with it, to generate).
  test('checking a built-in\'s input neither needs nor loads Ajv; a plugin tool\'s schema does', () => {
    const loaded = (): boolean => Object.keys(require.cache).some((file) => /[\\/]node_modules[\\/]ajv[\\/]dist[\\/](ajv|core)\.js$/.test(file));
    assert.equal(loaded(), false, 'Ajv was loaded before the test');
    const validator = new InputValidator();
    for (const tool of BUILTIN_TOOLS) {
      assert.equal(validator.needsAjv(tool.inputSchema), false, tool.name);
    }
    const fileReader = BUILTIN_TOOLS.find((tool) => tool.name === 'file-reader');
    assert.ok(fileReader !== undefined);
    assert.deepEqual(validator.check(fileReader.inputSchema, { path: 'a.txt' }), { ok: true, input: { path: 'a.txt' } });
    assert.deepEqual(validator.check(fileReader.inputSchema, { path: 'a.txt', extra: 1 }), { ok: false, message: '- arguments: unknown property "extra" is not allowed' });
    assert.equal(loaded(), false, 'checking a built-in\'s input loaded Ajv');
    const plugin = { type: 'object', properties: { name: { type: 'string' } } } as const;
    assert.equal(validator.needsAjv(plugin), true);
    assert.equal(validator.check(plugin, { name: 'x' }).ok, true);
    assert.equal(loaded(), true, 'a plugin tool\'s schema is compiled by Ajv');
    assert.equal(validator.needsAjv(plugin), false);
  });

  test('are up to date with every built-in\'s inputSchema', async () => {
    const script = pathToFileURL(path.join(ROOT, 'scripts/build-builtin-validators.mjs')).href;
    const generator = (await import(script)) as Generator;
    const committed = readFileSync(path.join(ROOT, generator.GENERATED_PATH), 'utf8');
    assert.ok(
      committed === generator.generateBuiltinValidators(BUILTIN_TOOLS.map((tool) => tool.inputSchema)),
      `${generator.GENERATED_PATH} is stale: run \`node scripts/build-builtin-validators.mjs\` and commit it`,
    );
  });

  test('answer as Ajv compiling each schema at run time: the same verdict, errors and defaults', () => {
    const ajv = createAjv();
    const byText = VALIDATORS_BY_SCHEMA_TEXT as unknown as Record<string, Validate | undefined>;
    for (const tool of BUILTIN_TOOLS) {
      const ours = byText[JSON.stringify(tool.inputSchema)];
      assert.ok(ours !== undefined, `no precompiled validator for ${tool.name}`);
      const compiled = ajv.compile(tool.inputSchema);
      for (const input of INPUTS) {
        const [mine, theirs] = [structuredClone(input), structuredClone(input)];
        assert.equal(ours(mine), compiled(theirs), `${tool.name} ${JSON.stringify(input)}`);
        assert.deepEqual(ours.errors, compiled.errors, `${tool.name} ${JSON.stringify(input)}`);
        assert.deepEqual(mine, theirs, `${tool.name} ${JSON.stringify(input)}: the defaults filled in`);
      }
    }
  });

});
