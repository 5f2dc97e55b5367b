/**
 * The watch on what loaded plugin files read besides themselves (code modules), when the set it
 * watches changes: a module saved around a load that adds another file must still be reported.
 * Real files, real fs.watch, plugin files loaded by the real loader into a real registry.
 */
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ApproveAllPolicy } from '../../../src/core/approval/approval-policy';
import { loadPluginDirectories } from '../../../src/core/plugins/scan-directories';
import { Emitter } from '../../../src/core/registry/emitter';
import type { PluginFileStatus } from '../../../src/core/registry/snapshot';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import { sourcePathsOf, watchPluginSources } from '../../../src/core/registry/watch-sources';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { memoryLogger, testRegistryDefaults } from '../helpers/fake-tools';
import { waitUntil } from '../helpers/wait';

let workspace: TempDir;
/** The registry's files when the plugin file names one module, then when it names two. */
let namingA: readonly PluginFileStatus[];
let namingAB: readonly PluginFileStatus[];

/** The modules' text when the registry loaded them: each test starts from it. */
const MODULE_A = 'export default () => "a";\n';
const MODULE_B = 'export default () => "b";\n';
/** Tests that rely on Linux's inotify: watchers of one path share the kernel's watch and are told in the order they were opened. */
const INOTIFY = { skip: process.platform === 'linux' ? false : 'the kernel shares one watch per path only on Linux (inotify)' };

const codeTool = (name: string, module: string): Record<string, unknown> => ({ name, description: name, handler: { type: 'code', module } });
const pluginFile = (...modules: string[]): string => JSON.stringify({ tools: modules.map((module, index) => codeTool(`tool-${index}`, module)) });

/** A registry of the plugin files in `dir`'s .vscode/tools, loaded by the real loader, every file approved. */
function registryOf(dir: TempDir): ToolRegistry {
  const folder = { name: 'ws', path: dir.path };
  return new ToolRegistry({
    ...testRegistryDefaults,
    folders: () => [folder],
    builtins: [],
    loadPlugins: () => loadPluginDirectories([{ path: path.join(dir.path, '.vscode/tools'), folder }]),
    approval: new ApproveAllPolicy(),
    logger: memoryLogger(),
  });
}

before(async () => {
  workspace = makeTempDir('wt-watch-sources-');
  workspace.write('tools/a.mjs', MODULE_A);
  workspace.write('tools/b.mjs', MODULE_B);
  workspace.write('.vscode/tools/p.json', pluginFile('tools/a.mjs'));
  const registry = registryOf(workspace);
  await registry.initialize();
  namingA = registry.files();
  workspace.write('.vscode/tools/p.json', pluginFile('tools/a.mjs', 'tools/b.mjs'));
  await registry.reload();
  namingAB = registry.files();
  registry.dispose();
});

beforeEach(() => {
  // Written before any watch of the test is opened: no watch of it hears this.
  workspace.write('tools/a.mjs', MODULE_A);
  workspace.write('tools/b.mjs', MODULE_B);
});

after(() => workspace.cleanup());

/** A registry whose files the test swaps, firing onDidChange as a load that changed them does. */
function swappableRegistry(initial: readonly PluginFileStatus[]): { files: () => readonly PluginFileStatus[]; onDidChange: Emitter<void>['event']; swap: (next: readonly PluginFileStatus[]) => void } {
  let current = initial;
  const changes = new Emitter<void>();
  return {
    files: () => current,
    onDidChange: changes.event,
    swap: (next) => {
      current = next;
      changes.fire();
    },
  };
}

/** Resolves once `file` has had an event in this process (its watch shares the kernel's with the one tested). */
function nextEventOf(file: string): Promise<void> {
  return new Promise((resolve) => {
    const sentinel = watch(file, () => {
      sentinel.close();
      setImmediate(resolve);
    });
  });
}

