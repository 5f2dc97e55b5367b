/**
 * Where a project's client configuration belongs: the root of the git work tree that holds the
 * folder `init` runs in (a linked worktree's own root, whose `.git` is a file), so `init` from
 * `src/` writes `.mcp.json` beside `.git`, where the agents look for it.
 */
import { workTreeRootOf } from '../paths/work-tree';

/** The nearest folder from `start` upwards that has a `.git` entry, or undefined outside a repository. */
export function repositoryRootOf(start: string): string | undefined {
  return workTreeRootOf(start);
}
