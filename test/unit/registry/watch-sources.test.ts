/**
 * The watch on what loaded plugin files read besides themselves (code modules), when the set it
 * watches changes: a module saved around a load that adds another file must still be reported.
 * Real files, real fs.watch, plugin files loaded by the real loader into a real registry.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ApproveAllPolicy } from '../../../src/core/approval/approval-policy';
import { MAX_SOURCE_FILE_BYTES } from '../../../src/core/files/source-file';
import { loadPluginDirectories } from '../../../src/core/plugins/scan-directories';
import { Emitter } from '../../../src/core/registry/emitter';
import type { PluginFileStatus } from '../../../src/core/registry/snapshot';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import type { WatchedRegistry } from '../../../src/core/registry/watch-sources';
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

/** The registry's files after loading each text of `dir`'s plugin file in turn. */
async function loadsOf(dir: TempDir, ...texts: string[]): Promise<Array<readonly PluginFileStatus[]>> {
  const registry = registryOf(dir);
  const loads: Array<readonly PluginFileStatus[]> = [];
  for (const text of texts) {
    dir.write('.vscode/tools/p.json', text);
    await registry.reload();
    loads.push(registry.files());
  }
  registry.dispose();
  return loads;
}

before(async () => {
  workspace = makeTempDir('wt-watch-sources-');
  workspace.write('tools/a.mjs', MODULE_A);
  workspace.write('tools/b.mjs', MODULE_B);
  [namingA = [], namingAB = []] = await loadsOf(workspace, pluginFile('tools/a.mjs'), pluginFile('tools/a.mjs', 'tools/b.mjs'));
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

/** watchPluginSources over `registry`, counting what it reports. */
function countingWatch(registry: WatchedRegistry, debounceMs: number): { reported: () => number; dispose: () => void } {
  let reported = 0;
  const watching = watchPluginSources(registry, { debounceMs, logger: memoryLogger(), onChange: () => (reported += 1) });
  return { reported: () => reported, dispose: () => watching.dispose() };
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
    // A debounce far longer than the test: only a hand-over can report the change in time.
    const watching = countingWatch(registry, 600_000);
    try {
      const seen = nextEventOf(path.join(workspace.path, 'tools/a.mjs'));
      workspace.write('tools/a.mjs', 'export default () => "a, saved again";\n');
      await seen;
      assert.equal(watching.reported(), 0, 'nothing is reported before the burst ends');
      registry.swap(namingAB);
      assert.equal(watching.reported(), 1, 'the burst the old watch had seen is reported when it is replaced');
    } finally {
      watching.dispose();
    }
  });

  test('a save in the same turn as the watch is replaced reaches the new watch: the event queued for it is not dropped', INOTIFY, async () => {
    const registry = swappableRegistry(namingA);
    const watching = countingWatch(registry, 20);
    try {
      // No turn of the event loop between the save and the re-arm: the event waits in the kernel.
      // The same text as loaded, so that reading the module again finds nothing: only the event can tell.
      writeFileSync(path.join(workspace.path, 'tools/a.mjs'), MODULE_A);
      registry.swap(namingAB);
      assert.equal(await waitUntil(() => watching.reported() > 0, 5000), true, 'the save was never reported');
    } finally {
      watching.dispose();
    }
  });

  test('a module a load names first, saved after the load read it and before the watch holds it, is reported: it is read again', async () => {
    const registry = swappableRegistry(namingA);
    const watching = countingWatch(registry, 600_000);
    try {
      workspace.write('tools/b.mjs', 'export default () => "b, saved before it was watched";\n');
      registry.swap(namingAB);
      assert.equal(await waitUntil(() => watching.reported() > 0, 5000), true, 'the module changed since the load was never reported');
    } finally {
      watching.dispose();
    }
  });

  test('a module saved after the re-arm, whether it was watched before or not, is reported', async () => {
    const registry = swappableRegistry(namingA);
    const watching = countingWatch(registry, 20);
    try {
      registry.swap(namingAB);
      workspace.write('tools/b.mjs', 'export default () => "b, saved again";\n');
      assert.equal(await waitUntil(() => watching.reported() > 0, 5000), true, 'the save of the newly named module was never reported');
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
      const watching = countingWatch(registry, 20);
      try {
        // As `ln -sfn` does: a new link renamed over the old one. Neither module's content changes.
        symlinkSync('../lib/b.mjs', path.join(linked.path, 'tools/link.new'));
        renameSync(path.join(linked.path, 'tools/link.new'), path.join(linked.path, 'tools/link.mjs'));
        assert.equal(await waitUntil(() => watching.reported() > 0, 5000), true, 'the link pointed elsewhere was never reported');
      } finally {
        watching.dispose();
        registry.dispose();
      }
    } finally {
      linked.cleanup();
    }
  });
});

