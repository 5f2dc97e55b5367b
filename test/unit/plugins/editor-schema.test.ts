/**
 * The schema VS Code's JSON language service gets is derived from the one schema file, and leaves
 * out exactly what the extension reports itself: so every problem of a plugin file open in the
 * editor is reported once (a misspelt key was three problems).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import Ajv from 'ajv';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { LEFT_TO_THE_EXTENSION, reportedByTheEditor } from '../../../src/extension/editor/reported-by-editor';

const ROOT = path.resolve(__dirname, '../../../..');

interface Generator {
  EDITOR_SCHEMA_PATH: string;
  LEFT_OUT: string[];
  editorSchemaText(this: void, source: string): string;
}

const generator = async (): Promise<Generator> => (await import(pathToFileURL(path.join(ROOT, 'scripts/build-editor-schema.mjs')).href)) as Generator;

describe('the editor schema', () => {
  test('is up to date with schemas/tool-plugin.schema.json, and is what package.json gives the editor', async () => {
    const { EDITOR_SCHEMA_PATH, editorSchemaText } = await generator();
    const committed = readFileSync(path.join(ROOT, EDITOR_SCHEMA_PATH), 'utf8');
    const source = readFileSync(path.join(ROOT, 'schemas/tool-plugin.schema.json'), 'utf8');
    assert.ok(committed === editorSchemaText(source), `${EDITOR_SCHEMA_PATH} is stale: run \`node scripts/build-editor-schema.mjs\` and commit it`);
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: { jsonValidation: { url: string }[] } };
    assert.deepEqual(manifest.contributes.jsonValidation.map((entry) => entry.url), [`./${EDITOR_SCHEMA_PATH}`]);
  });

  test('leaves out what the extension reports in an open editor, and nothing else', async () => {
    const { EDITOR_SCHEMA_PATH, LEFT_OUT } = await generator();
    assert.deepEqual(LEFT_OUT, [...LEFT_TO_THE_EXTENSION]);
    const text = readFileSync(path.join(ROOT, EDITOR_SCHEMA_PATH), 'utf8');
    assert.doesNotMatch(text, /"additionalProperties": false/);
    assert.match(text, /"enum": \[/);
    assert.match(text, /"pattern": /);
  });

  test('takes a valid plugin file with a prompt: a choice that only said what is required is left out, not left empty', async () => {
    const { EDITOR_SCHEMA_PATH } = await generator();
    const schema = JSON.parse(readFileSync(path.join(ROOT, EDITOR_SCHEMA_PATH), 'utf8')) as Record<string, unknown>;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const file = {
      name: 'team',
      prompts: [{ name: 'review', arguments: [{ name: 'focus', enum: ['a'] }], messages: [{ role: 'user', text: 'On {{focus}}' }, { role: 'user', file: 'docs/a.md' }, { role: 'user', image: 'a.png' }] }],
    };
    // A `oneOf` of branches stripped to `{}` fails every message (VS Code: "Matches multiple schemas when only one must validate").
    assert.ok(validate(file), JSON.stringify(validate.errors));
    assert.doesNotMatch(readFileSync(path.join(ROOT, EDITOR_SCHEMA_PATH), 'utf8'), /"(oneOf|anyOf|allOf)": \[\s*\{\}/);
  });

  test('a misspelt key is the extension\'s; a wrong value and a syntax error are the editor\'s', () => {
    const load = (text: string) => loadPluginFile('/ws/.vscode/tools/p.json', text, { name: 'ws', path: '/ws' }).diagnostics;
    const [typo] = load('{"tools":[{"name":"a","description":"x","handler":{"type":"shell","comand":["ls"]}}]}');
    const [wrongValue] = load('{"tools":[{"name":"a","description":"x","handler":{"type":"shel","command":["ls"]}}]}');
    const [syntax] = load('{"tools":[');
    const [placeholder] = load('{"tools":[{"name":"a","description":"x","handler":{"type":"shell","command":["echo","{{x}}"]}}]}');
    assert.deepEqual([typo, wrongValue, syntax, placeholder].map((d) => d !== undefined && reportedByTheEditor(d)), [false, true, true, false]);
  });
});
