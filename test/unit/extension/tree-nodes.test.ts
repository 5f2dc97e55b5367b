import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PluginFileStatus } from '../../../src/core/registry/snapshot';
import { pluginFileCounts, pluginFilesState, rootNodes } from '../../../src/extension/tree/nodes';

/** A plugin file status with `tools` tools (only what the state looks at). */
function file(approved: boolean, tools = 1): PluginFileStatus {
  return { approved, tools: Array.from({ length: tools }), diagnostics: [] } as unknown as PluginFileStatus;
}

describe('the Plugin Files view state', () => {
  test('follows folder, trust and the files', () => {
    assert.equal(pluginFilesState({ hasFolder: false, pluginsAllowed: true, files: [] }), 'noFolder');
    assert.equal(pluginFilesState({ hasFolder: true, pluginsAllowed: false, files: [file(false)] }), 'restricted');
    assert.equal(pluginFilesState({ hasFolder: true, pluginsAllowed: true, files: [] }), 'noFiles');
    assert.equal(pluginFilesState({ hasFolder: true, pluginsAllowed: true, files: [file(true), file(false)] }), 'pending');
    assert.equal(pluginFilesState({ hasFolder: true, pluginsAllowed: true, files: [file(true)] }), 'ready');
  });

  test('a file that loads no tool (broken) waits for nothing, but is a file', () => {
    assert.equal(pluginFilesState({ hasFolder: true, pluginsAllowed: true, files: [file(false, 0)] }), 'ready');
  });

  test('the tools view has no row for "no plugin files": the Plugin Files view says it', () => {
    assert.deepEqual(rootNodes({ hasFolder: true, pluginsAllowed: true, builtins: [], files: [] }), []);
    assert.deepEqual(rootNodes({ hasFolder: true, pluginsAllowed: false, builtins: [], files: [] }), [{ kind: 'restricted' }]);
  });
});

describe('the plugin file counts (walkthrough events when they grow)', () => {
  test('count the loaded and the approved files (with tools), none in Restricted Mode', () => {
    const files = [file(true), file(false), file(true, 0)];
    assert.deepEqual(pluginFileCounts({ pluginsAllowed: true, files }), { files: 3, approved: 1 });
    assert.deepEqual(pluginFileCounts({ pluginsAllowed: false, files }), { files: 0, approved: 0 });
  });
});
