import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { sameFileInOtherWorkTrees, sessionFolderOf, workTreeRootOf, workTreesOf } from '../../../src/core/paths/work-tree';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo';

describe('git work trees, read from the file system', () => {
  test('a linked worktree is a work tree of its own; the repository lists the main checkout and each linked one', () => {
    const repo = makeGitRepo('wt-trees-');
    const linked = `${repo.path}-linked`;
    try {
      repo.commit('first', { 'src/a.txt': 'a\n', 'pkg/.vscode/tools/own.json': '{}' });
      repo.git('worktree', 'add', '-q', '-b', 'side', linked);
      assert.equal(workTreeRootOf(path.join(linked, 'src')), linked);
      assert.deepEqual(workTreesOf(linked).sort(), [repo.path, linked].sort());
      assert.deepEqual(workTreesOf(repo.path).sort(), [repo.path, linked].sort());
      assert.deepEqual(sameFileInOtherWorkTrees(path.join(linked, '.vscode/tools/t.json')), [path.join(repo.path, '.vscode/tools/t.json')]);
    } finally {
      repo.cleanup();
      rmSync(linked, { recursive: true, force: true });
    }
  });

  test('the session folder: the work tree root from a subfolder; a subfolder with plugin files of its own, or a folder outside git, as it is', () => {
    const repo = makeGitRepo('wt-session-');
    const outside = makeTempDir('wt-outside-');
    try {
      repo.commit('first', { 'src/deep/a.txt': 'a\n', 'packages/app/.vscode/tools/own.json': '{}' });
      assert.equal(sessionFolderOf(path.join(repo.path, 'src', 'deep')), repo.path);
      assert.equal(sessionFolderOf(path.join(repo.path, 'packages', 'app')), path.join(repo.path, 'packages', 'app'));
      assert.equal(sessionFolderOf(outside.path), outside.path);
      assert.deepEqual(workTreesOf(outside.path), []);
    } finally {
      repo.cleanup();
      outside.cleanup();
    }
  });
});
