import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { gitStatusTool } from '../../../src/core/builtins';
import type { TempDir, TempGitRepo } from '../helpers/git-repo';
import { folderOf, withFixtureRepos, makeGitRepo, toolContext } from '../helpers/git-repo';

describe('git-status', () => {
  let repo: TempGitRepo;
  let plain: TempDir;
  withFixtureRepos((made) => ({ repo, plain } = made));

  test('reports branch, staged, unstaged and untracked files, not ignored ones', async () => {
    const result = await gitStatusTool.run({}, toolContext([folderOf(repo)]));
    assert.equal(result.isError, false);
    const lines = result.text.split('\n');
    assert.equal(lines[0], 'Branch: main');
    assert.ok(lines.includes(' M src/app.ts'), result.text);
    assert.ok(lines.includes('M  src/util.ts'), result.text);
    assert.ok(lines.includes('?? notes.txt'), result.text);
    assert.doesNotMatch(result.text, /debug\.log|build\//);
  });

  test('limits the report to a path', async () => {
    const result = await gitStatusTool.run({ path: 'src' }, toolContext([folderOf(repo)]));
    assert.match(result.text, /src\/app\.ts/);
    assert.doesNotMatch(result.text, /notes\.txt/);
  });

  test('treats the path literally, not as a wildcard', async () => {
    const result = await gitStatusTool.run({ path: 'src/*.ts' }, toolContext([folderOf(repo)]));
    assert.match(result.text, /The working tree is clean \(no changes under "src\/\*\.ts"\)/);
  });

  test('says the working tree is clean when it is', async () => {
    const clean = makeGitRepo();
    try {
      clean.commit('only', { 'a.txt': 'a\n' });
      const result = await gitStatusTool.run({}, toolContext([folderOf(clean)]));
      assert.equal(result.text, 'Branch: main\nThe working tree is clean (no changes).');
    } finally {
      clean.cleanup();
    }
  });

  test('a folder that is not a repository is a clear error', async () => {
    await assert.rejects(
      gitStatusTool.run({}, toolContext([folderOf(plain)])),
      (error: Error) => error.message === `${plain.path} is not a git repository`,
    );
  });

  test('refuses a path that starts with "-" and writes nothing', async () => {
    const target = path.join(plain.path, 'x');
    await assert.rejects(
      gitStatusTool.run({ path: `--output=${target}` }, toolContext([folderOf(repo)])),
      /starts with "-"/,
    );
    assert.equal(existsSync(target), false);
  });

  test('refuses paths outside the folder', async () => {
    for (const outside of ['../', '/etc', 'src/../../x']) {
      await assert.rejects(
        gitStatusTool.run({ path: outside }, toolContext([folderOf(repo)])),
        /outside the workspace folder/,
        outside,
      );
    }
  });

  test('picks the folder by name and refuses unknown folders', async () => {
    const folders = [folderOf(plain, 'plain'), folderOf(repo, 'repo')];
    const result = await gitStatusTool.run({ folder: 'repo' }, toolContext(folders));
    assert.match(result.text, /\?\? notes\.txt/);
    await assert.rejects(gitStatusTool.run({ folder: 'nope' }, toolContext(folders)), /Unknown workspace folder "nope"/);
  });

  test('does not rewrite the index (no index lock taken)', async () => {
    // GIT_OPTIONAL_LOCKS=0: a plain `git status` would refresh stale stat data and rewrite
    // .git/index under index.lock, racing the user's own git commands.
    const fresh = makeGitRepo();
    try {
      fresh.commit('one', { 'a.txt': 'a\n' });
      const index = path.join(fresh.path, '.git', 'index');
      const old = new Date(Date.now() - 60_000);
      utimesSync(index, old, old);
      const before = statSync(index).mtimeMs;
      utimesSync(path.join(fresh.path, 'a.txt'), new Date(), new Date());
      await gitStatusTool.run({}, toolContext([folderOf(fresh)]));
      assert.equal(statSync(index).mtimeMs, before);
    } finally {
      fresh.cleanup();
    }
  });
});
