/**
 * The tools view's nodes: plain data built from the registry. No `vscode` import, so what the
 * tree shows is decided here and turned into tree items by items.ts.
 */
import type { PluginFileStatus, RegisteredTool } from '../../core/registry/snapshot';
import type { PluginDiagnostic } from '../../core/types';

/** The view's id in package.json (`contributes.views.workspaceTools`). */
export const TOOLS_VIEW_ID = 'workspaceTools.tools';

/**
 * The tools view's command ids (declared in package.json `contributes.commands`): registered
 * by commands/index.ts, run by the items that are clicked.
 */
export const TOOLS_COMMANDS = {
  reload: 'workspaceTools.reload',
  newPluginFile: 'workspaceTools.newPluginFile',
  showLog: 'workspaceTools.showLog',
  approveFile: 'workspaceTools.approveFile',
  openDefinition: 'workspaceTools.openDefinition',
  runTool: 'workspaceTools.runTool',
  enableTool: 'workspaceTools.enableTool',
  disableTool: 'workspaceTools.disableTool',
  copyToolName: 'workspaceTools.copyToolName',
  runTests: 'workspaceTools.runTests',
} as const;

/** One node of the tools view. */
export type ToolsNode =
  | { readonly kind: 'restricted' }
  | { readonly kind: 'noPluginFiles' }
  | { readonly kind: 'builtinGroup'; readonly tools: readonly RegisteredTool[] }
  | { readonly kind: 'file'; readonly file: PluginFileStatus }
  | { readonly kind: 'tool'; readonly tool: RegisteredTool }
  | { readonly kind: 'diagnostic'; readonly diagnostic: PluginDiagnostic; readonly index: number };

/** What the root of the view is built from. */
export interface ToolsViewState {
  readonly hasFolder: boolean;
  readonly pluginsAllowed: boolean;
  readonly builtins: readonly RegisteredTool[];
  readonly files: readonly PluginFileStatus[];
}

/**
 * The root: why plugin tools are off (Restricted Mode) first, then the built-ins, then one
 * node per plugin file. Empty without a folder, so the view's welcome content shows instead.
 */
export function rootNodes(state: ToolsViewState): ToolsNode[] {
  if (!state.hasFolder) {
    return [];
  }
  const nodes: ToolsNode[] = [];
  if (!state.pluginsAllowed) {
    nodes.push({ kind: 'restricted' });
  }
  if (state.builtins.length > 0) {
    nodes.push({ kind: 'builtinGroup', tools: state.builtins });
  }
  nodes.push(...state.files.map((file): ToolsNode => ({ kind: 'file', file })));
  if (state.pluginsAllowed && state.files.length === 0) {
    nodes.push({ kind: 'noPluginFiles' });
  }
  return nodes;
}

/** A node's children: a group's tools; a file's tools, then its problems. */
export function childNodes(node: ToolsNode): ToolsNode[] {
  switch (node.kind) {
    case 'builtinGroup':
      return node.tools.map((tool) => ({ kind: 'tool', tool }));
    case 'file':
      return [
        ...node.file.tools.map((tool): ToolsNode => ({ kind: 'tool', tool })),
        ...node.file.diagnostics.map((diagnostic, index): ToolsNode => ({ kind: 'diagnostic', diagnostic, index })),
      ];
    default:
      return [];
  }
}

/** Whether a command argument is a node of this view (menus pass the clicked node). */
export function isToolsNode(value: unknown): value is ToolsNode {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}
