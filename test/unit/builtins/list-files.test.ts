import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { compileGlob } from '../../../src/core/builtins/glob';
import { listFilesTool } from '../../../src/core/builtins/list-files';
import type { TempDir, TempGitRepo } from '../helpers/git-repo';
import { folderOf, makeFixtureRepo, makeTempDir, toolContext } from '../helpers/git-repo';

/** The listed paths, without the header and notes. */
function paths(text: string): string[] {
  return text.split('\n').slice(1).filter((line) => !line.startsWith('['));
}

describe('list-files', () => {
  let repo: TempGitRepo;
  let plain: TempDir;
  before(() => {
    repo = makeFixtureRepo();
    repo.write('src/deep/nested/x.ts', 'x\n');
    plain = makeTempDir();
    plain.write('a.md', 'a\n');
    plain.write('docs/b.md', 'b\n');
    plain.write('docs/c.txt', 'c\n');
    plain.write('node_modules/pkg/index.js', 'x\n');
    plain.write('.git/config', 'not really\n');
  });
  after(() => {
    repo.cleanup();
    plain.cleanup();
  });

  test('lists tracked and untracked files, not ignored ones', async () => {
    const result = await listFilesTool.run({}, toolContext([folderOf(repo)]));
    assert.deepEqual(paths(result.text), [
      '.gitignore',
      'README.md',
      'notes.txt',
      'src/app.ts',
      'src/deep/nested/x.ts',
      'src/feature.ts',
      'src/util.ts',
    ]);
    assert.match(result.text, /^7 files \(tracked and untracked, not ignored\):/);
  });

  test('filters by glob: names at any depth, anchored paths, braces, directories', async () => {
    const context = toolContext([folderOf(repo)]);
    const run = async (glob: string): Promise<string[]> => paths((await listFilesTool.run({ glob }, context)).text);
    assert.deepEqual(await run('*.ts'), ['src/app.ts', 'src/deep/nested/x.ts', 'src/feature.ts', 'src/util.ts']);
    assert.deepEqual(await run('src/*.ts'), ['src/app.ts', 'src/feature.ts', 'src/util.ts']);
    assert.deepEqual(await run('src/**/x.ts'), ['src/deep/nested/x.ts']);
    assert.deepEqual(await run('{README.md,notes.txt}'), ['README.md', 'notes.txt']);
    assert.deepEqual(await run('src/deep'), ['src/deep/nested/x.ts']);
    assert.deepEqual(await run('*.log'), []);
    assert.match((await listFilesTool.run({ glob: '*.nothing' }, context)).text, /^No files matching "\*\.nothing"\.$/);
  });

  test('returns exactly maxResults paths when there are more, and says more exist', async () => {
    const result = await listFilesTool.run({ maxResults: 2 }, toolContext([folderOf(repo)]));
    const all = paths((await listFilesTool.run({}, toolContext([folderOf(repo)]))).text);
    const shown = paths(result.text);
    assert.equal(shown.length, 2);
    assert.ok(shown.every((file) => all.includes(file)), result.text);
    assert.match(result.text, /^Showing 2 of more than 2 files/);
    assert.match(result.text, /\[more than 2 files: the listing stopped after 2; narrow it with "glob"/);
  });

  test('the output cap bounds memory but never cuts the list', async () => {
    const result = await listFilesTool.run({}, toolContext([folderOf(repo)], { limits: { maxOutputBytes: 40 } }));
    assert.match(result.text, /^7 files/);
    assert.deepEqual(paths(result.text), paths((await listFilesTool.run({}, toolContext([folderOf(repo)]))).text));
  });

  test('refuses globs that leave the folder', async () => {
    for (const glob of ['../*', '/etc/*', 'src/../../x']) {
      await assert.rejects(listFilesTool.run({ glob }, toolContext([folderOf(repo)])), /must stay inside the workspace folder/, glob);
    }
  });

  test('walks a plain directory, skipping .git and node_modules and not following symlinks', async () => {
    const outside = makeTempDir();
    try {
      outside.write('secret.md', 's\n');
      symlinkSync(outside.path, path.join(plain.path, 'link'));
      const result = await listFilesTool.run({}, toolContext([folderOf(plain)]));
      assert.match(result.text, /not a git repository: directory walk/);
      assert.deepEqual(paths(result.text), ['a.md', 'docs/b.md', 'docs/c.txt', 'link']);
      const md = await listFilesTool.run({ glob: '*.md' }, toolContext([folderOf(plain)]));
      assert.deepEqual(paths(md.text), ['a.md', 'docs/b.md']);
    } finally {
      outside.cleanup();
    }
  });

  test('picks the folder by name', async () => {
    const folders = [folderOf(repo, 'repo'), folderOf(plain, 'plain')];
    const result = await listFilesTool.run({ folder: 'plain', glob: 'docs' }, toolContext(folders));
    assert.deepEqual(paths(result.text), ['docs/b.md', 'docs/c.txt']);
    await assert.rejects(listFilesTool.run({ folder: '7' }, toolContext(folders)), /Unknown workspace folder "7"/);
  });

  test('compileGlob follows the pathspec rules', () => {
    const matches = (glob: string, file: string): boolean => compileGlob(glob).matches(file);
    assert.equal(matches('*.ts', 'a/b/c.ts'), true);
    assert.equal(matches('src/*.ts', 'src/a/b.ts'), false);
    assert.equal(matches('src/**/*.ts', 'src/b.ts'), true);
    assert.equal(matches('src/**/*.ts', 'src/a/b.ts'), true);
    assert.equal(matches('file?.md', 'file1.md'), true);
    assert.equal(matches('file?.md', 'file/.md'), false);
    assert.equal(matches('*.{js,ts}', 'x/y.js'), true);
    assert.equal(matches('*.{js,ts}', 'x/y.md'), false);
    assert.equal(matches('[ab].txt', 'b.txt'), true);
    assert.equal(matches('a.b', 'axb'), false);
    assert.equal(matches('docs', 'docs/x/y.md'), true);
    assert.equal(matches('[!a].txt', 'a.txt'), false);
    assert.equal(matches('[a-c]?.md', 'b1.md'), true);
    assert.equal(matches('src/**', 'src/a/b/c.ts'), true);
    assert.equal(matches('**/test/*.ts', 'test/a.ts'), true);
    assert.equal(matches('a*b*c', 'aXbYc'), true);
    assert.equal(matches('a*b*c', 'aXbY'), false);
  });
});
