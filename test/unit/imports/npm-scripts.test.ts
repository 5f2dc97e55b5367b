import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { importNpmScripts } from '../../../src/core/imports/import-npm';
import { MANAGER_CONFIG_FILES } from '../../../src/core/imports/manager-config';
import { platformNamed } from '../../../src/core/platform/platform';
import { ImportFixture, INJECTIONS, reasonFor, shellSpecOf, toolNamed, workspaceForEachTest } from './import-fixture';
import { WindowsDisk } from '../helpers/windows-disk';
import { BINS, NODE_INSTALLER_NPM_CMD, NODE_SHEBANG } from '../helpers/windows-shims';

const linux = platformNamed('linux');
let fixture: ImportFixture;
workspaceForEachTest((made) => (fixture = made));

function packageJson(fields: Record<string, unknown>): string {
  return JSON.stringify({ name: 'fixture', version: '1.0.0', ...fields }, null, 2);
}

const importHere = () => importNpmScripts({ folder: fixture.folder, platform: linux });

describe('npm scripts', () => {
  test('each script is a tool with an args array, at the line:column of its key', async () => {
    fixture.write('package.json', packageJson({ scripts: { test: 'node argv.js', 'test:unit': 'node argv.js unit' } }));
    const result = await importHere();
    assert.deepEqual(result.tools.map((tool) => tool.name), ['npm-test', 'npm-test-unit']);
    const tool = toolNamed(result, 'npm-test-unit');
    assert.deepEqual(tool.source, { file: 'package.json', line: 6, column: 5 });
    assert.deepEqual(tool.run, { kind: 'process', argv: ['npm', 'run', 'test:unit', '--', '{{args}}'] });
    assert.deepEqual(tool.inputSchema.properties?.['args'], { type: 'array', items: { type: 'string' }, description: 'Extra arguments for the script, each one argument (for example ["--watch=false", "src/a.test.ts"]).' });
    assert.match(tool.description, /"test:unit" with npm \(chosen by default/);
  });

  test('npm hands every args value to the script literally (a real npm run)', async () => {
    fixture.write('package.json', packageJson({ scripts: { show: 'node argv.js' } }));
    const tool = toolNamed(await importHere(), 'npm-show');
    const args = [...INJECTIONS, '--flag', 'two words'];
    const result = await fixture.run(tool, { args });
    assert.equal(result.isError, false, result.text);
    const printed = /^\[.*\]$/m.exec(result.text)?.[0] ?? result.text;
    assert.deepEqual(JSON.parse(printed), args);
    const none = await fixture.run(tool, {});
    assert.match(none.text, /^\[\]$/m);
  });

  test('the package manager comes from packageManager, else the lock file, else npm', async () => {
    fixture.write('package.json', packageJson({ scripts: { build: 'tsc' } }));
    assert.deepEqual(shellSpecOf(toolNamed(await importHere(), 'npm-build')).command, ['npm', 'run', 'build', '--', '{{args}}']);
    for (const [lock, manager] of [['pnpm-lock.yaml', 'pnpm'], ['yarn.lock', 'yarn'], ['bun.lockb', 'bun'], ['bun.lock', 'bun'], ['package-lock.json', 'npm']] as const) {
      const one = new ImportFixture().write('package.json', packageJson({ scripts: { build: 'tsc' } })).write(lock, '');
      try {
        const result = await importNpmScripts({ folder: one.folder, platform: linux });
        assert.equal(shellSpecOf(toolNamed(result, 'npm-build')).command?.[0], manager, lock);
        const presence = result.sources.filter((source) => source.presenceOnly === true && source.content !== null).map((source) => source.path);
        assert.deepEqual(presence, [lock]);
      } finally {
        one.dispose();
      }
    }
    fixture.write('package.json', packageJson({ packageManager: 'pnpm@9.12.0+sha512.abc', scripts: { build: 'tsc' } })).write('yarn.lock', '');
    const pinned = await importHere();
    assert.deepEqual(shellSpecOf(toolNamed(pinned, 'npm-build')).command, ['pnpm', 'run', 'build', '{{args}}']);
    // The field pins the manager: no lock file is a source, the managers' configuration still is.
    assert.deepEqual(pinned.sources.map((source) => source.path), ['package.json', ...MANAGER_CONFIG_FILES]);
  });

  test('the "//" key of scripts is a comment by npm\'s convention: neither a tool nor a problem', async () => {
    fixture.write('package.json', packageJson({ scripts: { '//': ['build: the bundle', 'test: all of them'], build: 'node argv.js' } }));
    const result = await importHere();
    assert.deepEqual(result.tools.map((tool) => tool.name), ['npm-build']);
    assert.deepEqual(result.notServed, []);
  });

  test('what cannot be a tool is not served, with the reason', async () => {
    fixture.write('package.json', packageJson({ scripts: { '-x': 'echo', '{{a}}': 'echo', '!!!': 'echo', num: 3 } }));
    const result = await importHere();
    assert.equal(result.tools.length, 0);
    assert.match(reasonFor(result, '-x'), /starts with "-"/);
    assert.match(reasonFor(result, '{{a}}'), /\{\{\.\.\.\}\}/);
    assert.match(reasonFor(result, '!!!'), /no letter or digit/);
    assert.match(reasonFor(result, 'num'), /not a string/);
  });

  test('no package.json is an absent source; a broken one is one entry', async () => {
    assert.deepEqual(await importHere(), { tools: [], notServed: [], sources: [{ path: 'package.json', content: null }] });
    fixture.write('package.json', '{ "scripts": ');
    assert.match(reasonFor(await importHere(), 'package.json'), /not valid JSON/);
  });
});

describe('npm scripts on Windows: the package manager\'s batch shim is not what runs', () => {
  const win32 = platformNamed('win32');
  const nodejs = 'C:\\Program Files\\nodejs';
  let disk: WindowsDisk;
  beforeEach(() => {
    disk = new WindowsDisk().write(`${nodejs}\\node.exe`, 'MZ').write(`${nodejs}\\npm.cmd`, NODE_INSTALLER_NPM_CMD);
  });
  afterEach(() => {
    disk.dispose();
  });
  const importOnWindows = () => importNpmScripts({ folder: fixture.folder, platform: win32, env: { Path: `C:\\Windows\\system32;${nodejs}` }, files: disk });

  test('npm.cmd of Node\'s installer: node.exe runs npm-cli.js, and the run (what approval shows), the spec and the description all say so', async () => {
    disk.write(`${nodejs}\\node_modules\\npm\\package.json`, JSON.stringify({ name: 'npm', bin: BINS.npm })).write(`${nodejs}\\node_modules\\npm\\bin\\npm-cli.js`, NODE_SHEBANG);
    fixture.write('package.json', packageJson({ scripts: { test: 'node argv.js' } }));
    const imported = await importOnWindows();
    const tool = toolNamed(imported, 'npm-test');
    const argv = [`${nodejs}\\node.exe`, `${nodejs}\\node_modules\\npm\\bin\\npm-cli.js`, 'run', 'test', '--', '{{args}}'];
    assert.deepEqual(tool.run, { kind: 'process', argv });
    assert.deepEqual(shellSpecOf(tool).command, argv);
    assert.deepEqual(imported.notServed, []);
    assert.ok(
      tool.description.endsWith(`Runs: '${nodejs}\\node.exe' '${nodejs}\\node_modules\\npm\\bin\\npm-cli.js' run test -- {{args}} (npm is the batch file ${nodejs}\\npm.cmd, which cannot take arguments safely: what it starts runs instead).`),
      tool.description,
    );
  });

  test('a shim whose program is not found: no script is served, each not-served reason says what was looked at', async () => {
    fixture.write('package.json', packageJson({ scripts: { test: 'node argv.js', lint: 'eslint .' } }));
    const imported = await importOnWindows();
    assert.deepEqual(imported.tools, []);
    for (const script of ['test', 'lint']) {
      assert.match(reasonFor(imported, script), /^npm is the batch file C:\\Program Files\\nodejs\\npm\.cmd, which cannot take the script's arguments safely \(CVE-2024-27980\), and what it starts could not be found to run instead: .*npm-cli\.js \(not a file\)/);
    }
  });
});
