// The bin (dist/mcp-server.js) is a launcher that turns on Node's compile cache and loads the server
// bundle: the cache is written by the bin itself, into the user's own cache folder (never the shared
// temporary directory, where another local user could plant V8 code), and a cache that cannot be
// used only means an uncached start.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { SERVER_PATH } from '../helpers/mcp-client';

let home: TempDir;
beforeEach(() => {
  home = makeTempDir('wt-compile-cache-');
  home.write('tmp/.keep', '');
});
afterEach(() => home.cleanup());

/** The environment of a start: its own home, cache folder and temporary directory, no cache variables. */
function envWith(overrides: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home.path, USERPROFILE: home.path, LOCALAPPDATA: path.join(home.path, 'local'), TMPDIR: path.join(home.path, 'tmp'), TEMP: path.join(home.path, 'tmp'), TMP: path.join(home.path, 'tmp'), ...overrides };
  delete env.NODE_COMPILE_CACHE;
  if (overrides.NODE_DISABLE_COMPILE_CACHE === undefined) {
    delete env.NODE_DISABLE_COMPILE_CACHE;
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) {
      delete env[key];
    }
  }
  return env;
}

function startVersion(env: NodeJS.ProcessEnv): string {
  const run = spawnSync(process.execPath, [SERVER_PATH, '--version'], { env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  // Asked for, the version is the output, on stdout (`v=$(workspace-tools-mcp --version)`).
  assert.match(run.stdout, /^\d+\.\d+\.\d+/);
  return run.stdout;
}

/** Files under `dir` larger than the launcher's own cache entry: the server bundle's code. */
function bundleCacheEntries(dir: string): string[] {
  if (!existsSync(dir)) {
    return [];
  }
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => statSync(file).size > 100_000);
}

/** The cache folder the launcher uses on this platform for `home`. */
function expectedCacheDir(xdgCacheHome: string): string {
  if (process.platform === 'win32') {
    return path.join(home.path, 'local', 'workspace-tools', 'node-compile-cache');
  }
  return path.join(xdgCacheHome, 'workspace-tools', 'node-compile-cache');
}

test('the bin writes the server bundle`s compiled code into the user`s cache folder, not the shared temporary directory, and starts again from it', () => {
  const xdg = path.join(home.path, 'xdg-cache');
  const env = envWith({ XDG_CACHE_HOME: xdg });
  const first = startVersion(env);
  const cacheDir = expectedCacheDir(xdg);
  assert.equal(bundleCacheEntries(cacheDir).length, 1, `no cache entry for the server bundle in ${cacheDir}`);
  if (process.platform !== 'win32') {
    assert.equal(statSync(cacheDir).mode & 0o777, 0o700, 'the cache folder is private to the user');
  }
  assert.deepEqual(readdirSync(path.join(home.path, 'tmp')), ['.keep'], 'nothing is cached in the temporary directory');
  assert.equal(startVersion(env), first);
});

test('a relative XDG_CACHE_HOME is ignored (the XDG rule): the cache goes under ~/.cache', () => {
  startVersion(envWith({ XDG_CACHE_HOME: 'relative/cache' }));
  // Windows never reads XDG_CACHE_HOME: there the cache is in %LOCALAPPDATA%.
  const expected = process.platform === 'win32' ? expectedCacheDir('unused') : path.join(home.path, '.cache', 'workspace-tools', 'node-compile-cache');
  assert.equal(bundleCacheEntries(expected).length, 1, `no cache entry in ${expected}`);
  assert.equal(existsSync(path.join(home.path, 'relative')), false);
});

test('a cache folder that cannot be made means an uncached start, not a failed one', () => {
  // A regular file where the cache folder's parent should be: mkdir fails for every user, root included.
  home.write('not-a-folder', 'x');
  const blocked = path.join(home.path, 'not-a-folder');
  const env = envWith({ XDG_CACHE_HOME: blocked, LOCALAPPDATA: blocked, HOME: blocked, USERPROFILE: blocked });
  startVersion(env);
  startVersion(env);
  assert.deepEqual(readdirSync(path.join(home.path, 'tmp')), ['.keep'], 'no fallback to the shared temporary directory');
});

test('NODE_DISABLE_COMPILE_CACHE=1 turns the cache off; NODE_COMPILE_CACHE set by the user wins', () => {
  const xdg = path.join(home.path, 'xdg-cache');
  startVersion(envWith({ XDG_CACHE_HOME: xdg, NODE_DISABLE_COMPILE_CACHE: '1' }));
  assert.deepEqual(bundleCacheEntries(expectedCacheDir(xdg)), []);
  const chosen = path.join(home.path, 'chosen');
  startVersion({ ...envWith({ XDG_CACHE_HOME: xdg }), NODE_COMPILE_CACHE: chosen });
  assert.equal(bundleCacheEntries(chosen).length, 1, 'the cache went where NODE_COMPILE_CACHE said');
  assert.deepEqual(bundleCacheEntries(expectedCacheDir(xdg)), []);
});
