/**
 * What the built-in tools depend on beyond a call's context, handed to their factories
 * (createBuiltinTools) instead of living in module-level state: where ripgrep is, and the cache
 * of each folder's git filter drivers. Each set of built-ins owns its caches.
 */
import { hostPlatform } from '../platform/platform';
import { ripgrepOnPath } from '../platform/ripgrep';
import { GitFilterCache } from './git-filter-cache';

/** The ripgrep search-text runs for a call's environment; undefined: search with `git grep`. */
export type RipgrepLocator = (env: Readonly<Record<string, string | undefined>>) => string | undefined;

/** The dependencies of the built-in tools. */
export interface BuiltinDependencies {
  readonly ripgrep: RipgrepLocator;
  /** Which filter drivers git-status and git-diff-summary switch off, per folder (git-filter-cache.ts). */
  readonly gitFilters: GitFilterCache;
}

/**
 * The ripgrep the call's environment chooses: WORKSPACE_TOOLS_RIPGREP when it names one ("off"
 * or "git" for none; the extension sets it to VS Code's own), else `rg` on PATH (rg.exe on
 * Windows), looked up once per PATH value by this locator: the hot path stats nothing.
 */
export function ripgrepFromEnvironment(): RipgrepLocator {
  const byPath = new Map<string, string | undefined>();
  return (env) => {
    const chosen = env['WORKSPACE_TOOLS_RIPGREP'];
    if (chosen !== undefined && chosen !== '') {
      return chosen === 'off' || chosen === 'git' ? undefined : chosen;
    }
    const searchPath = env['PATH'] ?? env['Path'] ?? '';
    if (!byPath.has(searchPath)) {
      byPath.set(searchPath, ripgrepOnPath(env, hostPlatform()));
    }
    return byPath.get(searchPath);
  };
}

/** This ripgrep (or none: `git grep`), whatever a call's environment says. */
export function fixedRipgrep(file: string | undefined): RipgrepLocator {
  return () => file;
}

/** Fresh dependencies: ripgrep from the environment and an empty filter cache, unless given. */
export function builtinDependencies(given: Partial<BuiltinDependencies> = {}): BuiltinDependencies {
  return { ripgrep: given.ripgrep ?? ripgrepFromEnvironment(), gitFilters: given.gitFilters ?? new GitFilterCache() };
}
