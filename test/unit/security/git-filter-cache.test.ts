// git-status starts one git process per call once the folder's filter drivers are known, and a
// filter driver added afterwards (in the config or in a file it includes) is still switched off.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { gitDiffSummaryTool, gitStatusTool } from '../../../src/core/builtins';
import type { TempGitRepo } from '../helpers/git-repo';
import { folderOf, makeGitRepo, toolContext } from '../helpers/git-repo';

const POSIX = process.platform !== 'win32';

/** A `git` first on PATH that appends each invocation's first argument to a log, then runs git. */
function countingGit(): { env: Record<string, string>; calls: () => string[]; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'wt-git-wrapper-'));
  const log = path.join(dir, 'calls.log');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(path.join(dir, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${realGit}' "$@"\n`);
  chmodSync(path.join(dir, 'git'), 0o755);
  return {
    env: { PATH: `${dir}${path.delimiter}${process.env['PATH'] ?? ''}` },
    calls: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((line) => line !== '') : []),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Config files must be older than the run that reads them before an answer is remembered. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1100));

function plantFilter(repo: TempGitRepo, configFile: string): string {
  const marker = path.join(repo.path, 'marker');
  const script = path.join(repo.path, 'evil.sh');
  writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
  chmodSync(script, 0o755);
  repo.git('config', '--file', configFile, 'filter.late.clean', script);
  repo.write('a.txt', 'ho\n'); // same size, old mtime: git hashes it through the filter
  utimesSync(path.join(repo.path, 'a.txt'), new Date(2001, 0, 1), new Date(2001, 0, 1));
  return marker;
}

describe('the filter-driver overrides are remembered safely', { skip: !POSIX }, () => {
  test('a warm git-status or git-diff-summary call starts exactly one git process', async () => {
    const repo = makeGitRepo('wt-one-process-');
    const wrapper = countingGit();
    try {
      repo.commit('one', { 'a.txt': 'hi\n' });
      repo.write('a.txt', 'changed\n');
      await settle();
      const context = toolContext([folderOf(repo)], { env: wrapper.env });
      await gitStatusTool.run({}, context);
      const cold = wrapper.calls().length;
      // The user's own git writes inside .git meanwhile (the index, a lock): still one process.
      repo.git('status');
      repo.git('update-index', '-q', '--refresh');
      const status = await gitStatusTool.run({}, context);
      assert.deepEqual(wrapper.calls().slice(cold), ['status']);
      assert.match(status.text, /a\.txt/);
      const before = wrapper.calls().length;
      await gitDiffSummaryTool.run({}, context);
      assert.deepEqual(wrapper.calls().slice(before), ['diff']);
    } finally {
      wrapper.cleanup();
      repo.cleanup();
    }
  });

  test('a filter added to .git/config after a warm call is switched off too', async () => {
    const repo = makeGitRepo('wt-late-filter-');
    try {
      repo.commit('one', { 'a.txt': 'hi\n', '.gitattributes': '* filter=late\n' });
      await settle();
      const context = toolContext([folderOf(repo)]);
      await gitStatusTool.run({}, context);
      await gitStatusTool.run({}, context);
      const marker = plantFilter(repo, path.join(repo.path, '.git', 'config'));
      const status = await gitStatusTool.run({}, context);
      await gitDiffSummaryTool.run({}, context);
      assert.equal(existsSync(marker), false, 'a filter added after the cache was filled ran');
      assert.match(status.text, /a\.txt/);
    } finally {
      repo.cleanup();
    }
  });

  test('a filter written into a file the config includes (absent until then) is switched off too', async () => {
    const repo = makeGitRepo('wt-include-filter-');
    try {
      repo.commit('one', { 'a.txt': 'hi\n', '.gitattributes': '* filter=late\n' });
      repo.git('config', 'include.path', 'later.config');
      await settle();
      const context = toolContext([folderOf(repo)]);
      await gitStatusTool.run({}, context);
      await gitStatusTool.run({}, context);
      const marker = plantFilter(repo, path.join(repo.path, '.git', 'later.config'));
      await gitStatusTool.run({}, context);
      await gitDiffSummaryTool.run({}, context);
      assert.equal(existsSync(marker), false, 'a filter from a newly written included file ran');
    } finally {
      repo.cleanup();
    }
  });
});
