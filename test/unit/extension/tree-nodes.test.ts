import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PluginFileStatus } from '../../../src/core/registry/snapshot';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import type { ToolsNode } from '../../../src/extension/tree/nodes';
import { childNodes, isEditorTool, pluginFileCounts, pluginFilesState, rootNodes, runningKey, runningNodes, splitBuiltins } from '../../../src/extension/tree/nodes';
import { ApproveAllPolicy } from '../../../src/core/approval/approval-policy';
import { BUILTIN_TOOLS } from '../../../src/core/builtins';
import { createEditorTools } from '../../../src/core/editor-bridge/editor-tools';
import { EDITOR_TOOL_NAMES } from '../../../src/core/editor-bridge/editor-tool-specs';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import { createWorkspaceRegistry } from '../../../src/core/workspace-registry';
import { makeTempDir } from '../helpers/git-repo';
import { memoryLogger } from '../helpers/fake-tools';
import { scriptedEditor } from '../editor-bridge/scripted-editor';
import type { McpServing } from '../../../src/extension/view-text/mcp-server-text';
import { MCP_SERVER_ROW_LABEL, mcpServerRow } from '../../../src/extension/view-text/mcp-server-text';

/** A plugin file status with `tools` tools (only what the state looks at). */
function file(approved: boolean, tools = 1): PluginFileStatus {
  return { approved, tools: Array.from({ length: tools }), prompts: [], diagnostics: [], loaded: {} } as unknown as PluginFileStatus;
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

describe('plugin resources in the tools view', () => {
  test('each file lists its resources after its tools, with the state among all files', () => {
    const folder = { name: 'ws', path: '/ws' };
    const first = loadPluginFile('/ws/.vscode/tools/a.json', JSON.stringify({ resources: [{ name: 'guide', uri: 'docs://guide', file: 'guide.md' }] }), folder);
    const second = loadPluginFile('/ws/.vscode/tools/b.json', JSON.stringify({ resources: [{ name: 'again', uri: 'docs://guide', file: 'other.md' }, { name: 'log', command: ['git', 'log'] }] }), folder);
    const status = (loaded: typeof first, approved: boolean) => ({ file: loaded.file, approved, tools: [], prompts: [], diagnostics: [], loaded }) as unknown as PluginFileStatus;
    const files = [status(first, true), status(second, false)];
    const [a, b] = rootNodes({ hasFolder: true, pluginsAllowed: true, builtins: [], files });
    const shown = (node: ToolsNode | undefined) =>
      childNodes(node as ToolsNode).flatMap((child) => (child.kind === 'resource' ? [[child.resource.address, child.resource.state, child.resource.reads]] : []));
    assert.deepEqual(shown(a), [['docs://guide', 'served', 'file guide.md']]);
    assert.deepEqual(shown(b), [
      ['docs://guide', 'duplicate', 'file other.md'],
      ['workspace-tools://resource/b/log', 'pending-approval', 'command git log'],
    ]);
    assert.equal(pluginFilesState({ hasFolder: true, pluginsAllowed: true, files }), 'pending', 'a file with only resources waits for approval');
  });
});

describe('imported tools in the tools view', () => {
  test("a file's own tools come first, then one node per source file of its imported tools, each with its tools", () => {
    const tool = (name: string, declared?: string) =>
      ({ definition: { name, source: { kind: 'plugin', pluginName: 'p', file: '/ws/.vscode/tools/p.json', line: 1, column: 1, ...(declared === undefined ? {} : { declared: { file: declared, line: 3, column: 5 } }) } }, state: 'active' }) as unknown as PluginFileStatus['tools'][number];
    const tools = [tool('own'), tool('task-build', '/ws/.vscode/tasks.json'), tool('npm-test', '/ws/package.json'), tool('task-lint', '/ws/.vscode/tasks.json')];
    const status = { file: '/ws/.vscode/tools/p.json', approved: true, tools, prompts: [], diagnostics: [], loaded: {} } as unknown as PluginFileStatus;
    const children = childNodes({ kind: 'file', file: status });
    assert.deepEqual(
      children.map((node) => (node.kind === 'tool' ? `tool ${node.tool.definition.name}` : node.kind === 'importSource' ? `source ${node.source}` : node.kind)),
      ['tool own', 'source /ws/.vscode/tasks.json', 'source /ws/package.json'],
    );
    const tasks = children[1];
    assert.ok(tasks !== undefined && tasks.kind === 'importSource');
    assert.deepEqual(childNodes(tasks).map((node) => (node.kind === 'tool' ? node.tool.definition.name : node.kind)), ['task-build', 'task-lint']);
  });
});

describe('which MCP server VS Code uses, in the tools view', () => {
  const server = { file: '.mcp.json', name: 'workspace-tools', line: 3, column: 5, commandLine: 'npx -y workspace-tools-mcp@0.1.0 --workspace .', servesBuiltins: true };
  const project: McpServing = { kind: 'project', server, absoluteFile: '/ws/.mcp.json' };

  test('a row after the built-ins when there is a server, none without one', () => {
    const base = { hasFolder: true, pluginsAllowed: true, builtins: [], files: [file(true)] };
    assert.deepEqual(rootNodes({ ...base, mcpServer: project }).map((node) => node.kind), ['mcpServer', 'file']);
    assert.deepEqual(rootNodes({ ...base, mcpServer: { kind: 'extension', label: 'workspace-tools' } }).map((node) => node.kind), ['mcpServer', 'file']);
    assert.deepEqual(rootNodes({ ...base, mcpServer: { kind: 'none' } }).map((node) => node.kind), ['file']);
  });

  test('it says where the server comes from, and what a project file\'s server does not get from VS Code', () => {
    const row = mcpServerRow(project);
    assert.equal(row?.label, MCP_SERVER_ROW_LABEL);
    assert.equal(row?.description, 'workspace-tools from .mcp.json');
    assert.match(row?.tooltip ?? '', /\.mcp\.json starts \(line 3\): npx -y workspace-tools-mcp@0\.1\.0 --workspace \./);
    assert.match(row?.tooltip ?? '', /publishes no second one, so chat sees each tool once/);
    assert.match(row?.tooltip ?? '', /Disable Tool does not reach it/);
    assert.equal(mcpServerRow({ kind: 'extension', label: 'workspace-tools' })?.description, 'workspace-tools, started by this extension');
    assert.equal(mcpServerRow({ kind: 'none' }), undefined);
  });
});

describe('the Running rows in the tools view', () => {
  test('a Running group comes first while calls run, one row per call, and goes away when none do', () => {
    const window = { id: 'a', tool: 'build', door: 'run-tool', startedAt: 1, source: 'window' } as const;
    const server = { id: 'task-1', tool: 'deploy', door: 'mcp-task', startedAt: 2, latest: 'uploading', source: 'server' } as const;
    const roots = rootNodes({ hasFolder: true, pluginsAllowed: false, builtins: [], files: [], running: [window, server] });
    assert.deepEqual(roots, [{ kind: 'runningGroup', calls: [window, server] }, { kind: 'restricted' }]);
    assert.deepEqual([...runningNodes(new Map(), [window, server]).values()], [{ kind: 'running', call: window }, { kind: 'running', call: server }]);
    assert.deepEqual(rootNodes({ hasFolder: true, pluginsAllowed: false, builtins: [], files: [], running: [] }), [{ kind: 'restricted' }]);
  });

  test('a row redrawn keeps its node, with the call as it is now; an ended call\'s node goes, a new one gets its own', () => {
    const build = { id: 'a', tool: 'build', door: 'run-tool', startedAt: 1, source: 'window' } as const;
    const deploy = { id: 'a', tool: 'deploy', door: 'mcp-task', startedAt: 2, source: 'server' } as const;
    const first = runningNodes(new Map(), [build, deploy]);
    const later = { ...build, latest: 'compiling' };
    const checks = { id: 'b', tool: 'test', door: 'lm', startedAt: 3, source: 'window' } as const;
    const second = runningNodes(first, [later, checks]);
    const [buildNode, testNode] = [...second.values()];
    assert.equal(buildNode, first.get(runningKey(build)), 'the same node object: VS Code keeps its place');
    assert.deepEqual(buildNode?.call, later);
    assert.deepEqual(testNode, { kind: 'running', call: checks });
    assert.equal(second.size, 2, 'the ended call (same id, other source) is gone');
  });
});

describe('the editor tools in the tools view', () => {
  test('a group of their own after the built-ins, each tool in one group only', async () => {
    const workspace = makeTempDir('wt-tree-editor-');
    const registry = createWorkspaceRegistry({
      folders: () => [{ name: 'app', path: workspace.path }],
      includeBuiltins: true,
      extraTools: createEditorTools(scriptedEditor({})),
      includePlugins: false,
      approval: new ApproveAllPolicy(),
      limits: () => DEFAULT_LIMITS,
      env: {},
      logger: memoryLogger(),
    });
    try {
      await registry.initialize();
      const roots = rootNodes({ hasFolder: true, pluginsAllowed: true, builtins: registry.builtins(), files: [] });
      assert.deepEqual(roots.map((node) => node.kind), ['builtinGroup', 'editorGroup']);
      const names = (node: ToolsNode | undefined): string[] => childNodes(node ?? { kind: 'restricted' }).map((child) => (child.kind === 'tool' ? child.tool.definition.name : child.kind));
      assert.deepEqual(names(roots[0]), BUILTIN_TOOLS.map((tool) => tool.name));
      assert.deepEqual(names(roots[1]), [...EDITOR_TOOL_NAMES]);
      assert.equal(registry.builtins().length, BUILTIN_TOOLS.length + EDITOR_TOOL_NAMES.length);
      const { builtins, editor } = splitBuiltins(registry.builtins());
      assert.ok(editor.every(isEditorTool) && !builtins.some(isEditorTool));
      // the built-ins turned off (workspaceTools.builtins.enabled) and no editor tools: no group at all
      assert.deepEqual(rootNodes({ hasFolder: true, pluginsAllowed: true, builtins: [], files: [] }), []);
    } finally {
      workspace.cleanup();
    }
  });
});
