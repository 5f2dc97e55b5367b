/**
 * Imported tools in the OS sandbox (issue 34 items 6 and 7), one of each importer through the
 * real server in a private home: a tasks.json task, an npm script, a make target and a just
 * recipe. With the default tags (execute, write) a build-like one writes dist/ inside the
 * workspace and a test-like one passes; none can read ~/.ssh, write outside the workspace or
 * reach the network; an entry's `taskTags` makes one read-only.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { FETCH, SSH_KEY, needsSandbox, worldForFile } from './sandbox-world';

/** The real just (rust-just-linux-x64, as the importer tests use it), on the server's PATH. */
const JUST_DIR = path.join(path.dirname(createRequire(__filename).resolve('rust-just-linux-x64/package.json')), 'bin');

const TASKS = JSON.stringify({
  version: '2.0.0',
  tasks: [
    { label: 'build', type: 'shell', command: 'mkdir -p dist && echo task > dist/task.txt' },
    { label: 'leak', type: 'shell', command: 'cat "$HOME/.ssh/id_ed25519"' },
  ],
});

const PACKAGE = JSON.stringify({
  name: 'sandboxed-imports',
  private: true,
  scripts: {
    build: 'mkdir -p dist && echo npm > dist/npm.txt',
    test: 'node -e "require(\'assert\').strictEqual(1 + 1, 2)" && echo tests passed',
    leak: 'cat "$HOME/.ssh/id_ed25519"',
    lint: 'echo linted > lint.out',
    fetch: `node -e "${FETCH.replaceAll('"', '\\"')}"`,
  },
});

const MAKEFILE = ['build:', '\tmkdir -p dist && echo make > dist/make.txt', '', 'leak:', '\tcat "$$HOME/.ssh/id_ed25519"', '', 'escape:', '\techo x > "$$HOME/escaped.txt"', '', '.PHONY: build leak escape', ''].join('\n');

const JUSTFILE = ['build:', '    mkdir -p dist && echo just > dist/just.txt', '', 'leak:', '    cat "$HOME/.ssh/id_ed25519"', ''].join('\n');

const PLUGIN = JSON.stringify({
  name: 'imports',
  import: [{ from: 'tasks' }, { from: 'npm-scripts', taskTags: { lint: ['read'] } }, { from: 'make' }, { from: 'just' }],
});

/** The world, once the machine is known to sandbox (the test is skipped or failed otherwise). */
const started = worldForFile(() => ({
      files: { '.vscode/tasks.json': TASKS, 'package.json': PACKAGE, Makefile: MAKEFILE, justfile: JUSTFILE, '.vscode/tools/imports.json': PLUGIN },
      path: [JUST_DIR],
    }));

describe('imported tools in the OS sandbox', () => {
  test('every importer serves its tools', async () => {
    await needsSandbox();
    const names = await started().toolNames();
    for (const name of ['task-build', 'task-leak', 'npm-build', 'npm-test', 'npm-leak', 'make-build', 'make-leak', 'just-build', 'just-leak']) {
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    }
  });

  test('a build-like task, script, target and recipe write dist/ inside the workspace', async () => {
    await needsSandbox();
    const w = started();
    for (const [tool, file, text] of [
      ['task-build', 'task.txt', 'task'],
      ['npm-build', 'npm.txt', 'npm'],
      ['make-build', 'make.txt', 'make'],
      ['just-build', 'just.txt', 'just'],
    ] as const) {
      const result = await w.call(tool);
      assert.equal(result.isError, false, `${tool}: ${result.text}`);
      assert.equal(readFileSync(path.join(w.workspace.path, 'dist', file), 'utf8'), `${text}\n`, tool);
    }
  });

  test('a test-like npm script passes', async () => {
    await needsSandbox();
    const result = await started().call('npm-test');
    assert.equal(result.isError, false, result.text);
    assert.match(result.text, /tests passed/);
  });

  test('none of them can read ~/.ssh: the error says it is hidden', async () => {
    await needsSandbox();
    for (const tool of ['task-leak', 'npm-leak', 'make-leak', 'just-leak']) {
      const result = await started().call(tool);
      assert.equal(result.isError, true, `${tool}: ${result.text}`);
      assert.doesNotMatch(result.text, new RegExp(SSH_KEY), tool);
      assert.match(result.text, /- reading "~\/\.ssh\/id_ed25519": "~\/\.ssh" is hidden from every tool/, tool);
    }
  });

  test('a make target cannot write outside the workspace (the home)', async () => {
    await needsSandbox();
    const w = started();
    const result = await w.call('make-escape');
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /- writing "~\/escaped\.txt": it is outside the workspace folder/);
    assert.equal(existsSync(path.join(w.home.path, 'escaped.txt')), false);
  });

  test('an imported script has no network unless its entry says so', async () => {
    await needsSandbox();
    const w = started();
    const before = w.hits;
    const result = await w.call('npm-fetch', { args: [w.url] });
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /tag it "network"/);
    assert.equal(w.hits, before);
  });

  test('an entry\'s taskTags make one script read-only: it cannot write the workspace', async () => {
    await needsSandbox();
    const w = started();
    const result = await w.call('npm-lint');
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /- writing "lint\.out": the tool may write only its private temporary folder/);
    assert.equal(existsSync(path.join(w.workspace.path, 'lint.out')), false);
  });
});
