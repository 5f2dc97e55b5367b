// Each setting through which a repository's own config (a file the model can write) could make
// a read-only git tool start a program, planted with a program that leaves a marker file. The
// tools must answer and the marker must not exist.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { gitDiffSummaryTool, gitStatusTool } from '../../../src/core/builtins';
import { gitLogTool } from '../../../src/core/builtins/git-log';
import { workspaceInfoTool } from '../../../src/core/builtins/workspace-info';
import type { TempGitRepo } from '../helpers/git-repo';
import { folderOf, makeGitRepo, toolContext } from '../helpers/git-repo';

const POSIX = process.platform !== 'win32';

/** A repository with an executable `evil.sh` that creates `marker` when it runs. */
function plantedRepo(): { repo: TempGitRepo; script: string; marker: string } {
  const repo = makeGitRepo('wt-knob-');
  const marker = path.join(repo.path, 'marker');
  const script = path.join(repo.path, 'evil.sh');
  writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
  chmodSync(script, 0o755);
  return { repo, script, marker };
}

/** A partial clone whose HEAD's parent is missing, so walking the log asks for a lazy fetch. */
function partialCloneMissingParent(repo: TempGitRepo, remoteUrl: string): void {
  repo.commit('one', { 'a.txt': '1\n' });
  repo.commit('two', { 'a.txt': '2\n' });
  const parent = repo.git('rev-parse', 'HEAD~1').trim();
  rmSync(path.join(repo.path, '.git', 'objects', parent.slice(0, 2), parent.slice(2)));
  repo.git('config', 'core.repositoryformatversion', '1');
  repo.git('config', 'remote.origin.url', remoteUrl);
  repo.git('config', 'remote.origin.promisor', 'true');
  repo.git('config', 'extensions.partialClone', 'origin');
  // The repository allows the transports itself: protocol.<name>.allow beats protocol.allow.
  for (const protocol of ['ext', 'ssh', 'file']) {
    repo.git('config', `protocol.${protocol}.allow`, 'always');
  }
}

describe('the repository config runs no program from a read-only git tool', { skip: !POSIX }, () => {
  test('a filter driver whose name holds "=" (git splits -c at the first "=")', async () => {
    const { repo, script, marker } = plantedRepo();
    try {
      repo.commit('first', { 'a.txt': 'hi\n', '.gitattributes': '* filter=a=b\n' });
      for (const kind of ['clean', 'smudge', 'process']) {
        repo.git('config', `filter.a=b.${kind}`, script);
      }
      repo.write('a.txt', 'ho\n'); // same size and an old mtime: git must hash it through the filter
      utimesSync(path.join(repo.path, 'a.txt'), new Date(2001, 0, 1), new Date(2001, 0, 1));
      const context = toolContext([folderOf(repo)]);
      const status = await gitStatusTool.run({}, context);
      const diff = await gitDiffSummaryTool.run({}, context);
      assert.equal(existsSync(marker), false, 'a filter driver from .git/config ran');
      assert.match(status.text, /a\.txt/);
      assert.match(diff.text, /a\.txt/);
    } finally {
      repo.cleanup();
    }
  });

  test('core.fsmonitor', async () => {
    const { repo, script, marker } = plantedRepo();
    try {
      repo.commit('first', { 'a.txt': 'hi\n' });
      repo.git('config', 'core.fsmonitor', script);
      const status = await gitStatusTool.run({}, toolContext([folderOf(repo)]));
      assert.equal(existsSync(marker), false, 'the fsmonitor hook ran');
      assert.match(status.text, /Branch: main/);
    } finally {
      repo.cleanup();
    }
  });

  test('a partial clone fetching a missing object through an ext:: remote', async () => {
    const { repo, script, marker } = plantedRepo();
    try {
      partialCloneMissingParent(repo, `ext::${script}`);
      const context = toolContext([folderOf(repo)]);
      await gitLogTool.run({}, context).catch(() => undefined); // the missing commit is an error
      const info = await workspaceInfoTool.run({}, context);
      assert.equal(existsSync(marker), false, 'the ext:: remote command ran');
      assert.match(info.text, /git repository: yes/);
    } finally {
      repo.cleanup();
    }
  });

  test('a partial clone fetching over ssh with core.sshCommand', async () => {
    const { repo, script, marker } = plantedRepo();
    try {
      partialCloneMissingParent(repo, 'ssh://example.invalid/repo.git');
      repo.git('config', 'core.sshCommand', script);
      const context = toolContext([folderOf(repo)]);
      await gitLogTool.run({}, context).catch(() => undefined); // the missing commit is an error
      const info = await workspaceInfoTool.run({}, context);
      assert.equal(existsSync(marker), false, 'core.sshCommand ran');
      assert.match(info.text, /head: \w+ two/);
    } finally {
      repo.cleanup();
    }
  });

  test('log.showSignature with gpg.program on a signed commit', async () => {
    const { repo, script, marker } = plantedRepo();
    try {
      repo.commit('first', { 'a.txt': 'hi\n' });
      const tree = repo.git('rev-parse', 'HEAD^{tree}').trim();
      const signed = [
        `tree ${tree}`,
        'author Ada <a@example.com> 1714564800 +0000',
        'committer Ada <a@example.com> 1714564800 +0000',
        'gpgsig -----BEGIN PGP SIGNATURE-----',
        ' ',
        ' iQEzBAABCAAdFiEE',
        ' -----END PGP SIGNATURE-----',
        '',
        'signed commit',
        '',
      ].join('\n');
      writeFileSync(path.join(repo.path, 'commit.txt'), signed);
      const id = repo.git('hash-object', '-t', 'commit', '-w', 'commit.txt').trim();
      repo.git('update-ref', 'HEAD', id);
      repo.git('config', 'log.showSignature', 'true');
      repo.git('config', 'gpg.program', script);
      const log = await gitLogTool.run({}, toolContext([folderOf(repo)]));
      const info = await workspaceInfoTool.run({}, toolContext([folderOf(repo)]));
      assert.equal(existsSync(marker), false, 'gpg.program ran');
      assert.match(log.text, /signed commit/);
      assert.match(info.text, /signed commit/);
    } finally {
      repo.cleanup();
    }
  });
});
