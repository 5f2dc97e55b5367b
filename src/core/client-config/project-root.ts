/**
 * Where a project's client configuration belongs: the root of the git work tree that holds the
 * folder `init` runs in (a linked worktree's own root, whose `.git` is a file), so `init` from
 * `src/` writes `.mcp.json` beside `.git`, where Claude Code, Cursor and VS Code look for it.
 */
import { statSync } from 'node:fs';
import * as path from 'node:path';

/** The nearest folder from `start` upwards that has a `.git` entry, or undefined outside a repository. */
export function repositoryRootOf(start: string): string | undefined {
  let folder = path.resolve(start);
  for (;;) {
    if (statSync(path.join(folder, '.git'), { throwIfNoEntry: false }) !== undefined) {
      return folder;
    }
    const parent = path.dirname(folder);
    if (parent === folder) {
      return undefined;
    }
    folder = parent;
  }
}
