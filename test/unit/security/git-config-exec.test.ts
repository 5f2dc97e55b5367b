// The read-only git tools run with no confirmation, so a program named in the repository's own
// config (which the model can write, with .gitattributes) must not run from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { gitDiffSummaryTool } from '../../../src/core/builtins/git-diff-summary';
import { gitStatusTool } from '../../../src/core/builtins/git-status';
import { folderOf, makeGitRepo, toolContext } from '../helpers/git-repo';

test('git-status and git-diff-summary do not run a filter driver from .git/config', { skip: process.platform === 'win32' }, async () => {
  const repo = makeGitRepo('wt-sec-filter-');
  try {
    repo.commit('first', { 'a.txt': 'hi\n', '.gitattributes': '* filter=evil\n' });
    const marker = path.join(repo.path, 'pwned');
    repo.git('config', 'filter.evil.clean', `touch '${marker}'; cat`);
    repo.git('config', 'filter.evil.process', `sh -c "touch '${marker}'"`);
    repo.write('a.txt', 'ho\n'); // same size: git compares content through the filter
    utimesSync(path.join(repo.path, 'a.txt'), new Date(2001, 0, 1), new Date(2001, 0, 1));
    const context = toolContext([folderOf(repo)]);
    const status = await gitStatusTool.run({}, context);
    const diff = await gitDiffSummaryTool.run({}, context);
    assert.equal(existsSync(marker), false, 'a filter from the repository config ran');
    assert.match(status.text, /a\.txt/);
    assert.match(diff.text, /a\.txt/);
  } finally {
    repo.cleanup();
  }
});
