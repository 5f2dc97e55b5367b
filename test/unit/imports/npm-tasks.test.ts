// tasks.json tasks of "type": "npm" (VS Code's own npm task provider), run as the npm-scripts
// importer runs a script: real files in a temp workspace, real npm runs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { importVsCodeTasks } from '../../../src/core/imports/import-tasks';
import { MANAGER_CONFIG_FILES } from '../../../src/core/imports/manager-config';
import { platformNamed } from '../../../src/core/platform/platform';
import type { ImportFixture} from './import-fixture';
import { reasonFor, toolNamed, workspaceForEachTest } from './import-fixture';

const linux = platformNamed('linux');
let fixture: ImportFixture;
workspaceForEachTest((made) => (fixture = made));

function packageJson(scripts: Record<string, unknown>, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ name: 'fixture', version: '1.0.0', ...fields, scripts }, null, 2);
}

async function imported(tasks: unknown[]) {
  fixture.write('.vscode/tasks.json', JSON.stringify({ version: '2.0.0', tasks }, null, 2));
  return importVsCodeTasks({ folder: fixture.folder, platform: linux, env: { GREETING: 'import-time value' }, home: '/home/someone' });
}

describe('tasks.json npm tasks', () => {
  test('an unlabelled npm task is named "npm: <script>", with " - <path>" for a package in a folder, and runs the script with npm there', async () => {
    fixture.write('package.json', packageJson({ greet: 'node argv.js root' }));
    fixture.write('sub/pkg/package.json', packageJson({ greet: 'node ../../argv.js sub' }));
    const result = await imported([
      { type: 'npm', script: 'greet' },
      { type: 'npm', script: 'greet', path: 'sub/pkg/' },
    ]);
    assert.deepEqual(result.tools.map((tool) => [tool.name, tool.taskName]), [['task-npm-greet', 'npm: greet'], ['task-npm-greet---sub-pkg', 'npm: greet - sub/pkg']]);
    const root = toolNamed(result, 'task-npm-greet');
    assert.deepEqual(root.run, { kind: 'process', argv: ['npm', 'run', 'greet'] });
    assert.deepEqual(root.inputSchema, { type: 'object', properties: {}, additionalProperties: false });
    assert.deepEqual(await fixture.argvOf(root, {}), ['root']);
    const sub = toolNamed(result, 'task-npm-greet---sub-pkg');
    assert.deepEqual(sub.run, { kind: 'process', argv: ['npm', 'run', 'greet'], cwd: 'sub/pkg' });
    assert.deepEqual(await fixture.argvOf(sub, {}), ['sub']);
  });

  test('approval covers each package.json, its lock files and its manager configuration; the manager is the package\'s own', async () => {
    fixture.write('package.json', packageJson({ a: 'node argv.js a' }));
    fixture.write('web/package.json', packageJson({ b: 'node ../argv.js b' }));
    fixture.write('web/pnpm-lock.yaml', '');
    fixture.write('web/.npmrc', 'script-shell=./shell.sh\n');
    const result = await imported([
      { label: 'A', type: 'npm', script: 'a' },
      { label: 'B', type: 'npm', script: 'b', path: 'web' },
    ]);
    const paths = result.sources.map((source) => source.path);
    for (const file of ['.vscode/tasks.json', 'package.json', 'package-lock.json', ...MANAGER_CONFIG_FILES, 'web/package.json', 'web/pnpm-lock.yaml', ...MANAGER_CONFIG_FILES.map((name) => `web/${name}`)]) {
      assert.ok(paths.includes(file), `${file} is not a source: ${paths.join(', ')}`);
    }
    assert.equal(result.sources.find((source) => source.path === 'web/.npmrc')?.content, 'script-shell=./shell.sh\n');
    assert.deepEqual(toolNamed(result, 'task-b').run, { kind: 'process', argv: ['pnpm', 'run', 'b'], cwd: 'web' });
    assert.ok(toolNamed(result, 'task-b').programFiles?.includes('web/shell.sh'), 'the script-shell in web/.npmrc is a program file of the tool');
    assert.ok(toolNamed(result, 'task-a').programFiles?.includes('argv.js'), 'the file the script runs is a program file of the tool');
  });

  test('a composite task runs the npm tasks it depends on by their VS Code labels, in order', async () => {
    fixture.write('package.json', packageJson({ one: 'node argv.js one' }));
    fixture.write('lib/package.json', packageJson({ two: 'node ../argv.js two' }));
    const result = await imported([
      { type: 'npm', script: 'one' },
      { label: 'two in lib', type: 'npm', script: 'two', path: 'lib' },
      { label: 'all', dependsOn: ['npm: one', 'two in lib'], dependsOrder: 'sequence' },
    ]);
    const all = toolNamed(result, 'task-all');
    assert.equal(all.run.kind, 'steps');
    const ran = await fixture.run(all, {});
    assert.equal(ran.isError, false, ran.text);
    assert.ok(ran.text.indexOf('["one"]') >= 0 && ran.text.indexOf('["one"]') < ran.text.indexOf('["two"]'), ran.text);
  });

  test('dependsOn runs the npm tasks VS Code provides without their being declared: by label or by definition; they are not tools of their own', async () => {
    fixture.write('package.json', packageJson({ one: 'node argv.js one', 'a - b': 'node argv.js dash' }));
    fixture.write('lib/package.json', packageJson({ two: 'node ../argv.js two' }));
    const result = await imported([
      { label: 'by label', dependsOn: ['npm: one', 'npm: two - lib', 'npm: a - b'], dependsOrder: 'sequence' },
      { label: 'by definition', dependsOn: [{ type: 'npm', script: 'two', path: 'lib/' }] },
      { label: 'unknown', dependsOn: ['npm: three'] },
    ]);
    assert.deepEqual(result.tools.map((tool) => tool.name), ['task-by-label', 'task-by-definition']);
    const ran = await fixture.run(toolNamed(result, 'task-by-label'), {});
    assert.equal(ran.isError, false, ran.text);
    assert.deepEqual([...ran.text.matchAll(/^\[.*\]$/gm)].map((match) => match[0]), ['["one"]', '["two"]', '["dash"]']);
    assert.deepEqual(await fixture.argvOf(toolNamed(result, 'task-by-definition'), {}), ['two']);
    assert.match(reasonFor(result, 'unknown'), /depends on "npm: three", which is not served: it runs the script "three" of package\.json, which declares no such script/);
    assert.ok(result.sources.some((source) => source.path === 'lib/package.json'), 'the package a dependency runs is approved with tasks.json');
  });

  test('what cannot be run is not served, with the reason: no script, no package.json, a path outside, a variable, a name npm would read as an option', async () => {
    fixture.write('package.json', packageJson({ '-x': 'node argv.js', ok: 'node argv.js' }));
    const result = await imported([
      { label: 'missing', type: 'npm', script: 'nope' },
      { label: 'nowhere', type: 'npm', script: 'ok', path: 'absent' },
      { label: 'outside', type: 'npm', script: 'ok', path: '../other' },
      { label: 'absolute', type: 'npm', script: 'ok', path: '/etc' },
      { label: 'variable', type: 'npm', script: 'ok', path: '${env:GREETING}' },
      { label: 'option', type: 'npm', script: '-x' },
      { label: 'empty', type: 'npm' },
      { label: 'uses missing', dependsOn: ['missing'] },
    ]);
    assert.deepEqual(result.tools.map((tool) => tool.name), []);
    assert.match(reasonFor(result, 'missing'), /the script "nope" of package\.json, which declares no such script/);
    assert.match(reasonFor(result, 'nowhere'), /absent\/package\.json, which does not exist/);
    assert.match(reasonFor(result, 'outside'), /not a folder inside the workspace folder/);
    assert.match(reasonFor(result, 'absolute'), /not a folder inside the workspace folder/);
    assert.match(reasonFor(result, 'variable'), /contains a variable/);
    assert.doesNotMatch(JSON.stringify(result), /import-time value/);
    assert.match(reasonFor(result, 'option'), /starts with "-"/);
    assert.match(reasonFor(result, 'empty'), /without a "script"/);
    assert.match(reasonFor(result, 'uses missing'), /depends on "missing", which is not served/);
  });
});
