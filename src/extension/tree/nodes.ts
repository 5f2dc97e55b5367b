/**
 * The tools view's nodes: plain data built from the registry. No `vscode` import, so what the
 * tree shows is decided here and turned into tree items by items.ts.
 */
import { EDITOR_TOOL_NAMES } from '../../core/editor-bridge/editor-tool-specs';
import type { PluginFileStatus, RegisteredPrompt, RegisteredTool } from '../../core/registry/snapshot';
import { awaitsApproval, servesAnything } from '../../core/registry/snapshot';
import type { ResourceInfo } from '../../core/resources/resource-catalog';
import { resourceInventory } from '../../core/resources/resource-catalog';
import type { PluginDiagnostic } from '../../core/types';
import type { McpServing } from '../view-text/mcp-server-text';
import type { RunningCall } from '../../core/running/running-calls';
import { mcpServerRow } from '../view-text/mcp-server-text';

/** The view's id in package.json (`contributes.views.workspaceTools`). */
export const TOOLS_VIEW_ID = 'workspaceTools.tools';

/**
 * The tools view's command ids (declared in package.json `contributes.commands`): registered
 * by commands/index.ts, run by the items that are clicked.
 */
export const TOOLS_COMMANDS = {
  reload: 'workspaceTools.reload',
  newPluginFile: 'workspaceTools.newPluginFile',
  importTasks: 'workspaceTools.importTasks',
  showLog: 'workspaceTools.showLog',
  approveFile: 'workspaceTools.approveFile',
  openDefinition: 'workspaceTools.openDefinition',
  runTool: 'workspaceTools.runTool',
  enableTool: 'workspaceTools.enableTool',
  disableTool: 'workspaceTools.disableTool',
  copyToolName: 'workspaceTools.copyToolName',
  runTests: 'workspaceTools.runTests',
  openWalkthrough: 'workspaceTools.openWalkthrough',
  cancelRunningCall: 'workspaceTools.cancelRunningCall',
} as const;

/**
 * A call in progress as a Running row shows it: one of the extension host's own (`window`: lm
 * tools, Run Tool, the editor bridge) or one of the window's MCP server (`server`: its calls and tasks).
 */
export type RunningRow = RunningCall & { readonly source: 'window' | 'server' };

/** One node of the tools view. */
export type ToolsNode =
  /** The calls in progress in this window, shown only while there are some. */
  | { readonly kind: 'runningGroup'; readonly calls: readonly RunningRow[] }
  /**
   * `call` is replaced in place as the call goes on (provider.ts keeps one node per call), so the
   * view redraws the row without rebuilding the tree, and a click on its Cancel is never lost to a redraw.
   */
  | { readonly kind: 'running'; call: RunningRow }
  | { readonly kind: 'restricted' }
  | { readonly kind: 'builtinGroup'; readonly tools: readonly RegisteredTool[] }
  /** The editor tools (docs/editor-bridge.md): built in too, but answered by the editor's language services. */
  | { readonly kind: 'editorGroup'; readonly tools: readonly RegisteredTool[] }
  /** Which MCP server VS Code uses for the plugin tools (the extension's, or a project file's). */
  | { readonly kind: 'mcpServer'; readonly serving: McpServing }
  /** `resources`: the file's resources with their state among all files (absent: as if it were alone). */
  | { readonly kind: 'file'; readonly file: PluginFileStatus; readonly resources?: readonly ResourceInfo[] }
  | { readonly kind: 'tool'; readonly tool: RegisteredTool }
  /** The tools a file's `import` section takes from one source file (tasks.json, package.json, a Makefile, a justfile). */
  | { readonly kind: 'importSource'; readonly pluginFile: string; readonly source: string; readonly tools: readonly RegisteredTool[] }
  | { readonly kind: 'resource'; readonly resource: ResourceInfo }
  | { readonly kind: 'prompt'; readonly prompt: RegisteredPrompt }
  | { readonly kind: 'diagnostic'; readonly diagnostic: PluginDiagnostic; readonly index: number };

/** What the root of the view is built from. */
export interface ToolsViewState {
  readonly hasFolder: boolean;
  readonly pluginsAllowed: boolean;
  /** Every tool that comes with the extension, the editor tools among them (the view groups them apart). */
  readonly builtins: readonly RegisteredTool[];
  readonly files: readonly PluginFileStatus[];
  /** Which MCP server serves the plugin tools to VS Code's chat; none shown when absent or none. */
  readonly mcpServer?: McpServing;
  /** The calls in progress (a Running group first, while there are some). */
  readonly running?: readonly RunningRow[];
}

/**
 * The root: why plugin tools are off (Restricted Mode) first, then the built-ins, then the editor tools, then which MCP
 * server VS Code uses for the plugin tools, then one node per plugin file. Empty without a folder, so the view's welcome content shows instead.
 * No plugin files yet is said by the Plugin Files view's welcome content (pluginFilesState).
 */
export function rootNodes(state: ToolsViewState): ToolsNode[] {
  if (!state.hasFolder) {
    return [];
  }
  const nodes: ToolsNode[] = [];
  if (state.running !== undefined && state.running.length > 0) {
    nodes.push({ kind: 'runningGroup', calls: state.running });
  }
  if (!state.pluginsAllowed) {
    nodes.push({ kind: 'restricted' });
  }
  const { builtins, editor } = splitBuiltins(state.builtins);
  if (builtins.length > 0) {
    nodes.push({ kind: 'builtinGroup', tools: builtins });
  }
  if (editor.length > 0) {
    nodes.push({ kind: 'editorGroup', tools: editor });
  }
  if (state.mcpServer !== undefined && mcpServerRow(state.mcpServer) !== undefined) {
    nodes.push({ kind: 'mcpServer', serving: state.mcpServer });
  }
  // A resource's state depends on the files before it (the first to define a URI serves it).
  const resources = resourceInventory(state.files);
  nodes.push(...state.files.map((file): ToolsNode => ({ kind: 'file', file, resources: resources.filter((resource) => resource.source.file === file.file) })));
  return nodes;
}

