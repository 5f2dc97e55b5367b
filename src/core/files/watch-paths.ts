import { existsSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import * as path from 'node:path';
import type { Disposable, Logger } from '../types';

/** What watchForChanges watches and whom it tells. */
export interface WatchOptions {
  /** Directories (or files) whose changes matter; they need not exist yet. */
  readonly targets: readonly string[];
  readonly debounceMs: number;
  readonly logger: Logger;
  readonly onChange: () => void;
}

/**
 * Watches plugin directories with fs.watch and calls `onChange` once per burst of events
 * (editors save in several steps). A directory that does not exist yet is watched through
 * its nearest existing parent, so creating `.vscode/tools` later is noticed too; after each
 * burst the watchers are re-armed on whatever exists now.
 */
export function watchForChanges(options: WatchOptions): Disposable {
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;

  const arm = (): void => {
    for (const watcher of watchers) {
      watcher.close();
    }
    const roots = [...new Set(options.targets.map(nearestExisting))];
    watchers = roots.flatMap((root) => {
      try {
        const watcher = watch(root, { persistent: false }, schedule);
        watcher.on('error', () => undefined);
        return [watcher];
      } catch (error) {
        options.logger.warn(`[watch] cannot watch ${root}: ${String(error)}`);
        return [];
      }
    });
  };

  function schedule(): void {
    if (timer !== undefined) {
      clearTimeout(timer);
    }
    timer = setTimeout(() => {
      timer = undefined;
      if (!disposed) {
        arm();
        options.onChange();
      }
    }, options.debounceMs);
  }

  arm();
  return {
    dispose: () => {
      disposed = true;
      if (timer !== undefined) {
        clearTimeout(timer);
      }
      for (const watcher of watchers) {
        watcher.close();
      }
      watchers = [];
    },
  };
}

/** The target if it exists, else its closest existing ancestor. */
function nearestExisting(target: string): string {
  let current = path.resolve(target);
  while (!existsSync(current)) {
    const parent = path.dirname(current);
    if (parent === current) {
      break;
    }
    current = parent;
  }
  return current;
}
