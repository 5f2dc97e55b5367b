/**
 * Watching what loaded plugin files read besides themselves: the code modules their tools name,
 * the workspace files their tools run (a program, a script an interpreter is handed) and the
 * files their `import` sections read (tasks.json, package.json, a lock file, the
 * Makefile, the justfile; also one not there yet, whose creation adds tools). They live anywhere
 * in the folder, so the set watched follows the loaded files. A changed source then waits for
 * approval (its file's hash covers it) without a call having to find out first. Both hosts use
 * it: the standalone server (serve) and the extension host.
 */
import * as path from 'node:path';
import type { SourceFileEntry } from '../files/source-file';
import { readSourceFile } from '../files/source-file';
import type { ChangeWatch } from '../files/watch-paths';
import { watchForChanges } from '../files/watch-paths';
import type { Logger } from '../types';
import type { Disposable, Event } from './emitter';
import type { PluginFileStatus } from './snapshot';

/** The part of a registry (or of a host that replaces its registry) that the watch reads. */
export interface WatchedRegistry {
  files(): readonly PluginFileStatus[];
  readonly onDidChange: Event<void>;
}

/**
 * Every path a loaded plugin file reads besides itself, absolute, sorted, once each. A module is
 * watched where the plugin file names it and at its real path: when the name is a symbolic link,
 * pointing it elsewhere changes the module as surely as editing it.
 */
export function sourcePathsOf(files: readonly PluginFileStatus[]): string[] {
  const paths = files.flatMap((status) => [
    ...[...(status.loaded.sources ?? new Map<string, SourceFileEntry>())].flatMap(([name, entry]) => {
      const named = path.resolve(status.loaded.folder.path, name);
      return 'file' in entry ? [named, entry.file.path] : [named];
    }),
    ...(status.loaded.importSources ?? []).map((source) => path.resolve(status.loaded.folder.path, source.path)),
    ...(status.loaded.programFiles ?? []).map((file) => path.resolve(status.loaded.folder.path, file.path)),
  ]);
  return [...new Set(paths)].sort();
}

/** Calls `onChange` when a source of a loaded plugin file changes, appears or goes away. */
export function watchPluginSources(registry: WatchedRegistry, options: { readonly debounceMs: number; readonly logger: Logger; readonly onChange: () => void }): Disposable {
  let watchedKey = '';
  let watcher: ChangeWatch | undefined;
  let disposed = false;
  const rearm = (): void => {
    const targets = sourcePathsOf(registry.files());
    const key = targets.join('\0');
    if (key === watchedKey) {
      return;
    }
    watchedKey = key;
    // The new watch opens before the old one closes, so a change queued for a path both watch is
    // not dropped in between (watch-paths.ts). A change the old one saw and had not yet reported
    // (a module saved while the load that added another file ran, as a checkout does) is
    // reported now: the load that ends here may have read the module before it was saved.
    const previous = watcher;
    watcher = targets.length === 0 ? undefined : watchForChanges({ targets, ...options });
    const unreported = previous?.waiting() ?? false;
    previous?.dispose();
    if (unreported) {
      options.onChange();
      return;
    }
    // A module the load read that was saved before any watch held it (one this load named first,
    // or one whose event the old watch had not yet read, where the kernel does not share a
    // watch between watchers: macOS, Windows): found by reading it again.
    void modulesChangedSince(registry.files()).then((changed) => {
      if (changed && !disposed) {
        options.onChange();
      }
    });
  };
  const subscription = registry.onDidChange(rearm);
  rearm();
  return {
    dispose: () => {
      disposed = true;
      subscription.dispose();
      watcher?.dispose();
    },
  };
}

/**
 * Whether a code module a loaded file names is no longer what the load read (another text, or
 * another real path): read again as a load reads it (source-file.ts), one at a time.
 */
async function modulesChangedSince(files: readonly PluginFileStatus[]): Promise<boolean> {
  for (const status of files) {
    for (const [name, loaded] of status.loaded.sources ?? new Map<string, SourceFileEntry>()) {
      if (!('file' in loaded)) {
        continue;
      }
      const now = await readSourceFile(status.loaded.folder, name);
      if (!('file' in now) || now.file.hash !== loaded.file.hash || now.file.path !== loaded.file.path) {
        return true;
      }
    }
  }
  return false;
}
