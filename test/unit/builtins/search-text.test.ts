import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { ripgrepPath } from '../../../src/core/builtins/search-engines';
import { searchTextTool } from '../../../src/core/builtins';
import type { ExecutionLimits, ToolRunContext, WorkspaceFolder } from '../../../src/core/types';
import type { TempDir, TempGitRepo } from '../helpers/git-repo';
import { folderOf, makeFixtureRepo, makeTempDir, toolContext as gitRepoContext } from '../helpers/git-repo';

/** The `path:line:text` lines, without the header and notes. */
function matches(text: string): string[] {
  return text.split('\n').slice(1).filter((line) => !line.startsWith('['));
}

/**
 * Both engines must give the same answers: ripgrep (required here: `npm run test:unit` installs
 * it when the machine has apt) and git grep (WORKSPACE_TOOLS_RIPGREP=off).
 */
const RIPGREP = ripgrepPath(process.env);
const ENGINES = [
  { name: 'git grep', env: { WORKSPACE_TOOLS_RIPGREP: 'off' } },
  { name: 'ripgrep', env: { WORKSPACE_TOOLS_RIPGREP: RIPGREP ?? 'ripgrep-is-not-installed' } },
];

for (const engine of ENGINES) {
const toolContext = (
  folders: readonly WorkspaceFolder[],
  overrides: { limits?: Partial<ExecutionLimits>; signal?: AbortSignal } = {},
): ToolRunContext => gitRepoContext(folders, { ...overrides, env: engine.env });

describe(`search-text (${engine.name})`, () => {
  let repo: TempGitRepo;
  let plain: TempDir;
  before(() => {
    repo = makeFixtureRepo();
    repo.write('src/flags.ts', '--output=/tmp/x is a flag\na.b literal\naxb other\nHELLO upper\n');
    repo.write('image.bin', 'hello\0binary\n');
    plain = makeTempDir();
    plain.write('readme.txt', 'plain hello here\n');
    plain.write('node_modules/dep/index.js', 'hello from a dependency\n');
  });
  after(() => {
    repo.cleanup();
    plain.cleanup();
  });

  test('finds text in tracked and untracked files, not in ignored or binary ones', async () => {
    const result = await searchTextTool.run({ query: 'hello', caseSensitive: true }, toolContext([folderOf(repo)]));
    assert.equal(result.isError, false);
    assert.deepEqual(matches(result.text), ['notes.txt:1:untracked notes: hello', 'src/app.ts:1:export const app = "hello changed world";']);
    assert.match(result.text, /^2 matching lines for the text "hello"/);
  });

  test('is case-insensitive by default', async () => {
    const result = await searchTextTool.run({ query: 'hello' }, toolContext([folderOf(repo)]));
    assert.ok(matches(result.text).includes('src/flags.ts:4:HELLO upper'), result.text);
  });

  test('treats the query literally unless regex is set', async () => {
    const context = toolContext([folderOf(repo)]);
    const literal = await searchTextTool.run({ query: 'a.b' }, context);
    assert.deepEqual(matches(literal.text), ['src/flags.ts:2:a.b literal']);
    const regex = await searchTextTool.run({ query: '^a.b ', regex: true }, context);
    assert.deepEqual(matches(regex.text), ['src/flags.ts:2:a.b literal', 'src/flags.ts:3:axb other']);
    const classes = await searchTextTool.run({ query: 'return [0-9]+;', regex: true, glob: 'src/*.ts' }, context);
    assert.deepEqual(matches(classes.text), ['src/util.ts:2:  return 2;']);
  });

  test('a query starting with "-" is a pattern, never an option', async () => {
    const result = await searchTextTool.run({ query: '--output=/tmp/x' }, toolContext([folderOf(repo)]));
    assert.deepEqual(matches(result.text), ['src/flags.ts:1:--output=/tmp/x is a flag']);
  });

  test('honours the glob', async () => {
    const result = await searchTextTool.run({ query: 'hello', glob: '*.txt' }, toolContext([folderOf(repo)]));
    assert.deepEqual(matches(result.text), ['notes.txt:1:untracked notes: hello']);
  });

  test('says so when nothing matches', async () => {
    const result = await searchTextTool.run({ query: 'no such text anywhere' }, toolContext([folderOf(repo)]));
    assert.equal(result.isError, false);
    assert.equal(result.text, 'No matches for the text "no such text anywhere".');
  });

  test('returns exactly maxResults lines when there are more, and says more exist', async () => {
    const result = await searchTextTool.run({ query: 'e', maxResults: 2 }, toolContext([folderOf(repo)]));
    assert.equal(matches(result.text).length, 2);
    assert.match(result.text, /^Showing the first 2 matching lines for the text "e"/);
    assert.match(result.text, /\[more than 2 matching lines: the search stopped after 2;/);
  });

  test('an invalid regular expression is an error that quotes git', async () => {
    await assert.rejects(
      searchTextTool.run({ query: 'x(', regex: true }, toolContext([folderOf(repo)])),
      /Unmatched \(|unclosed group/,
    );
  });

  test('refuses multi-line queries and globs outside the folder', async () => {
    const context = toolContext([folderOf(repo)]);
    await assert.rejects(searchTextTool.run({ query: 'a\nb' }, context), /single line/);
    await assert.rejects(searchTextTool.run({ query: 'a', glob: '../**' }, context), /must stay inside the workspace folder/);
  });

  test('searches a plain directory without git, skipping node_modules and symlinks out', async () => {
    const outside = makeTempDir();
    try {
      outside.write('secret.txt', 'hello from outside\n');
      symlinkSync(outside.path, path.join(plain.path, 'link-dir'));
      symlinkSync(path.join(outside.path, 'secret.txt'), path.join(plain.path, 'link-file'));
      const result = await searchTextTool.run({ query: 'hello' }, toolContext([folderOf(plain)]));
      assert.deepEqual(matches(result.text), ['readme.txt:1:plain hello here']);
    } finally {
      outside.cleanup();
    }
  });

  test('picks the folder by name', async () => {
    const folders = [folderOf(repo, 'repo'), folderOf(plain, 'plain')];
    const result = await searchTextTool.run({ query: 'plain', folder: 'plain' }, toolContext(folders));
    assert.deepEqual(matches(result.text), ['readme.txt:1:plain hello here']);
  });
});
}
