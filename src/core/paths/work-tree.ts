/**
 * Git work trees as the file system shows them, without running git: the root of the work tree
 * that holds a folder (a linked worktree's own root, whose `.git` is a file), and every work tree
 * of the same repository (the main checkout and each linked worktree, from the repository's
 * `worktrees/<name>/gitdir` files). Used to serve the checkout a client starts the server in, and
 * to let an approval made in one checkout cover a file with the same content in another.
 */
import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** The nearest folder from `start` upwards that has a `.git` entry, or undefined outside a repository. */
export function workTreeRootOf(start: string): string | undefined {
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

/**
 * The folder a server started in `cwd` with `--workspace .` serves: `cwd` itself when it has plugin
 * files of its own (`.vscode/tools`) or is not in a git work tree; else the root of the work tree
 * that holds it. A client that starts servers in the folder its session works in (a subfolder,
 * a linked worktree) so serves that checkout: its plugin files, its files, its git state.
 */
export function sessionFolderOf(cwd: string): string {
  const folder = path.resolve(cwd);
  if (statSync(path.join(folder, '.vscode', 'tools'), { throwIfNoEntry: false })?.isDirectory() === true) {
    return folder;
  }
  return workTreeRootOf(folder) ?? folder;
}

/**
 * The roots of every work tree of the repository whose work tree `root` is (`root` among them):
 * the main checkout (unless the repository is bare) and each linked worktree git still lists.
 * Empty when `root` is not a work tree's root or its metadata cannot be read.
 */
export function workTreesOf(root: string): string[] {
  const common = commonDirOf(root);
  if (common === undefined) {
    return [];
  }
  const roots = new Set<string>();
  if (path.basename(common) === '.git') {
    roots.add(path.dirname(common));
  }
  const linked = path.join(common, 'worktrees');
  for (const name of safe(() => readdirSync(linked), [])) {
    // `gitdir` holds the absolute path of the worktree's `.git` file.
    const gitFile = safe(() => readFileSync(path.join(linked, name, 'gitdir'), 'utf8').trim(), '');
    if (gitFile !== '') {
      roots.add(path.dirname(path.resolve(linked, name, gitFile)));
    }
  }
  return [...roots];
}

/**
 * Where the file `file` (an absolute path in a git work tree) is in each other work tree of its
 * repository: the same path relative to each root. An approval is keyed by a file's real path,
 * and counts for another checkout only when its recorded hash is that file's (its content).
 */
export function sameFileInOtherWorkTrees(file: string): string[] {
  const root = workTreeRootOf(path.dirname(file));
  if (root === undefined) {
    return [];
  }
  const relative = path.relative(root, file);
  // Git writes the paths it was given; approvals are keyed by real paths.
  const real = (folder: string): string => safe(() => realpathSync(folder), path.resolve(folder));
  return workTreesOf(root)
    .map(real)
    .filter((other) => other !== real(root))
    .map((other) => path.join(other, relative));
}

/** The repository's common git directory for the work tree at `root` (its `.git`, or where a linked worktree's `.git` file points, up to `commondir`). */
function commonDirOf(root: string): string | undefined {
  const dotGit = path.join(root, '.git');
  const stats = statSync(dotGit, { throwIfNoEntry: false });
  if (stats?.isDirectory() === true) {
    return dotGit;
  }
  if (stats?.isFile() !== true) {
    return undefined;
  }
  const pointer = /^gitdir:\s*(.+)$/m.exec(safe(() => readFileSync(dotGit, 'utf8'), ''))?.[1]?.trim();
  if (pointer === undefined) {
    return undefined;
  }
  const gitDir = path.resolve(root, pointer);
  const commonDir = safe(() => readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim(), '');
  return commonDir === '' ? undefined : path.resolve(gitDir, commonDir);
}

function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