/**
 * The tools that come with the extension, as the view groups them: the git and workspace tools
 * (`builtins`), and the editor tools (`editor`), which ask the editor's language services.
 */
export function splitBuiltins(tools: readonly RegisteredTool[]): { readonly builtins: readonly RegisteredTool[]; readonly editor: readonly RegisteredTool[] } {
  return {
    builtins: tools.filter((tool) => !isEditorTool(tool)),
    editor: tools.filter(isEditorTool),
  };
}

/** Whether a tool is one of the editor tools (editor-tool-specs.ts names them). */
export function isEditorTool(tool: RegisteredTool): boolean {
  return tool.definition.source.kind === 'builtin' && EDITOR_TOOL_NAMES.includes(tool.definition.name);
}

/**
 * What the Plugin Files view says, as the context key `workspaceTools.pluginFiles` (its welcome
 * content and its visibility follow it): `restricted` (Restricted Mode), `noFiles` (a trusted
 * folder without plugin files), `pending` (files wait for approval), else `ready`, and `noFolder`
 * (the tools view's own welcome content speaks then). Files that failed to load count as files.
 */
export type PluginFilesState = 'noFolder' | 'restricted' | 'noFiles' | 'pending' | 'ready';

/** The Plugin Files view's id in package.json: it lists nothing and shows welcome content. */
export const PLUGIN_FILES_VIEW_ID = 'workspaceTools.pluginFiles';

/** The context key that holds the PluginFilesState. */
export const PLUGIN_FILES_CONTEXT_KEY = 'workspaceTools.pluginFiles';

/**
 * How many plugin files are loaded, and how many of them (with tools) are approved: the
 * walkthrough's "create" and "approve" steps complete when these grow. None in Restricted Mode.
 */
export function pluginFileCounts(state: Pick<ToolsViewState, 'pluginsAllowed' | 'files'>): { readonly files: number; readonly approved: number } {
  const files = state.pluginsAllowed ? state.files : [];
  return { files: files.length, approved: files.filter((file) => file.approved && servesAnything(file)).length };
}

/** The PluginFilesState of a loaded registry. */
export function pluginFilesState(state: Pick<ToolsViewState, 'hasFolder' | 'pluginsAllowed' | 'files'>): PluginFilesState {
  if (!state.hasFolder) {
    return 'noFolder';
  }
  if (!state.pluginsAllowed) {
    return 'restricted';
  }
  if (state.files.length === 0) {
    return 'noFiles';
  }
  return state.files.some(awaitsApproval) ? 'pending' : 'ready';
}

/**
 * A node's children: a group's tools (built-in, editor); a file's own tools, then one node per source file of its
 * imported tools, then its prompts, its resources and its problems; an import source's tools.
 */
export function childNodes(node: ToolsNode): ToolsNode[] {
  switch (node.kind) {
    case 'builtinGroup':
    case 'editorGroup':
      return node.tools.map((tool) => ({ kind: 'tool', tool }));
    case 'file':
      return [
        ...node.file.tools.filter((tool) => declaredIn(tool) === undefined).map((tool): ToolsNode => ({ kind: 'tool', tool })),
        ...importSources(node.file),
        ...node.file.prompts.map((prompt): ToolsNode => ({ kind: 'prompt', prompt })),
        ...(node.resources ?? resourceInventory([node.file])).map((resource): ToolsNode => ({ kind: 'resource', resource })),
        ...node.file.diagnostics.map((diagnostic, index): ToolsNode => ({ kind: 'diagnostic', diagnostic, index })),
      ];
    case 'importSource':
      return node.tools.map((tool) => ({ kind: 'tool', tool }));
    default:
      return [];
  }
}

/** A Running row's node. */
export type RunningNode = ToolsNode & { kind: 'running' };

/**
 * The Running rows' nodes for `rows`, each call keeping its node of `previous` (given its row
 * now), so that redrawing a row (elapsed time, latest line) keeps its place and selection.
 */
export function runningNodes(previous: ReadonlyMap<string, RunningNode>, rows: readonly RunningRow[]): Map<string, RunningNode> {
  const next = new Map<string, RunningNode>();
  for (const row of rows) {
    const key = runningKey(row);
    const node = previous.get(key) ?? { kind: 'running', call: row };
    node.call = row;
    next.set(key, node);
  }
  return next;
}

/** A call's key among the rows: its id, which is unique per source (the window, its server). */
export function runningKey(row: RunningRow): string {
  return `${row.source}:${row.id}`;
}

/** The source file an imported tool's task is declared in; undefined for a tool of the file's own. */
function declaredIn(tool: RegisteredTool): string | undefined {
  const { source } = tool.definition;
  return source.kind === 'plugin' ? source.declared?.file : undefined;
}

/** One node per source file of the file's imported tools, in the order their first tool loaded. */
function importSources(file: PluginFileStatus): ToolsNode[] {
  const bySource = new Map<string, RegisteredTool[]>();
  for (const tool of file.tools) {
    const source = declaredIn(tool);
    if (source !== undefined) {
      bySource.set(source, [...(bySource.get(source) ?? []), tool]);
    }
  }
  return [...bySource].map(([source, tools]): ToolsNode => ({ kind: 'importSource', pluginFile: file.file, source, tools }));
}

/** Whether a command argument is a node of this view (menus pass the clicked node). */
export function isToolsNode(value: unknown): value is ToolsNode {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}
