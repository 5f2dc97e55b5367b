import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { gitLogTool } from '../../../src/core/builtins/git-log';
import type { TempDir, TempGitRepo } from '../helpers/git-repo';
import { folderOf, withFixtureRepos, makeGitRepo, toolContext } from '../helpers/git-repo';

describe('git-log', () => {
  let repo: TempGitRepo;
  let plain: TempDir;
  withFixtureRepos((made) => ({ repo, plain } = made));

  test('lists commits newest first with hash, date, author and subject', async () => {
    const result = await gitLogTool.run({}, toolContext([folderOf(repo)]));
    const lines = result.text.split('\n');
    assert.equal(lines[0], '2 most recent commits (hash | date | author | subject):');
    const head = repo.git('rev-parse', '--short', 'HEAD').trim();
    assert.match(lines[1] ?? '', new RegExp(`^${head} \\| 2024-05-01T12:00:00\\+00:00 \\| Ada Tester \\| Add feature module$`));
    assert.match(lines[2] ?? '', /\| Initial commit$/);
  });

  test('honours maxCount', async () => {
    const result = await gitLogTool.run({ maxCount: 1 }, toolContext([folderOf(repo)]));
    assert.equal(result.text.split('\n').length, 2);
    assert.match(result.text, /Add feature module/);
  });

  test('limits commits to a path', async () => {
    const result = await gitLogTool.run({ path: 'README.md' }, toolContext([folderOf(repo)]));
    assert.match(result.text, /Initial commit/);
    assert.doesNotMatch(result.text, /Add feature module/);
    const none = await gitLogTool.run({ path: 'notes.txt' }, toolContext([folderOf(repo)]));
    assert.equal(none.text, 'No commits touching "notes.txt".');
  });

  test('refuses a path that starts with "-" and writes nothing', async () => {
    const target = path.join(plain.path, 'log-out');
    await assert.rejects(
      gitLogTool.run({ path: `--output=${target}` }, toolContext([folderOf(repo)])),
      /starts with "-"/,
    );
    assert.equal(existsSync(target), false);
  });

  test('refuses a path outside the folder', async () => {
    await assert.rejects(gitLogTool.run({ path: '/etc/passwd' }, toolContext([folderOf(repo)])), /outside/);
  });

  test('a repository without commits is an answer, not an error', async () => {
    const empty = makeGitRepo();
    try {
      const result = await gitLogTool.run({}, toolContext([folderOf(empty)]));
      assert.equal(result.text, 'The repository has no commits yet.');
    } finally {
      empty.cleanup();
    }
  });

  test('a folder that is not a repository is a clear error', async () => {
    await assert.rejects(gitLogTool.run({}, toolContext([folderOf(plain)])), /is not a git repository/);
  });

  test('the schema bounds maxCount to 1..200 with default 20', () => {
    const maxCount = gitLogTool.inputSchema.properties?.['maxCount'];
    assert.deepEqual(
      typeof maxCount === 'object' ? [maxCount['minimum'], maxCount['maximum'], maxCount['default']] : [],
      [1, 200, 20],
    );
  });
});
