// docs/sandbox.md's plugin examples ("Widening a tool's sandbox", "Imported tools' tags") load
// with no problems and give the tags and sandboxes the page says they give.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadPluginDirectories } from '../../../src/core/plugins/scan-directories';
import { toolSandboxText } from '../../../src/core/sandbox/tool-sandbox-text';
import { ImportFixture } from '../imports/import-fixture';
import { testSandboxView } from '../helpers/sandbox-view';

const ROOT = path.resolve(__dirname, '../../../..');

/** The ```jsonc blocks of the section under `heading`. */
function examplesUnder(heading: string): string[] {
  const page = readFileSync(path.join(ROOT, 'docs/sandbox.md'), 'utf8');
  const start = page.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `docs/sandbox.md has no section "${heading}"`);
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```jsonc\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

let fixture: ImportFixture;
beforeEach(() => {
  fixture = new ImportFixture()
    .write('package.json', JSON.stringify({ name: 'docs', scripts: { build: 'tsc', install: 'npm ci', publish: 'npm publish', lint: 'eslint .' } }, null, 2))
    .write('Makefile', 'build:\n\tcc -o build/app app.c\n');
});
afterEach(() => {
  fixture.dispose();
});

async function loadExample(text: string): Promise<Map<string, { tags: readonly string[]; compact: string }>> {
  fixture.write('.vscode/tools/example.json', text);
  const [file] = await loadPluginDirectories([{ path: path.join(fixture.path, '.vscode/tools'), folder: fixture.folder }], undefined, { env: { PATH: process.env['PATH'] } });
  assert.ok(file !== undefined);
  assert.deepEqual(file.diagnostics, []);
  return new Map(file.tools.map((tool) => [tool.name, { tags: tool.tags, compact: toolSandboxText(tool, testSandboxView()).compact }]));
}

describe('docs/sandbox.md examples', () => {
  test('"Widening a tool\'s sandbox": the blocks give the tags and sandboxes the page says', async () => {
    const [example] = examplesUnder("Widening a tool's sandbox");
    const tools = await loadExample(example ?? '');
    assert.deepEqual(tools.get('build-site'), { tags: ['execute', 'write'], compact: 'writes dist .cache, no network' });
    assert.deepEqual(tools.get('publish'), { tags: ['execute', 'network'], compact: 'writes temp only, network: registry.npmjs.org, reads ~/.npmrc' });
  });

  test('"Imported tools\' tags": the entry\'s tags, taskTags and sandbox blocks give each tool what the comments say', async () => {
    const [example] = examplesUnder("Imported tools' tags");
    const tools = await loadExample(example ?? '');
    assert.deepEqual(Object.fromEntries(tools), {
      'npm-build': { tags: ['execute', 'write'], compact: 'writes workspace, no network' },
      'npm-install': { tags: ['execute', 'write', 'network'], compact: 'writes workspace, network' },
      'npm-publish': { tags: ['read', 'network'], compact: 'writes temp only, network: registry.npmjs.org, reads ~/.npmrc' },
      'npm-lint': { tags: ['read'], compact: 'writes temp only, no network' },
      'make-build': { tags: ['execute', 'write'], compact: 'writes build, no network' },
    });
  });
});
