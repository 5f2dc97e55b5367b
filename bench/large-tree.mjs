/**
 * The large-tree fixture: a git repository of at least `files` regular files copied from the
 * worktree's own node_modules (real package sources: JavaScript, TypeScript declarations, JSON,
 * Markdown, source maps), committed once, then `modified` tracked text files with one line
 * appended. Made once per bench run in a temp directory that the caller removes.
 *
 * node_modules holds fewer files than a large tree needs (~15,000 here), so it is copied in
 * passes, `deps-1/`, `deps-2/`, ..., until the count is reached: a monorepo with vendored copies.
 * Files over MAX_FILE_BYTES (compilers, native binaries, bundles of megabytes) are left out, so
 * the copy stays ~75 MB per 15,000 files and building the tree takes well under a minute.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Larger files are not copied (a handful: native binaries, typescript.js, playwright bundles). */
export const MAX_FILE_BYTES = 256 * 1024;

/**
 * A file only one search engine finds with `query` (a regex): `\d` is a digit to ripgrep (Rust
 * syntax) and not to git grep's POSIX extended syntax. It tells the two servers' engines apart.
 */
export const ENGINE_PROBE = { file: 'engine-probe.txt', text: 'wt-bench-engine-probe-123', query: 'wt-bench-engine-probe-\\d{3}' };

/** Text files that get the appended line (binary files would show as `Bin` in `git diff --stat`). */
const TEXT_FILE = /\.(js|cjs|mjs|ts|json|md)$/;

/**
 * The environment of every git command that builds the tree: no system or global config, a fixed
 * identity and date, so the commit is the same on every machine and run.
 */
export const BUILD_GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.invalid',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

/** Regular files under `dir` (no symlinks), relative, in a stable order. */
function regularFiles(dir, prefix = '') {
  const out = [];
  const entries = readdirSync(join(dir, prefix), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      out.push(...regularFiles(dir, relative));
    } else if (entry.isFile() && statSync(join(dir, relative)).size <= MAX_FILE_BYTES) {
      out.push(relative);
    }
  }
  return out;
}

/**
 * @typedef {object} LargeTree
 * @property {string} path       the repository
 * @property {number} files      tracked files (the probe included)
 * @property {number} modified   tracked files with a line appended
 * @property {number} passes     copies of node_modules
 * @property {number} buildMs    how long copying, committing and modifying took
 */

/**
 * Builds the tree at `path` from the regular files of `source` (a node_modules directory).
 * @param {string} path
 * @param {string} source
 * @param {{ files: number, modified: number }} size
 * @returns {LargeTree}
 */
export function createLargeTree(path, source, size) {
  const started = performance.now();
  const available = regularFiles(source);
  if (available.length === 0) {
    throw new Error(`no files to copy under ${source}`);
  }
  const copied = [];
  const madeDirs = new Set();
  for (let pass = 1; copied.length < size.files; pass++) {
    for (const file of available) {
      if (copied.length === size.files) {
        break;
      }
      const target = `deps-${pass}/${file}`;
      const dir = join(path, target, '..');
      if (!madeDirs.has(dir)) {
        mkdirSync(dir, { recursive: true });
        madeDirs.add(dir);
      }
      copyFileSync(join(source, file), join(path, target));
      copied.push(target);
    }
  }
  writeFileSync(join(path, ENGINE_PROBE.file), `${ENGINE_PROBE.text}\n`);
  const git = (...args) => execFileSync('git', args, { cwd: path, env: BUILD_GIT_ENV, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--no-gpg-sign', '--no-verify', '-m', 'large tree fixture');
  const candidates = copied.filter((file) => TEXT_FILE.test(file));
  const step = Math.max(1, Math.floor(candidates.length / size.modified));
  let modified = 0;
  for (let i = 0; i < candidates.length && modified < size.modified; i += step) {
    appendFileSync(join(path, candidates[i]), '\n// modified by the benchmark\n');
    modified += 1;
  }
  // Refresh the index once (this git may write it), so no measured run is the first after the edits.
  git('status', '--porcelain');
  const passes = Number(copied[copied.length - 1].match(/^deps-(\d+)\//)[1]);
  return { path, files: copied.length + 1, modified, passes, buildMs: performance.now() - started };
}
