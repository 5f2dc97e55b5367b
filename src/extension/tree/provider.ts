import * as vscode from 'vscode';
import type { WorkspaceToolsService } from '../service';
import type { McpServerState } from '../mcp-provider';
import type { DisplayPath, TestSummaryOf } from './items';
import { toTreeItem } from './items';
import type { RunningNode, RunningRow, ToolsNode } from './nodes';
import { childNodes, isEditorTool, rootNodes, runningKey, runningNodes, splitBuiltins } from './nodes';

/**
 * Data of the tools view: built-in tools, plugin files with their tools and problems, and the
 * Restricted Mode notice. Reads the service's current registry on every request; makes no UI
 * calls (commands and the view's header live elsewhere).
 */
export class ToolsTreeProvider implements vscode.TreeDataProvider<ToolsNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<ToolsNode | ToolsNode[] | undefined>();
  /** Fires when the whole tree, or some rows, should be read again. */
  readonly onDidChangeTreeData: vscode.Event<ToolsNode | ToolsNode[] | undefined> = this._onDidChangeTreeData.event;
  /** One node per call in progress, by source and id: the same object while the call runs. */
  private runningNodes = new Map<string, RunningNode>();

  constructor(
    private readonly service: WorkspaceToolsService,
    private readonly displayPath: DisplayPath,
    private readonly testSummary: TestSummaryOf,
    private readonly mcpServer: McpServerState,
    private readonly running: () => readonly RunningRow[] = () => [],
  ) {}

  /** Asks the view to read everything again (the registry changed). */
  refresh(): void {
    this._onDidChangeTreeData.fire(undefined);
  }

  /**
   * The calls in progress changed: when the same calls run, only their rows are redrawn (elapsed
   * time, latest line); a call that began or ended rebuilds the tree.
   */
  refreshRunning(): void {
    const rows = this.running();
    const same = rows.length === this.runningNodes.size && rows.every((row) => this.runningNodes.has(runningKey(row)));
    if (!same) {
      this.refresh();
      return;
    }
    for (const row of rows) {
      const node = this.runningNodes.get(runningKey(row));
      if (node !== undefined) {
        node.call = row;
      }
    }
    if (rows.length > 0) {
      this._onDidChangeTreeData.fire([...this.runningNodes.values()]);
    }
  }

  /** The running rows' nodes now, reusing each call's node. */
  private currentRunningNodes(): RunningNode[] {
    this.runningNodes = runningNodes(this.runningNodes, this.running());
    return [...this.runningNodes.values()];
  }

  getTreeItem(node: ToolsNode): vscode.TreeItem {
    return toTreeItem(node, this.displayPath, this.testSummary, this.service.sandboxView());
  }

  /** The parent of a node (TreeView.reveal needs it): plugin files and groups are at the root. */
  getParent(node: ToolsNode): ToolsNode | undefined {
    const registry = this.service.registry;
    switch (node.kind) {
      case 'tool': {
        const name = node.tool.definition.name;
        const file = registry.files().find((candidate) => candidate.tools.some((tool) => tool.definition.name === name));
        if (file !== undefined) {
          // An imported tool sits under its source file's node, inside the plugin file's.
          const source = childNodes({ kind: 'file', file }).find((child) => child.kind === 'importSource' && child.tools.some((tool) => tool.definition.name === name));
          return source ?? { kind: 'file', file };
        }
        if (node.tool.definition.source.kind !== 'builtin') {
          return undefined;
        }
        const { builtins, editor } = splitBuiltins(registry.builtins());
        return isEditorTool(node.tool) ? { kind: 'editorGroup', tools: editor } : { kind: 'builtinGroup', tools: builtins };
      }
      case 'prompt': {
        const file = registry.files().find((candidate) => candidate.file === node.prompt.definition.source.file);
        return file === undefined ? undefined : { kind: 'file', file };
      }
      case 'diagnostic': {
        const file = registry.files().find((candidate) => candidate.file === node.diagnostic.file);
        return file === undefined ? undefined : { kind: 'file', file };
      }
      case 'resource':
        return this.fileNode(node.resource.source.file);
      case 'importSource':
        return this.fileNode(node.pluginFile);
      default:
        return undefined;
    }
  }

  /** The current node of the plugin file at `file`, if it is loaded. */
  fileNode(file: string): ToolsNode | undefined {
    const status = this.service.registry.files().find((candidate) => candidate.file === file);
    return status === undefined ? undefined : { kind: 'file', file: status };
  }

  async getChildren(node?: ToolsNode): Promise<ToolsNode[]> {
    if (node?.kind === 'runningGroup') {
      return this.currentRunningNodes();
    }
    if (node !== undefined) {
      return childNodes(node);
    }
    // The first load runs in the background after activation; the view waits for it (and
    // shows its progress bar) rather than flashing an empty tree.
    await this.service.registry.initialize();
    const registry = this.service.registry;
    return rootNodes({
      hasFolder: (vscode.workspace.workspaceFolders?.length ?? 0) > 0,
      pluginsAllowed: this.service.pluginsAllowed,
      builtins: registry.builtins(),
      files: registry.files(),
      mcpServer: this.mcpServer.current(),
      running: this.currentRunningNodes().map((running) => running.call),
    });
  }

  dispose(): void {
    this._onDidChangeTreeData.dispose();
  }
}
