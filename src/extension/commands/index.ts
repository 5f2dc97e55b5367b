import * as vscode from 'vscode';
import type { WorkspaceToolsService } from '../service';
import { setToolDisabled } from '../settings';
import { TOOLS_COMMANDS, TOOLS_VIEW_ID, isToolsNode } from '../tree/nodes';
import type { ToolsTreeProvider } from '../tree/provider';
import { approveFile } from './approve-file';
import { newPluginFile } from './new-plugin-file';
import { runTool } from './run-tool';
import { filePathFrom, showErrorWithLog, toolFrom } from './targets';

/** Registers the commands of the tools view (title actions, item actions, palette). */
export function registerToolsCommands(
  context: vscode.ExtensionContext,
  service: WorkspaceToolsService,
  log: vscode.LogOutputChannel,
  provider: ToolsTreeProvider,
): void {
  // Some commands resolve to a value for scripted callers (executeCommand returns it).
  const handlers: Record<string, (arg: unknown, second: unknown) => Promise<unknown> | void> = {
    [TOOLS_COMMANDS.reload]: () => reload(service, log, provider),
    [TOOLS_COMMANDS.newPluginFile]: (arg) => newPluginFile(arg, log),
    [TOOLS_COMMANDS.showLog]: () => log.show(),
    [TOOLS_COMMANDS.approveFile]: (arg) => approveFile(arg, service, log),
    [TOOLS_COMMANDS.openDefinition]: (arg) => openDefinition(arg, service),
    [TOOLS_COMMANDS.runTool]: (arg, second) => runTool(arg, second, service, log),
    [TOOLS_COMMANDS.enableTool]: (arg) => setEnabled(arg, true, service, log),
    [TOOLS_COMMANDS.disableTool]: (arg) => setEnabled(arg, false, service, log),
    [TOOLS_COMMANDS.copyToolName]: (arg) => copyToolName(arg, service),
  };
  for (const [id, handler] of Object.entries(handlers)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  }
}

async function reload(service: WorkspaceToolsService, log: vscode.LogOutputChannel, provider: ToolsTreeProvider): Promise<void> {
  log.info('[tree] reload requested');
  try {
    await vscode.window.withProgress({ location: { viewId: TOOLS_VIEW_ID } }, () => service.reload());
  } catch (error) {
    log.error(`[tree] reload failed: ${String(error)}`);
    void showErrorWithLog(`Reloading the tools failed: ${error instanceof Error ? error.message : String(error)}`, log);
  }
  provider.refresh();
}

/** Opens a plugin tool's definition (or a plugin file) at the tool's line and column. */
async function openDefinition(arg: unknown, service: WorkspaceToolsService): Promise<void> {
  const source = toolFrom(arg, service)?.definition.source;
  if (source?.kind === 'plugin') {
    const position = new vscode.Position(source.line - 1, source.column - 1);
    await vscode.window.showTextDocument(vscode.Uri.file(source.file), { selection: new vscode.Range(position, position), preview: false });
    return;
  }
  const file = isToolsNode(arg) ? filePathFrom(arg) : undefined;
  if (file !== undefined) {
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
  }
}

async function setEnabled(arg: unknown, enabled: boolean, service: WorkspaceToolsService, log: vscode.LogOutputChannel): Promise<void> {
  const tool = toolFrom(arg, service);
  if (tool === undefined) {
    return;
  }
  const name = tool.definition.name;
  try {
    await setToolDisabled(name, !enabled);
    log.info(`[tree] ${enabled ? 'enabled' : 'disabled'} ${name}`);
  } catch (error) {
    log.error(`[tree] changing workspaceTools.disabledTools failed: ${String(error)}`);
    void showErrorWithLog(`Could not ${enabled ? 'enable' : 'disable'} ${name}: ${error instanceof Error ? error.message : String(error)}`, log);
  }
}

async function copyToolName(arg: unknown, service: WorkspaceToolsService): Promise<void> {
  const tool = toolFrom(arg, service);
  if (tool !== undefined) {
    await vscode.env.clipboard.writeText(tool.definition.name);
    vscode.window.setStatusBarMessage(`Copied "${tool.definition.name}"`, 3000);
  }
}
