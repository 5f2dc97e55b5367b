import * as vscode from 'vscode';
import { pluginFileDisplayPath } from '../display-path';
import { countOf, servedSummary } from '../view-text/describe-file';
import { registerToolsCommands } from '../commands';
import type { WorkspaceToolsService } from '../service';
import type { ToolTestRunner } from '../testing/tool-tests';
import type { McpServerState } from '../mcp-provider';
import type { Startup } from '../startup';
import { awaitsApproval } from '../../core/registry/snapshot';
import { TOOLS_COMMANDS, TOOLS_VIEW_ID, isToolsNode } from './nodes';
import { RunningRows } from './running-rows';
import { ToolsTreeProvider } from './provider';
import { readSettings } from '../settings';

/**
 * The Workspace Tools view and its commands. The header says what chat gets ("9 tools ·
 * ~2.1k tokens"); the activity bar badge counts plugin files that wait for approval. Both are
 * set on every change of the service, the end of its first load included; this function
 * starts no loading of its own (activation must not wait for plugin files).
 */
export function registerToolsView(
  context: vscode.ExtensionContext,
  service: WorkspaceToolsService,
  log: vscode.LogOutputChannel,
  tests: ToolTestRunner,
  mcpServer: McpServerState,
  startup: Startup,
): { revealFile(file: string): Promise<void> } {
  const displayPath = (file: string): string => pluginFileDisplayPath(file, service);
  const running = new RunningRows(service, log, startup);
  const provider = new ToolsTreeProvider(service, displayPath, (tool) => tests.summary(tool), mcpServer, () => running.rows());
  const treeView = vscode.window.createTreeView(TOOLS_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  const updateHeader = (): void => {
    const registry = service.registry;
    const summary = servedSummary(registry.all());
    // One line above the tree, where it shows whether the view has a header of its own or not
    // (a header description as well said the same thing twice).
    // The sandbox's absence is said once here and once in the output (core/sandbox/status.ts).
    const sandbox =
      service.sandboxStatus.state !== 'unavailable' ? '' : readSettings().sandbox === 'required' ? ' · no OS sandbox: shell tools not served (see the output)' : ' · no OS sandbox: shell tools run NOT sandboxed (see the output)';
    treeView.message = (vscode.workspace.workspaceFolders?.length ?? 0) > 0 ? `Offered to chat: ${summary}${sandbox}` : undefined;
    const pending = registry.files().filter(awaitsApproval).length;
    treeView.badge = pending > 0 ? { value: pending, tooltip: `${countOf(pending, 'plugin file')} awaiting approval` } : undefined;
  };
  context.subscriptions.push(
    provider,
    running,
    treeView,
    vscode.commands.registerCommand(TOOLS_COMMANDS.cancelRunningCall, async (node: unknown) => {
      if (isToolsNode(node) && node.kind === 'running') {
        log.info(`[running] cancel ${node.call.tool} (${node.call.source} ${node.call.id})`);
        await running.cancel(node.call);
      }
    }),
    service.onDidChange(() => {
      provider.refresh();
      updateHeader();
    }),
    tests.onDidRun(() => provider.refresh()),
    mcpServer.onDidChange(() => provider.refresh()),
    running.onDidChange(() => provider.refreshRunning()),
  );
  registerToolsCommands(context, service, log, provider, tests);
  return {
    /** Shows the tools view with a plugin file's node selected and expanded. */
    revealFile: async (file) => {
      const node = provider.fileNode(file);
      if (node === undefined) {
        await vscode.commands.executeCommand(`${TOOLS_VIEW_ID}.focus`);
        return;
      }
      await treeView.reveal(node, { select: true, focus: true, expand: true });
    },
  };
}