describe('the watch on code modules when the set of modules changes', () => {
  test('the loads name the modules the watch follows (the premise of the tests below)', () => {
    const a = path.join(workspace.path, 'tools/a.mjs');
    const b = path.join(workspace.path, 'tools/b.mjs');
    assert.deepEqual(sourcePathsOf(namingA), [a]);
    assert.deepEqual(sourcePathsOf(namingAB), [a, b]);
  });

  test('a module saved just before a load names another module is reported, though its burst had not ended', INOTIFY, async () => {
    const registry = swappableRegistry(namingA);
    let reported = 0;
    // A debounce far longer than the test: only a hand-over can report the change in time.
    const watching = watchPluginSources(registry, { debounceMs: 600_000, logger: memoryLogger(), onChange: () => (reported += 1) });
    try {
      const seen = nextEventOf(path.join(workspace.path, 'tools/a.mjs'));
      workspace.write('tools/a.mjs', 'export default () => "a, saved again";\n');
      await seen;
      assert.equal(reported, 0, 'nothing is reported before the burst ends');
      registry.swap(namingAB);
      assert.equal(reported, 1, 'the burst the old watch had seen is reported when it is replaced');
    } finally {
      watching.dispose();
    }
  });

  test('a save in the same turn as the watch is replaced reaches the new watch: the event queued for it is not dropped', INOTIFY, async () => {
    const registry = swappableRegistry(namingA);
    let reported = 0;
    const watching = watchPluginSources(registry, { debounceMs: 20, logger: memoryLogger(), onChange: () => (reported += 1) });
    try {
      // No turn of the event loop between the save and the re-arm: the event waits in the kernel.
      // The same text as loaded, so that reading the module again finds nothing: only the event can tell.
      writeFileSync(path.join(workspace.path, 'tools/a.mjs'), MODULE_A);
      registry.swap(namingAB);
      assert.equal(await waitUntil(() => reported > 0, 5000), true, 'the save was never reported');
    } finally {
      watching.dispose();
    }
  });

  test('a module a load names first, saved after the load read it and before the watch holds it, is reported: it is read again', async () => {
    const registry = swappableRegistry(namingA);
    let reported = 0;
    const watching = watchPluginSources(registry, { debounceMs: 600_000, logger: memoryLogger(), onChange: () => (reported += 1) });
    try {
      workspace.write('tools/b.mjs', 'export default () => "b, saved before it was watched";\n');
      registry.swap(namingAB);
      assert.equal(await waitUntil(() => reported > 0, 5000), true, 'the module changed since the load was never reported');
    } finally {
      watching.dispose();
    }
  });

  test('a module saved after the re-arm, whether it was watched before or not, is reported', async () => {
    const registry = swappableRegistry(namingA);
    let reported = 0;
    const watching = watchPluginSources(registry, { debounceMs: 20, logger: memoryLogger(), onChange: () => (reported += 1) });
    try {
      registry.swap(namingAB);
      workspace.write('tools/b.mjs', 'export default () => "b, saved again";\n');
      assert.equal(await waitUntil(() => reported > 0, 5000), true, 'the save of the newly named module was never reported');
    } finally {
      watching.dispose();
    }
  });
});

describe('the watch on a code module named through a symbolic link', () => {
  test('pointing the link at another file is reported, as editing the module is', async () => {
    const linked = makeTempDir('wt-watch-link-');
    try {
      linked.write('lib/a.mjs', 'export default () => "a";\n');
      linked.write('lib/b.mjs', 'export default () => "b";\n');
      mkdirSync(path.join(linked.path, 'tools'));
      symlinkSync('../lib/a.mjs', path.join(linked.path, 'tools/link.mjs'));
      linked.write('.vscode/tools/p.json', pluginFile('tools/link.mjs'));
      const registry = registryOf(linked);
      await registry.initialize();
      assert.deepEqual(sourcePathsOf(registry.files()), [path.join(linked.path, 'lib/a.mjs'), path.join(linked.path, 'tools/link.mjs')]);
      let reported = 0;
      const watching = watchPluginSources(registry, { debounceMs: 20, logger: memoryLogger(), onChange: () => (reported += 1) });
      try {
        // As `ln -sfn` does: a new link renamed over the old one. Neither module's content changes.
        symlinkSync('../lib/b.mjs', path.join(linked.path, 'tools/link.new'));
        renameSync(path.join(linked.path, 'tools/link.new'), path.join(linked.path, 'tools/link.mjs'));
        assert.equal(await waitUntil(() => reported > 0, 5000), true, 'the link pointed elsewhere was never reported');
      } finally {
        watching.dispose();
        registry.dispose();
      }
    } finally {
      linked.cleanup();
    }
  });
});
