/**
 * The filter drivers to switch off for a folder (see filterOverrides in git-env.ts), remembered
 * while no config file that could name a new one has changed, so that git-status and
 * git-diff-summary start one git process per call instead of two.
 *
 * What "could name a new one" covers: every file git read config from (its `--show-origin`),
 * every file an `include.path` / `includeIf.*.path` points to (present or not yet), the local,
 * worktree, global and system config files at their standard places, the repository's HEAD
 * (`includeIf "onbranch:"`), and a `.git` at the folder and each parent (a new one would make git
 * find another repository). Each is checked by stat (inode, size, mtime, ctime; a missing file
 * counts too) before every use: about 20 stat calls, no process.
 *
 * Racy writes: a file changed in the same moment git read it could keep its stat after our look.
 * An answer is therefore only remembered when every file is older than the run that read it.
 */
import { statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { GitConfigPair } from './git-env';
import { filterOverrides } from './git-env';

/** Runs `git <args>` in the folder with the read-only environment; stdout, or throws. */
export type GitReader = (args: readonly string[]) => Promise<string>;

interface Remembered {
  readonly watched: readonly string[];
  readonly fingerprint: string;
  readonly overrides: GitConfigPair[];
}

/** Files must be this much older than the run that read them to be trusted (mtime granularity). */
const RACY_MS = 1_000;

export class GitFilterCache {
  private readonly remembered = new Map<string, Remembered>();

  /** The overrides for the folder: remembered ones while nothing changed, else read again. */
  async overridesFor(folderPath: string, env: Readonly<Record<string, string | undefined>>, git: GitReader): Promise<GitConfigPair[]> {
    const key = `${folderPath}\0${env['HOME'] ?? ''}\0${env['XDG_CONFIG_HOME'] ?? ''}\0${env['GIT_CONFIG_GLOBAL'] ?? ''}`;
    const known = this.remembered.get(key);
    if (known !== undefined && fingerprintOf(known.watched).fingerprint === known.fingerprint) {
      return known.overrides;
    }
    this.remembered.delete(key);
    const startedAt = Date.now();
    const [listing, locations] = await Promise.all([
      git(['config', '--list', '--show-origin', '-z']),
      git(['rev-parse', '--absolute-git-dir', '--git-common-dir']).catch(() => ''),
    ]);
    const entries = parseConfigListing(listing);
    const overrides = filterOverrides(entries.map((entry) => entry.key).join('\n'));
    const watched = watchedFiles(folderPath, entries, locations, env);
    const { fingerprint, newest } = fingerprintOf(watched);
    if (newest < startedAt - RACY_MS) {
      this.remembered.set(key, { watched, fingerprint, overrides });
    }
    return overrides;
  }
}

/** One `origin\0key\nvalue\0` record of `git config --list --show-origin -z`. */
interface ConfigEntry {
  readonly origin: string;
  readonly key: string;
  readonly value: string;
}

export function parseConfigListing(listing: string): ConfigEntry[] {
  const fields = listing.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i] ?? '';
    const record = fields[i + 1] ?? '';
    const newline = record.indexOf('\n');
    entries.push({
      origin,
      key: newline === -1 ? record : record.slice(0, newline),
      value: newline === -1 ? '' : record.slice(newline + 1),
    });
  }
  return entries;
}

/** Every file whose change could change which filter drivers are configured (see the top). */
function watchedFiles(
  folderPath: string,
  entries: readonly ConfigEntry[],
  locations: string,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const home = env['HOME'] ?? os.homedir();
  const xdg = env['XDG_CONFIG_HOME'] ?? path.join(home, '.config');
  const files = new Set<string>([
    env['GIT_CONFIG_GLOBAL'] ?? path.join(home, '.gitconfig'),
    path.join(xdg, 'git', 'config'),
    env['GIT_CONFIG_SYSTEM'] ?? '/etc/gitconfig',
  ]);
  for (const entry of entries) {
    const origin = entry.origin.startsWith('file:') ? path.resolve(folderPath, entry.origin.slice('file:'.length)) : undefined;
    if (origin !== undefined) {
      files.add(origin);
    }
    if (/^include(if\..*)?\.path$/i.test(entry.key) && entry.value !== '') {
      files.add(includedFile(entry.value, origin, home));
    }
  }
  const [gitDir, commonDir] = locations.split('\n').map((line) => line.trim());
  if (gitDir !== undefined && gitDir !== '') {
    const common = commonDir === undefined || commonDir === '' ? gitDir : path.resolve(folderPath, commonDir);
    files.add(path.join(common, 'config'));
    files.add(path.join(gitDir, 'config.worktree'));
    files.add(path.join(gitDir, 'HEAD'));
  }
  for (let dir = path.resolve(folderPath); ; dir = path.dirname(dir)) {
    files.add(path.join(dir, '.git'));
    if (path.dirname(dir) === dir) {
      break;
    }
  }
  return [...files];
}

/** An include path as git resolves it: `~/` from home, relative to the including file. */
function includedFile(value: string, origin: string | undefined, home: string): string {
  if (value.startsWith('~/')) {
    return path.join(home, value.slice(2));
  }
  return path.resolve(origin === undefined ? '.' : path.dirname(origin), value);
}

/**
 * A string that changes when any of the files changes, appears or goes; and the newest time.
 * A `.git` directory counts by its identity only: every git command that writes (the user's
 * `git status` refreshing the index) changes its mtime, and what matters there is that it stays
 * the same directory. A `.git` file (a worktree's pointer) counts by its content, as files do.
 */
function fingerprintOf(files: readonly string[]): { fingerprint: string; newest: number } {
  let newest = 0;
  const parts = files.map((file) => {
    try {
      const info = statSync(file, { bigint: true });
      if (info.isDirectory() && path.basename(file) === '.git') {
        return `d${info.ino}`;
      }
      newest = Math.max(newest, Number(info.mtimeMs), Number(info.ctimeMs));
      return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
    } catch {
      return '-';
    }
  });
  return { fingerprint: parts.join('|'), newest };
}
