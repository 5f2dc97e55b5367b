import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { folderRelativePath, NotGitRepositoryError, runGit } from '../../../src/core/builtins/git';
import { expandBraces, globPathspecs } from '../../../src/core/builtins/glob';
import type { TempDir, TempGitRepo } from '../helpers/git-repo';
import { folderOf, makeGitRepo, makeTempDir, toolContext } from '../helpers/git-repo';

describe('runGit', () => {
  let repo: TempGitRepo;
  let plain: TempDir;
  before(() => {
    repo = makeGitRepo();
    repo.commit('one', { 'ünïcode name.txt': 'x\n' });
    plain = makeTempDir();
  });
  after(() => {
    repo.cleanup();
    plain.cleanup();
  });

  test('prints non-ASCII paths as they are (core.quotepath=off)', async () => {
    const output = await runGit(folderOf(repo), ['ls-files'], toolContext([folderOf(repo)]));
    assert.equal(output.stdout, 'ünïcode name.txt\n');
    assert.equal(output.truncated, false);
  });

  test('throws NotGitRepositoryError outside a repository', async () => {
    await assert.rejects(runGit(folderOf(plain), ['status'], toolContext([folderOf(plain)])), NotGitRepositoryError);
  });

  test('reports other failures with git\'s message', async () => {
    await assert.rejects(
      runGit(folderOf(repo), ['show', 'no-such-ref'], toolContext([folderOf(repo)])),
      /git show failed in .*no-such-ref/,
    );
  });

  test('accepts the exit codes it is told to', async () => {
    const output = await runGit(folderOf(repo), ['grep', '-e', 'absent'], toolContext([folderOf(repo)]), {
      okExitCodes: [0, 1],
    });
    assert.equal(output.exitCode, 1);
  });

  test('honours cancellation', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      runGit(folderOf(repo), ['status'], toolContext([folderOf(repo)], { signal: controller.signal })),
      /cancelled/,
    );
  });

  test('strips the output-cap note and flags truncation', async () => {
    const output = await runGit(folderOf(repo), ['log', '--format=%H'], toolContext([folderOf(repo)], { limits: { maxOutputBytes: 10 } }));
    assert.equal(output.truncated, true);
    assert.equal(output.stdout, repo.git('log', '--format=%H').slice(0, 10));
  });

  test('a folder that does not exist is a clear error', async () => {
    const missing = { name: 'gone', path: `${plain.path}/missing` };
    await assert.rejects(runGit(missing, ['status'], toolContext([missing])), /folder does not exist/);
  });
});

describe('git path and glob checks', () => {
  const folder = { name: 'f', path: '/work/project' };

  test('folderRelativePath keeps paths inside the folder', () => {
    assert.equal(folderRelativePath('src/a.ts', folder), 'src/a.ts');
    assert.equal(folderRelativePath('/work/project/src', folder), 'src');
    assert.equal(folderRelativePath('.', folder), '.');
    assert.equal(folderRelativePath('src/../lib', folder), 'lib');
  });

  test('folderRelativePath refuses options, escapes and sibling prefixes', () => {
    assert.throws(() => folderRelativePath('--output=/tmp/x', folder), /starts with "-"/);
    assert.throws(() => folderRelativePath('..', folder), /outside/);
    assert.throws(() => folderRelativePath('/etc', folder), /outside/);
    assert.throws(() => folderRelativePath('/work/project-evil/x', folder), /outside/);
    assert.throws(() => folderRelativePath('a\0b', folder), /NUL/);
  });

  test('globPathspecs anchors, expands braces and covers directories', () => {
    assert.deepEqual(globPathspecs('*.ts'), [':(glob)**/*.ts', ':(glob)**/*.ts/**']);
    assert.deepEqual(globPathspecs('./src/*.{js,ts}'), [
      ':(glob)src/*.js',
      ':(glob)src/*.js/**',
      ':(glob)src/*.ts',
      ':(glob)src/*.ts/**',
    ]);
    assert.throws(() => globPathspecs('/etc/*'), /must stay inside the workspace folder/);
    // Checked per alternative, after expansion: `{..,.}` is `..` in one of them.
    assert.throws(() => globPathspecs('{..,.}/*'), /"\.\.\/\*" is absolute or contains "\.\."/);
  });

  test('expandBraces handles nesting and refuses explosions', () => {
    assert.deepEqual(expandBraces('a{b,{c,d}}e'), ['abe', 'ace', 'ade']);
    assert.deepEqual(expandBraces('a{b'), ['a{b']);
    assert.throws(() => expandBraces('{a,b}'.repeat(7)), /more than 64/);
  });
});
