// search-text and list-files at scale: more matches than fit under the output cap, minified
// lines, and the program stopped as soon as there are enough. Both search engines.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { listFilesTool } from '../../../src/core/builtins/list-files';
import { ripgrepPath } from '../../../src/core/builtins/search-engines';
import { searchTextTool } from '../../../src/core/builtins';
import { descendantsIn, procParentMap } from '../../../src/core/platform/process-table';

/** Every live descendant of `root` in /proc. */
const descendantsOf = (root: number): number[] => descendantsIn(procParentMap() ?? new Map(), root);
import type { TempGitRepo } from '../helpers/git-repo';
import { folderOf, makeGitRepo, toolContext } from '../helpers/git-repo';

const FILES = 300;
/** Matches per file: one short line and one minified 200 KB line, plus a tail of short ones. */
const MATCHES_PER_FILE = 4;
const MINIFIED = `${'x'.repeat(100_000)} NEEDLE ${'y'.repeat(100_000)}`;

function fileText(index: number): string {
  return [`const a${index} = "NEEDLE";`, MINIFIED, 'nothing here', `// NEEDLE ${index}`, `NEEDLE again ${index}`, ''].join('\n');
}

const ENGINES = [
  { name: 'git grep', env: { WORKSPACE_TOOLS_RIPGREP: 'off' } },
  { name: 'ripgrep', env: { WORKSPACE_TOOLS_RIPGREP: ripgrepPath(process.env) ?? 'ripgrep-is-not-installed' } },
];

describe('search-text and list-files return exactly what was asked', () => {
  let repo: TempGitRepo;
  before(() => {
    repo = makeGitRepo('wt-scale-');
    const files: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) {
      files[`pkg/file-${String(i).padStart(4, '0')}.js`] = fileText(i);
    }
    repo.commit('many files', files);
  });
  after(() => repo.cleanup());

  for (const engine of ENGINES) {
    // A 64 KB output cap: the old code cut git's output there and returned a fraction.
    const context = (): ReturnType<typeof toolContext> =>
      toolContext([folderOf(repo)], { env: engine.env, limits: { maxOutputBytes: 64 * 1024 } });

    test(`${engine.name}: maxResults below the total gives exactly maxResults, long lines shortened`, async () => {
      const result = await searchTextTool.run({ query: 'needle', maxResults: 1000 }, context());
      const lines = result.text.split('\n').filter((line) => line.startsWith('pkg/'));
      assert.equal(lines.length, 1000);
      assert.match(result.text, /^Showing the first 1000 matching lines/);
      assert.ok(lines.some((line) => line.endsWith('[line shortened]')), 'a minified line is shortened, not dropped');
      assert.ok(lines.every((line) => line.length < 400), 'no line is longer than the shortened form');
    });

    test(`${engine.name}: maxResults above the total gives the true total`, async () => {
      const result = await searchTextTool.run({ query: 'needle', maxResults: 1000, glob: 'pkg/file-00[0-9][0-9].js' }, context());
      const lines = result.text.split('\n').filter((line) => line.startsWith('pkg/'));
      assert.equal(lines.length, 100 * MATCHES_PER_FILE);
      assert.match(result.text, new RegExp(`^${100 * MATCHES_PER_FILE} matching lines`));
    });

    test(`${engine.name}: the search program is stopped once there are enough, and none is left running`, async () => {
      const result = await searchTextTool.run({ query: 'needle', maxResults: 1 }, context());
      assert.match(result.text, /^Showing the first 1 matching lines/);
      assert.deepEqual(descendantsOf(process.pid), []);
    });
  }

  test('list-files: exactly maxResults names when there are more, and the true count otherwise', async () => {
    const limited = await listFilesTool.run({ maxResults: 50 }, toolContext([folderOf(repo)], { limits: { maxOutputBytes: 1024 } }));
    const names = limited.text.split('\n').filter((line) => line.startsWith('pkg/'));
    assert.equal(names.length, 50);
    assert.match(limited.text, /more than 50 files/);
    const all = await listFilesTool.run({ maxResults: 5000 }, toolContext([folderOf(repo)], { limits: { maxOutputBytes: 1024 } }));
    assert.equal(all.text.split('\n').filter((line) => line.startsWith('pkg/')).length, FILES);
    assert.match(all.text, new RegExp(`^${FILES} files`));
    assert.deepEqual(descendantsOf(process.pid), []);
  });
});
