/**
 * The built-ins are built by createBuiltinTools from their dependencies (where ripgrep is, the git
 * filter cache), not from module-level state: two sets built with different dependencies act
 * differently in the same environment, and a set uses the cache it was given.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { builtinDependencies, createBuiltinTools, fixedRipgrep, ripgrepFromEnvironment } from '../../../src/core/builtins';
import type { BuiltinDependencies } from '../../../src/core/builtins';
import { GitFilterCache } from '../../../src/core/builtins/git-filter-cache';
import type { GitReader } from '../../../src/core/builtins/git-filter-cache';
import type { ToolDefinition } from '../../../src/core/types';
import { folderOf, makeGitRepo, toolContext } from '../helpers/git-repo';

/** A real filter cache that also counts the folders it was asked about. */
class CountingFilterCache extends GitFilterCache {
  readonly asked: string[] = [];

  override overridesFor(folderPath: string, env: Readonly<Record<string, string | undefined>>, git: GitReader): ReturnType<GitFilterCache['overridesFor']> {
    this.asked.push(folderPath);
    return super.overridesFor(folderPath, env, git);
  }
}

function tool(deps: BuiltinDependencies, name: string): ToolDefinition {
  const found = createBuiltinTools(deps).find((candidate) => candidate.name === name);
  assert.ok(found !== undefined, name);
  return found;
}

describe('createBuiltinTools', () => {
  const repo = makeGitRepo();
  repo.commit('one', { 'a.txt': 'needle\n' });
  repo.write('a.txt', 'needle changed\n');
  after(() => repo.cleanup());
  // No WORKSPACE_TOOLS_RIPGREP: only the dependencies choose the engine.
  const env = { ...process.env, WORKSPACE_TOOLS_RIPGREP: '' };
  const context = { ...toolContext([folderOf(repo)]), env };

  test('search-text searches with the ripgrep its dependencies name, or git grep without one', async () => {
    const rg = ripgrepFromEnvironment()(process.env);
    assert.ok(rg !== undefined, 'ripgrep is installed (scripts/test-unit.mjs installs it)');
    const withRipgrep = await tool(builtinDependencies({ ripgrep: fixedRipgrep(rg) }), 'search-text').run({ query: 'needle' }, context);
    const withGit = await tool(builtinDependencies({ ripgrep: fixedRipgrep(undefined) }), 'search-text').run({ query: 'needle' }, context);
    assert.equal(withRipgrep.structured?.['engine'], 'ripgrep');
    assert.equal(withGit.structured?.['engine'], 'git grep');
    assert.equal(withRipgrep.text, withGit.text);
  });

  test('git-status and git-diff-summary use the filter cache they were given; another set has its own', async () => {
    const cache = new CountingFilterCache();
    const deps = builtinDependencies({ gitFilters: cache });
    assert.equal((await tool(deps, 'git-status').run({}, context)).isError, false);
    assert.equal((await tool(deps, 'git-diff-summary').run({}, context)).isError, false);
    assert.deepEqual(cache.asked, [repo.path, repo.path]);
    await tool(builtinDependencies(), 'git-status').run({}, context);
    assert.equal(cache.asked.length, 2, 'a set built with other dependencies does not touch this cache');
  });
});
