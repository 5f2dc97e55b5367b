/**
 * The schema VS Code's JSON language service gets is derived from the one schema file and reports
 * nothing: the language service would report each problem as a warning, while the extension
 * reports it as the error it is (a tool that does not load), open or closed, once. It still
 * carries what the editor offers: the allowed values and their descriptions.
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

  test('leaves out what says missing or not allowed, and keeps the allowed values with their descriptions', async () => {
    const { EDITOR_SCHEMA_PATH, LEFT_OUT } = await generator();
    assert.deepEqual(LEFT_OUT, [...LEFT_TO_THE_EXTENSION]);
    const text = readFileSync(path.join(ROOT, EDITOR_SCHEMA_PATH), 'utf8');
    assert.doesNotMatch(text, /"additionalProperties": false/);
    assert.doesNotMatch(text, /"oneOf"/);
    assert.match(text, /"enum": \[\s*"shell",\s*"http",\s*"file-read",\s*"code"\s*\],\s*"markdownEnumDescriptions"/);
    assert.match(text, /"pattern": /);
  });

  test('accepts every value, so the JSON language service reports no schema problem (each would be a warning)', async () => {
    const { EDITOR_SCHEMA_PATH } = await generator();
    const schema = JSON.parse(readFileSync(path.join(ROOT, EDITOR_SCHEMA_PATH), 'utf8')) as Record<string, unknown>;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const wrong = {
      name: 5,
      version: [],
      tools: [
        { name: 'a b', description: 7, tags: 'read', inputSchema: 'none', handler: { type: 'bash', command: 'ls', timeout: '10' } },
        { name: 't', handler: { type: 'shell', command: ['ls'], timeout: -5, exitCodes: 'all', cwd: 3 }, tests: [{ expect: { exitCode: 'zero' } }] },
        { name: 'h', handler: { type: 'http', url: 9, method: 'FETCH' } },
      ],
      prompts: [{ name: '', messages: [{ role: 'robot', text: 1 }] }],
      import: [{ from: 'gradle', include: 'all' }],
      resources: 'none',
    };
    assert.ok(validate(wrong), JSON.stringify(validate.errors));
    // The same file does not load: the extension reports these, as errors.
    const loaded = loadPluginFile('/ws/.vscode/tools/p.json', JSON.stringify(wrong), { name: 'ws', path: '/ws' });
    assert.ok(loaded.diagnostics.length > 5, loaded.diagnostics.map((d) => d.message).join('\n'));
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

  test('only a syntax error is the editor\'s; a misspelt key, a wrong value and a placeholder are the extension\'s', () => {
    const load = (text: string) => loadPluginFile('/ws/.vscode/tools/p.json', text, { name: 'ws', path: '/ws' }).diagnostics;
    const [typo] = load('{"tools":[{"name":"a","description":"x","handler":{"type":"shell","comand":["ls"]}}]}');
    const [wrongValue] = load('{"tools":[{"name":"a","description":"x","handler":{"type":"shel","command":["ls"]}}]}');
    const [wrongType] = load('{"tools":[{"name":"a","description":"x","handler":{"type":"shell","command":["ls"],"timeout":"10"}}]}');
    const [syntax] = load('{"tools":[');
    const [placeholder] = load('{"tools":[{"name":"a","description":"x","handler":{"type":"shell","command":["echo","{{x}}"]}}]}');
    assert.deepEqual([typo, wrongValue, wrongType, syntax, placeholder].map((d) => d !== undefined && reportedByTheEditor(d)), [false, false, false, true, false]);
  });
});
