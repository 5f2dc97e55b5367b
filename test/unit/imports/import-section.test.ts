import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { importSection } from '../../../src/core/imports';
import { isBuildOrTest } from '../../../src/core/imports/import-permissions';
import { slugOf, toolNameOf } from '../../../src/core/imports/tool-names';
import { platformNamed } from '../../../src/core/platform/platform';
import { ImportFixture, reasonFor } from './import-fixture';

let fixture: ImportFixture;
beforeEach(() => {
  fixture = new ImportFixture()
    .write('package.json', JSON.stringify({ name: 'f', scripts: { test: 'echo t', lint: 'echo l', build: 'echo b' } }, null, 2))
    .write('Makefile', 'build:\n\t@echo make\ntest:\n\t@echo test\n')
    .write('.vscode/tasks.json', JSON.stringify({ version: '2.0.0', tasks: [{ label: 'Build', type: 'shell', command: 'echo task' }] }, null, 2));
});
afterEach(() => {
  fixture.dispose();
});

const options = () => ({ folder: fixture.folder, platform: platformNamed('linux'), env: { PATH: process.env['PATH'] } });

describe('tool names', () => {
  test('a task name is slugged to the tool-name rule', () => {
    assert.equal(slugOf('Build: Release (x64)'), 'build-release-x64');
    assert.equal(slugOf('test:unit'), 'test-unit');
    assert.equal(slugOf('  --watch--  '), 'watch');
    assert.equal(slugOf('ünïcode'), 'n-code');
    assert.deepEqual(toolNameOf('task-', 'x'.repeat(70)), { reason: `the tool name "task-${'x'.repeat(70)}" would be longer than 64 characters; exclude it, or give the source a shorter prefix` });
    assert.match(JSON.stringify(toolNameOf('a b ', 'x')), /not a tool name/);
  });
});

describe('the import section', () => {
  test('each entry\'s include, exclude and prefix; every source to approve, once', async () => {
    const section = await importSection([
      { from: 'npm-scripts', include: ['test', 'lint'] },
      { from: 'make', exclude: ['test'] },
      { from: 'tasks' },
    ], options());
    assert.deepEqual(section.tools.map((tool) => tool.name), ['npm-test', 'npm-lint', 'make-build', 'task-build']);
    assert.deepEqual(section.unmatched, []);
    assert.deepEqual(section.sources.filter((source) => source.content !== null && source.presenceOnly !== true).map((source) => source.path), ['package.json', 'Makefile', '.vscode/tasks.json']);
  });

  test('imported build and test tasks run as MCP tasks where the client supports them (task.support preferred); the rest as the client chooses', async () => {
    fixture.write('package.json', JSON.stringify({ name: 'f', scripts: { 'test:unit': 'echo t', format: 'echo f', build: 'echo b', typecheck: 'echo c' } }, null, 2));
    const section = await importSection([{ from: 'npm-scripts' }, { from: 'make' }, { from: 'tasks' }], options());
    assert.deepEqual(
      section.tools.map((tool) => [tool.name, tool.spec.task?.support]),
      [['npm-test-unit', 'preferred'], ['npm-format', undefined], ['npm-build', 'preferred'], ['npm-typecheck', 'preferred'], ['make-build', 'preferred'], ['make-test', 'preferred'], ['task-build', 'preferred']],
    );
    assert.equal(isBuildOrTest('npm: compile'), true);
    assert.equal(isBuildOrTest('rebuild-docs'), false, 'a word of its own, not part of one');
    assert.equal(isBuildOrTest('clean'), false);
  });

  test('one name from two sources is refused with both places named', async () => {
    const section = await importSection([{ from: 'make' }, { from: 'npm-scripts', prefix: 'make-', include: ['build'] }], options());
    assert.deepEqual(section.tools.map((tool) => tool.name), ['make-build', 'make-test']);
    assert.match(reasonFor(section, 'build'), /"make-build" is already the name of "build" \(Makefile:1:1\); this one \(package\.json:6:5\) is not served/);
  });

  test('include and exclude names the source does not declare are reported by entry', async () => {
    const section = await importSection([{ from: 'tasks', include: ['Build', 'Deploy'] }, { from: 'make', exclude: ['nope'] }], options());
    assert.deepEqual(section.unmatched, [{ entry: 0, names: ['Deploy'] }, { entry: 1, names: ['nope'] }]);
  });

  test('an excluded task that another depends on still runs as its step', async () => {
    fixture.write('.vscode/tasks.json', JSON.stringify({ version: '2.0.0', tasks: [{ label: 'prep', type: 'shell', command: 'echo prep' }, { label: 'go', dependsOn: 'prep' }] }));
    const section = await importSection([{ from: 'tasks', exclude: ['prep'] }], options());
    assert.deepEqual(section.tools.map((tool) => tool.name), ['task-go']);
    const ran = await fixture.run(section.tools[0]!);
    assert.match(ran.text, /prep/);
  });
});
