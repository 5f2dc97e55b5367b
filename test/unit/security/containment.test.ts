// A glob or a repository config must not make the read-only tools return anything outside the
// workspace folder: brace alternatives are checked after expansion, and a work tree set
// elsewhere by core.worktree is refused.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { gitDiffSummaryTool } from '../../../src/core/builtins';
import { gitStatusTool } from '../../../src/core/builtins';
import { listFilesTool } from '../../../src/core/builtins/list-files';
import { ripgrepPath } from '../../../src/core/builtins/search-engines';
import { searchTextTool } from '../../../src/core/builtins';
import { folderOf, makeGitRepo, makeTempDir, toolContext } from '../helpers/git-repo';

const POSIX = process.platform !== 'win32';

describe('results stay inside the workspace folder', () => {
  test('a folder inside a bigger repository: brace globs cannot reach the parent', async () => {
    const outer = makeGitRepo('wt-outer-');
    try {
      outer.commit('outer', { 'secret.txt': 'TOPSECRET outer\n', 'pkg/inside.txt': 'TOPSECRET inside\n' });
      outer.write('untracked-secret.txt', 'TOPSECRET untracked\n');
      outer.write('pkg/new.txt', 'new\n');
      const folder = { name: 'pkg', path: path.join(outer.path, 'pkg') };
      const context = toolContext([folder]);
      for (const glob of ['{..,.}/*', '{../..,.}/etc/passwd', 'x/{a,../..}/*', '{.,..}']) {
        await assert.rejects(searchTextTool.run({ query: 'TOPSECRET', glob }, context), /must stay inside the workspace folder/, glob);
        await assert.rejects(listFilesTool.run({ glob }, context), /must stay inside the workspace folder/, glob);
      }
      for (const WORKSPACE_TOOLS_RIPGREP of ['off', ripgrepPath(process.env) ?? 'ripgrep-is-not-installed']) {
        const search = await searchTextTool.run({ query: 'TOPSECRET' }, toolContext([folder], { env: { WORKSPACE_TOOLS_RIPGREP } }));
        assert.match(search.text, /^inside\.txt:1:/m);
        assert.doesNotMatch(search.text, /outer|untracked/);
      }
      const list = await listFilesTool.run({}, context);
      assert.doesNotMatch(list.text, /secret/);
      const status = await gitStatusTool.run({}, context);
      assert.match(status.text, /pkg\/new\.txt/);
      assert.doesNotMatch(status.text, /untracked-secret/);
    } finally {
      outer.cleanup();
    }
  });

  test('core.worktree=/ lists and searches only the folder', { skip: !POSIX }, async () => {
    const repo = makeGitRepo('wt-root-wt-');
    try {
      repo.commit('one', { 'a.txt': 'root:x hello\n' });
      repo.git('config', 'core.worktree', '/');
      const context = toolContext([folderOf(repo)]);
      await assert.rejects(
        searchTextTool.run({ query: 'root:', glob: '{../..,.}/etc/passwd' }, context),
        /must stay inside the workspace folder/,
      );
      // Both tools work, and answer with the folder's own file only (git sees it as untracked now).
      for (const WORKSPACE_TOOLS_RIPGREP of ['off', ripgrepPath(process.env) ?? 'ripgrep-is-not-installed']) {
        const search = await searchTextTool.run({ query: 'root:' }, toolContext([folderOf(repo)], { env: { WORKSPACE_TOOLS_RIPGREP } }));
        assert.doesNotMatch(search.text, /passwd|\/bin\//);
        assert.equal(search.text, '1 matching lines for the text "root:" (path:line:text):\na.txt:1:root:x hello', WORKSPACE_TOOLS_RIPGREP);
      }
      const list = await listFilesTool.run({ maxResults: 5000 }, context);
      assert.doesNotMatch(list.text, /etc\/|\.\.\//);
      assert.match(list.text, /^1 files \(tracked and untracked, not ignored\):\na\.txt$/);
    } finally {
      repo.cleanup();
    }
  });

  test('core.worktree pointing at another directory is refused, not listed', { skip: !POSIX }, async () => {
    const repo = makeGitRepo('wt-elsewhere-');
    const other = makeTempDir('wt-other-tree-');
    try {
      repo.commit('one', { 'a.txt': 'hello\n' });
      other.write('stolen.txt', 'TOPSECRET\n');
      repo.git('config', 'core.worktree', other.path);
      const context = toolContext([folderOf(repo)]);
      const refused = /does not contain the workspace folder/;
      await assert.rejects(listFilesTool.run({}, context), refused);
      await assert.rejects(listFilesTool.run({ glob: '*.txt' }, context), refused);
      // git grep refuses; ripgrep searches the folder's own files, where nothing matches.
      for (const WORKSPACE_TOOLS_RIPGREP of ['off', ripgrepPath(process.env) ?? 'ripgrep-is-not-installed']) {
        const searched = await searchTextTool
          .run({ query: 'TOPSECRET' }, toolContext([folderOf(repo)], { env: { WORKSPACE_TOOLS_RIPGREP } }))
          .then((result) => result.text, (error: unknown) => String(error));
        assert.doesNotMatch(searched, /stolen|TOPSECRET$/m);
        assert.match(searched, /does not contain the workspace folder|No matches/);
      }
      await assert.rejects(gitStatusTool.run({}, context), refused);
      await assert.rejects(gitDiffSummaryTool.run({}, context), refused);
    } finally {
      repo.cleanup();
      other.cleanup();
    }
  });
});
