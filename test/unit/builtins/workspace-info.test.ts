import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRemotes, workspaceInfoTool } from '../../../src/core/builtins/workspace-info';
import { redactUrl } from '../../../src/core/redact';
import type { TempDir, TempGitRepo } from '../helpers/git-repo';
import { folderOf, makeFixtureRepo, makeGitRepo, makeTempDir, toolContext } from '../helpers/git-repo';

describe('workspace-info', () => {
  let repo: TempGitRepo;
  let plain: TempDir;
  before(() => {
    repo = makeFixtureRepo();
    repo.git('remote', 'add', 'origin', 'https://ada:s3cret-token@example.com/team/app.git');
    repo.git('remote', 'add', 'mirror', 'git@example.org:team/app.git');
    plain = makeTempDir();
  });
  after(() => {
    repo.cleanup();
    plain.cleanup();
  });

  test('describes every folder: a repository with remotes and a plain directory', async () => {
    const folders = [folderOf(repo, 'app'), folderOf(plain, 'notes')];
    const result = await workspaceInfoTool.run({}, toolContext(folders));
    assert.equal(result.isError, false);
    const head = repo.git('rev-parse', '--short', 'HEAD').trim();
    const [header, app, notes] = result.text.split('\n\n');
    assert.equal(header, '2 workspace folders (the first is the default for other tools):');
    assert.equal(
      app,
      [
        `app: ${repo.path}`,
        `  git repository: yes (root ${repo.path})`,
        '  branch: main',
        `  head: ${head} Add feature module`,
        '  remotes:',
        '    mirror git@example.org:team/app.git',
        '    origin https://ada:***@example.com/team/app.git',
      ].join('\n'),
    );
    assert.equal(notes, `notes: ${plain.path}\n  git repository: no`);
    assert.doesNotMatch(result.text, /s3cret/);
  });

  test('describes one folder when asked, and refuses an unknown one', async () => {
    const folders = [folderOf(repo, 'app'), folderOf(plain, 'notes')];
    const result = await workspaceInfoTool.run({ folder: 'notes' }, toolContext(folders));
    assert.match(result.text, /^1 workspace folder /);
    assert.doesNotMatch(result.text, /app:/);
    await assert.rejects(workspaceInfoTool.run({ folder: 'other' }, toolContext(folders)), /Unknown workspace folder/);
  });

  test('reports a fresh repository and a detached HEAD', async () => {
    const empty = makeGitRepo();
    const detached = makeGitRepo();
    try {
      detached.commit('first', { 'a.txt': 'a\n' });
      detached.git('checkout', '-q', '--detach');
      const result = await workspaceInfoTool.run({}, toolContext([folderOf(empty, 'empty'), folderOf(detached, 'det')]));
      const [, emptyPart, detachedPart] = result.text.split('\n\n');
      assert.match(emptyPart ?? '', /branch: main\n {2}head: \(no commits yet\)\n {2}remotes: none/);
      assert.match(detachedPart ?? '', /branch: \(detached HEAD\)\n {2}head: [0-9a-f]+ first/);
    } finally {
      empty.cleanup();
      detached.cleanup();
    }
  });

  test('parseRemotes folds fetch and push lines and redacts passwords', () => {
    const output = 'origin\thttps://u:p@h/x (fetch)\norigin\thttps://u:p@h/x (push)\nup\t/srv/x.git (fetch)\n';
    assert.deepEqual(parseRemotes(output), ['origin https://u:***@h/x', 'up /srv/x.git']);
    assert.equal(redactUrl('ssh://git@host:22/x.git'), 'ssh://git@host:22/x.git');
  });
});