describe('attacks on the watch: a module swapped behind the approval', () => {
  test('a module link pointed outside the folder is reported, and the load that follows serves its tool no more', async () => {
    const linked = makeTempDir('wt-watch-out-');
    const outside = makeTempDir('wt-watch-outside-');
    const registry = registryOf(linked);
    const watching = watchPluginSources(registry, { debounceMs: 20, logger: memoryLogger(), onChange: () => void registry.reload() });
    try {
      outside.write('evil.mjs', 'export default () => "from outside";\n');
      linked.write('lib/a.mjs', MODULE_A);
      mkdirSync(path.join(linked.path, 'tools'));
      symlinkSync('../lib/a.mjs', path.join(linked.path, 'tools/link.mjs'));
      linked.write('.vscode/tools/p.json', pluginFile('tools/link.mjs'));
      await registry.initialize();
      assert.deepEqual(registry.list().map((tool) => tool.name), ['tool-0']);
      symlinkSync(path.join(outside.path, 'evil.mjs'), path.join(linked.path, 'tools/link.new'));
      renameSync(path.join(linked.path, 'tools/link.new'), path.join(linked.path, 'tools/link.mjs'));
      assert.equal(await waitUntil(() => registry.list().length === 0, 5000), true, 'the tool was still served with its module outside the folder');
      assert.match(registry.diagnostics().map((problem) => problem.message).join('\n'), /tools\/link\.mjs.*outside the workspace folder/);
    } finally {
      watching.dispose();
      registry.dispose();
      linked.cleanup();
      outside.cleanup();
    }
  });

  /**
   * Whether a module that a load names first, made into something hostile after the load read it
   * and before any watch held it, is reported once the watch re-arms (reading it again must end).
   */
  async function reportedWhenSwappedFor(hostile: (module: string) => void): Promise<boolean> {
    const dir = makeTempDir('wt-watch-hostile-');
    try {
      dir.write('tools/a.mjs', MODULE_A);
      dir.write('tools/m.mjs', MODULE_B);
      const [first = [], second = []] = await loadsOf(dir, pluginFile('tools/a.mjs'), pluginFile('tools/a.mjs', 'tools/m.mjs'));
      const registry = swappableRegistry(first);
      const watching = countingWatch(registry, 600_000);
      try {
        const module = path.join(dir.path, 'tools/m.mjs');
        rmSync(module);
        hostile(module);
        registry.swap(second);
        return await waitUntil(() => watching.reported() > 0, 5000);
      } finally {
        watching.dispose();
      }
    } finally {
      dir.cleanup();
    }
  }

  test('a module swapped for a FIFO nobody writes: reading it again does not wait for a writer, and it is reported', { skip: process.platform === 'win32' ? 'no FIFOs on Windows' : false }, async () => {
    assert.equal(await reportedWhenSwappedFor((module) => execFileSync('mkfifo', [module])), true);
  });

  test('a module swapped for a file past the size a module may have: read within its bound, and reported', async () => {
    assert.equal(await reportedWhenSwappedFor((module) => writeFileSync(module, Buffer.alloc(MAX_SOURCE_FILE_BYTES + 1, 0x20))), true);
  });

  test('a module swapped for a symbolic link to itself (a loop): reported, nothing throws', async () => {
    assert.equal(await reportedWhenSwappedFor((module) => symlinkSync(path.basename(module), module)), true);
  });

  test('a module swapped for a link to a file outside the folder: reported', async () => {
    const outside = makeTempDir('wt-watch-outside-');
    try {
      outside.write('evil.mjs', 'export default () => "from outside";\n');
      assert.equal(await reportedWhenSwappedFor((module) => symlinkSync(path.join(outside.path, 'evil.mjs'), module)), true);
    } finally {
      outside.cleanup();
    }
  });
});
