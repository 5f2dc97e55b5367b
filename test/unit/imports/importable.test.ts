/**
 * Imports are discoverable (issue 35 item 12): what a workspace could import is listed from its
 * real files by the importers themselves, and the entries made from a choice load exactly the
 * chosen tasks, as New Plugin File's "Import tasks/scripts" writes them.
 */
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { findImportable, importEntriesFor } from '../../../src/core/imports/importable';
import { loadPluginDirectories, PluginFileCache } from '../../../src/core/plugins/scan-directories';
import { hostPlatform } from '../../../src/core/platform/platform';
import { importPluginFileTemplate } from '../../../src/extension/view-text/scaffold';
import { ImportFixture } from './import-fixture';

let fixture: ImportFixture;
beforeEach(() => {
  fixture = new ImportFixture()
    .write('package.json', JSON.stringify({ name: 'f', scripts: { test: 'echo npm-test', lint: 'echo npm-lint' } }, null, 2))
    .write('Makefile', 'build:\n\t@echo made\n')
    .write('.vscode/tasks.json', JSON.stringify({ version: '2.0.0', tasks: [{ label: 'Build', type: 'shell', command: 'echo task-ran' }, { label: 'watch', type: 'shell', command: 'tsc -w', isBackground: true }] }, null, 2));
});
afterEach(() => fixture.dispose());

const env = { PATH: process.env['PATH'] };
const options = () => ({ folder: fixture.folder, platform: hostPlatform(), env });

describe('what a workspace could import', () => {
  test('each source that declares something, its tasks with their tool names and what they run, and what cannot be served', async () => {
    const sources = await findImportable(options());
    assert.deepEqual(sources.map((source) => [source.from, source.kind, source.file]), [
      ['tasks', 'VS Code tasks', '.vscode/tasks.json'],
      ['npm-scripts', 'npm scripts', 'package.json'],
      ['make', 'Makefile targets', 'Makefile'],
    ]);
    const [tasks, npm, make] = sources;
    assert.deepEqual(tasks?.tasks.map((task) => [task.taskName, task.toolName, task.runs]), [['Build', 'task-build', 'echo task-ran']]);
    assert.deepEqual(tasks?.notServed.map((entry) => entry.name), ['watch']);
    assert.deepEqual(npm?.tasks.map((task) => [task.taskName, task.toolName, task.runs]), [['test', 'npm-test', 'npm run test -- {{args}}'], ['lint', 'npm-lint', 'npm run lint -- {{args}}']]);
    assert.deepEqual(make?.tasks.map((task) => [task.taskName, task.toolName, task.runs, task.source.line]), [['build', 'make-build', 'make build', 1]]);
  });

  test('an empty folder has nothing to import', async () => {
    const empty = new ImportFixture();
    try {
      assert.deepEqual(await findImportable({ ...options(), folder: empty.folder }), []);
    } finally {
      empty.dispose();
    }
  });
});

describe('the import entries of a choice', () => {
  test('a source chosen whole is imported whole; a part, or a source with a task it cannot serve, by include', async () => {
    const sources = await findImportable(options());
    const entries = importEntriesFor([
      { from: 'npm-scripts', taskName: 'lint' },
      { from: 'tasks', taskName: 'Build' },
      { from: 'npm-scripts', taskName: 'test' },
    ], sources);
    assert.deepEqual(entries, [{ from: 'tasks', include: ['Build'] }, { from: 'npm-scripts' }]);
    assert.deepEqual(importEntriesFor([{ from: 'npm-scripts', taskName: 'test' }], sources), [{ from: 'npm-scripts', include: ['test'] }]);
    assert.deepEqual(importEntriesFor([], sources), []);
  });

  test('the new plugin file New Plugin File writes loads exactly the chosen tasks, with no problem', async () => {
    const sources = await findImportable(options());
    const chosen = [...(sources[0]?.tasks ?? []), ...(sources[1]?.tasks.filter((task) => task.taskName === 'test') ?? []), ...(sources[2]?.tasks ?? [])];
    const text = importPluginFileTemplate('imported-tasks', importEntriesFor(chosen, sources));
    assert.match(text, /^\/\/ /, 'starts with a comment that explains the section');
    fixture.write('.vscode/tools/imported-tasks.json', text);
    const [file] = await loadPluginDirectories([{ path: join(fixture.path, '.vscode/tools'), folder: fixture.folder }], new PluginFileCache(), { env });
    assert.deepEqual(file?.diagnostics, []);
    assert.deepEqual(file?.tools.map((tool) => tool.name), ['task-build', 'npm-test', 'make-build']);
    assert.equal(file?.pluginName, 'imported-tasks');
  });
});
