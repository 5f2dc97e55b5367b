import { existsSync, lstatSync, realpathSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../platform/path-rules';
import { hostPlatform } from '../platform/platform';
import type { Disposable, Logger } from '../types';

/** What watchForChanges watches and whom it tells. */
export interface WatchOptions {
  /** Directories (or files) whose changes matter; they need not exist yet. */
  readonly targets: readonly string[];
  readonly debounceMs: number;
  /**
   * A directory the watches must stay inside, by real path (a subscribed resource's folder): a
   * target that is, or lies behind, a symbolic link out is not followed; its nearest contained
   * ancestor is watched for that entry instead, so replacing the link is seen, and changes to
   * the outside file never are.
   */
  readonly within?: string;
  readonly logger: Logger;
  readonly onChange: () => void;
}

/**
 * Watches plugin directories with fs.watch and calls `onChange` once per burst of events
 * (editors save in several steps). A directory that does not exist yet is watched through
 * its nearest existing parent, so creating `.vscode/tools` later is noticed too; after each
 * burst the watchers are re-armed on whatever exists now. In such a parent only the entry on
 * the way to the target counts: anything else written there (the server's own log or history,
 * a build's output) would otherwise reload, and a reload that logs into that parent would loop.
 * Such an entry appearing (`.vscode` on the way to `.vscode/tools`) only moves the watch closer;
 * `onChange` runs when a target changed, appeared or went away.
 */
export function watchForChanges(options: WatchOptions): ChangeWatch {
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;
  /** Which targets existed when the watchers were last armed. */
  let present = '';
  /** Whether an event of this burst came from a target itself (not only from the way to one). */
  let targetChanged = false;

  const arm = (): void => {
    const previous = watchers;
    present = options.targets.map((target) => (existsSync(target) ? '1' : '0')).join('');
    const roots = options.within === undefined ? watchRoots(options.targets) : containedWatchRoots(options.targets, options.within);
    watchers = [...roots].flatMap(([root, entries]) => {
      try {
        const watcher = watch(root, { persistent: false }, (_event, name) => {
          const role = entries === ALL_ENTRIES || name === null ? 'target' : entries.get(entryKey(name));
          if (role === 'target') {
            targetChanged = true;
          }
          if (role !== undefined) {
            schedule();
          }
        });
        watcher.on('error', () => undefined);
        // A contained root is a real path: if it no longer is (a folder on the way was swapped
        // for a link between the check and the watch), the watch may be outside; it is dropped.
        if (options.within !== undefined && realpathOf(root) !== root) {
          watcher.close();
          return [];
        }
        return [watcher];
      } catch (error) {
        options.logger.warn(`[watch] cannot watch ${root}: ${String(error)}`);
        return [];
      }
    });
    // Closed only once the new watches are open: a path watched by both keeps its kernel watch
    // (inotify's), so a change already queued for it reaches the new watcher. Closing first
    // removed that watch, and with it every event not yet read: a save during the re-arm was lost.
    closeAll(previous);
  };

  function schedule(): void {
    if (timer !== undefined) {
      clearTimeout(timer);
    }
    timer = setTimeout(() => {
      timer = undefined;
      if (!disposed) {
        const before = present;
        const changed = targetChanged;
        targetChanged = false;
        arm();
        if (changed || present !== before) {
          options.onChange();
        }
      }
    }, options.debounceMs);
  }

  arm();
  return {
    waiting: () => timer !== undefined,
    dispose: () => {
      disposed = true;
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      closeAll(watchers);
      watchers = [];
    },
  };
}

/** A running watchForChanges. */
export interface ChangeWatch extends Disposable {
  /**
   * Whether a burst of events is waiting out its debounce, not yet reported: whoever replaces
   * this watch with another must report it, since disposing drops it and the new watch never saw it.
   */
  waiting(): boolean;
}

function closeAll(watchers: readonly FSWatcher[]): void {
  for (const watcher of watchers) {
    watcher.close();
  }
}

/** Every event of a watched path counts (the path is a target itself). */
const ALL_ENTRIES = 'all';

/**
 * What to watch for `targets`: each existing target itself (every event counts), and for a
 * missing one its closest existing ancestor, where only the entry on the way to it counts. A
 * target that is a symbolic link is also watched as an entry of its directory: a watch on the
 * link follows it to what it points to, so pointing the link elsewhere would go unseen.
 */
function watchRoots(targets: readonly string[]): WatchRoots {
  const roots: WatchRoots = new Map();
  for (const target of targets) {
    addRoot(roots, nearestExisting(target));
    if (isSymbolicLink(target)) {
      addRoot(roots, { root: path.dirname(target), entry: path.basename(target), role: 'target' });
    }
  }
  return roots;
}

/**
 * What an entry of a watched directory is: on the way to a target (its events only move the
 * watch closer) or a target itself (its events are a change).
 */
type EntryRole = 'way' | 'target';

/** What is watched: each root, with the entries in it that count (or all of them). */
type WatchRoots = Map<string, Map<string, EntryRole> | typeof ALL_ENTRIES>;

function addRoot(roots: WatchRoots, { root, entry, role = 'way' }: { root: string; entry?: string; role?: EntryRole }): void {
  const entries = roots.get(root);
  if (entry === undefined || entries === ALL_ENTRIES) {
    roots.set(root, ALL_ENTRIES);
    return;
  }
  const key = entryKey(entry);
  const known = entries ?? new Map<string, EntryRole>();
  known.set(key, known.get(key) === 'target' ? 'target' : role);
  roots.set(root, known);
}

function isSymbolicLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * watchRoots by real paths inside `within`: each target's nearest existing path, resolved; when
 * that leads outside (a link out, or a folder on the way that is one), the closest ancestor whose
 * real path is inside, watched for the entry on the way. Nothing at all when even that is outside.
 */
function containedWatchRoots(targets: readonly string[], within: string): WatchRoots {
  const roots: WatchRoots = new Map();
  const realWithin = realpathOf(within);
  if (realWithin === undefined) {
    return roots;
  }
  for (const target of targets) {
    let { root: current, entry } = nearestExisting(target);
    for (;;) {
      const real = realpathOf(current);
      if (real !== undefined && isInside(realWithin, real, hostPlatform())) {
        addRoot(roots, { root: real, ...(entry === undefined ? {} : { entry }) });
        break;
      }
      const parent = path.dirname(current);
      if (parent === current) {
        break;
      }
      entry = path.basename(current);
      current = parent;
    }
  }
  return roots;
}

function realpathOf(file: string): string | undefined {
  try {
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}

/** The target if it exists, else its closest existing ancestor and the entry below it towards the target. */
function nearestExisting(target: string): { root: string; entry?: string } {
  let current = path.resolve(target);
  let entry: string | undefined;
  while (!existsSync(current)) {
    const parent = path.dirname(current);
    if (parent === current) {
      break;
    }
    entry = path.basename(current);
    current = parent;
  }
  return { root: current, ...(entry === undefined ? {} : { entry }) };
}

/** An entry name as the file system compares it (case-insensitively on Windows and macOS). */
function entryKey(name: string): string {
  return hostPlatform().caseInsensitiveNames ? name.toLowerCase() : name;
}
