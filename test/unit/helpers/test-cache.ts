/**
 * The cache outside the clone where tests keep third-party programs too big for every `npm ci`
 * (Claude Code, the MCP Inspector): installed the first time a test needs one, reused by every
 * later run. Test files run in parallel, and two may need the same program on a fresh machine,
 * so an install goes to a directory of its own and is renamed into place whole: a reader sees
 * either nothing or a finished install, never half of one.
 */
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** `$WORKSPACE_TOOLS_TEST_CACHE/<name>` (default `~/.cache/workspace-tools-test/<name>`). */
export function testCacheDir(name: string): string {
  return path.join(process.env['WORKSPACE_TOOLS_TEST_CACHE'] ?? path.join(os.homedir(), '.cache', 'workspace-tools-test'), name);
}

/**
 * What `find(dir)` finds in the cache entry `dir`; when it finds nothing, `install(staging)` fills
 * a fresh staging directory beside it, which then becomes `dir`. When another process's install
 * got there first, that one is used and this one removed; a broken entry (an install cut short
 * before this helper existed) is moved aside first.
 */
export function cachedInstall<T>(dir: string, find: (dir: string) => T | undefined, install: (staging: string) => void): T {
  const cached = find(dir);
  if (cached !== undefined) {
    return cached;
  }
  mkdirSync(path.dirname(dir), { recursive: true });
  const staging = mkdtempSync(`${dir}.installing-`);
  // mkdtemp makes it private; an install is as readable as one npm makes in place.
  chmodSync(staging, 0o755);
  try {
    install(staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  if (!moveInto(staging, dir)) {
    const theirs = find(dir);
    if (theirs !== undefined) {
      rmSync(staging, { recursive: true, force: true });
      return theirs;
    }
    const broken = mkdtempSync(`${dir}.broken-`);
    renameSync(dir, path.join(broken, 'entry'));
    rmSync(broken, { recursive: true, force: true });
    renameSync(staging, dir);
  }
  const installed = find(dir);
  if (installed === undefined) {
    throw new Error(`installed into ${dir}, but what the tests need is not there`);
  }
  return installed;
}

/** Renames `from` to `to`; false when `to` is a directory that is not empty. */
function moveInto(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EPERM') {
      return false;
    }
    throw error;
  }
}
