import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gitDiffSummaryTool } from '../../../src/core/builtins';
import type { TempDir, TempGitRepo } from '../helpers/git-repo';
import { folderOf, withFixtureRepos, makeGitRepo, toolContext } from '../helpers/git-repo';

describe('git-diff-summary', () => {
  let repo: TempGitRepo;
  let plain: TempDir;
  withFixtureRepos((made) => ({ repo, plain } = made));

  test('summarizes unstaged changes only by default', async () => {
    const result = await gitDiffSummaryTool.run({}, toolContext([folderOf(repo)]));
    assert.equal(result.isError, false);
    assert.match(result.text, /^Unstaged changes/);
    assert.match(result.text, /src\/app\.ts \| 2 \+-/);
    assert.doesNotMatch(result.text, /util\.ts|notes\.txt/);
    assert.match(result.text, /1 file changed, 1 insertion\(\+\), 1 deletion\(-\)/);
  });

  test('summarizes staged changes with staged: true', async () => {
    const result = await gitDiffSummaryTool.run({ staged: true }, toolContext([folderOf(repo)]));
    assert.match(result.text, /^Staged changes/);
    assert.match(result.text, /src\/util\.ts \| 2 \+-/);
    assert.doesNotMatch(result.text, /app\.ts/);
  });

  test('keeps long paths whole', async () => {
    const long = `${'deeply-nested-directory/'.repeat(4)}a-file-with-a-rather-long-name.ts`;
    const wide = makeGitRepo();
    try {
      wide.commit('long', { [long]: 'a\n' });
      wide.write(long, 'b\n');
      const result = await gitDiffSummaryTool.run({}, toolContext([folderOf(wide)]));
      assert.ok(result.text.includes(long), result.text);
    } finally {
      wide.cleanup();
    }
  });

  test('says so when there are no changes', async () => {
    const clean = makeGitRepo();
    try {
      clean.commit('one', { 'a.txt': 'a\n' });
      const context = toolContext([folderOf(clean)]);
      assert.match((await gitDiffSummaryTool.run({}, context)).text, /^No unstaged changes/);
      assert.match((await gitDiffSummaryTool.run({ staged: true }, context)).text, /^No staged changes/);
    } finally {
      clean.cleanup();
    }
  });

  test('a folder that is not a repository is a clear error', async () => {
    // `git diff` outside a repository exits 129 with a usage text, not 128.
    await assert.rejects(
      gitDiffSummaryTool.run({}, toolContext([folderOf(plain)])),
      (error: Error) => error.message === `${plain.path} is not a git repository`,
    );
  });
});
