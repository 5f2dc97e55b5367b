/**
 * The status bar item ("Tools 9 · 2 pending · 1 error", a click opens the tools view) and the one
 * notification when a plugin file starts waiting for approval. The notification never approves:
 * Approve… opens the same dialog as everywhere else.
 */
import * as vscode from 'vscode';
import { awaitsApproval } from '../core/registry/snapshot';
import { pluginFileDisplayPath } from './display-path';
import type { WorkspaceToolsService } from './service';
import { TOOLS_COMMANDS } from './tree/nodes';
import type { StatusCounts } from './view-text/status-text';
import { NewlyPendingFiles, newlyPendingMessage, pluginErrorCount, statusText, statusTooltip } from './view-text/status-text';
import { PROBLEM_SOURCE, isPluginDocument } from './problems';

/** The status bar item's id (also its DOM id's suffix, for the e2e probe). */
export const STATUS_ITEM_ID = 'workspaceTools.status';
/** What clicking the item runs: VS Code's command that opens the Workspace Tools container. */
const SHOW_TOOLS_COMMAND = 'workbench.view.extension.workspaceTools';

/** How the status bar reaches the tools view: reveal a plugin file's node (select and expand it). */
export type RevealFile = (file: string) => Promise<void>;

/** Registers the status bar item and the notification; both follow the service's changes. */
export function registerStatusBar(context: vscode.ExtensionContext, service: WorkspaceToolsService, log: vscode.LogOutputChannel, revealFile: RevealFile): void {
  const item = vscode.window.createStatusBarItem(STATUS_ITEM_ID, vscode.StatusBarAlignment.Left, 10);
  item.name = 'Workspace Tools';
  item.command = SHOW_TOOLS_COMMAND;
  const newlyPending = new NewlyPendingFiles();
  const update = (): void => {
    const counts = countsOf(service);
    item.text = `$(tools) ${statusText(counts)}`;
    item.tooltip = statusTooltip(counts);
    item.accessibilityInformation = { label: statusTooltip(counts) };
    if ((vscode.workspace.workspaceFolders?.length ?? 0) > 0) {
      item.show();
    }
    const files = service.registry.files().map((file) => ({ file: file.file, pending: awaitsApproval(file), approved: file.approved }));
    const started = newlyPending.update(files, (file) => service.wasWrittenHere(file));
    if (started.length > 0) {
      notifyPending(started, service, newlyPending, revealFile, log).catch((error: unknown) => log.error(`[approval] ${String(error)}`));
    }
  };
  // The error count follows the Problems panel, which changes as an open file is typed in.
  let countTimer: NodeJS.Timeout | undefined;
  const recount = (): void => {
    clearTimeout(countTimer);
    countTimer = setTimeout(() => {
      if (item.text !== '') {
        const counts = countsOf(service);
        item.text = `$(tools) ${statusText(counts)}`;
        item.tooltip = statusTooltip(counts);
        item.accessibilityInformation = { label: statusTooltip(counts) };
      }
    }, RECOUNT_DELAY_MS);
  };
  context.subscriptions.push(
    item,
    // The first change event comes after the first load: until then the item stays hidden.
    service.onDidChange(update),
    vscode.languages.onDidChangeDiagnostics(recount),
    { dispose: () => clearTimeout(countTimer) },
  );
}

/** How long the diagnostics settle before the status bar counts them again. */
const RECOUNT_DELAY_MS = 150;

function countsOf(service: WorkspaceToolsService): StatusCounts {
  const registry = service.registry;
  const pending = registry.files().filter(awaitsApproval);
  return {
    activeTools: registry.all().filter((tool) => tool.state === 'active').length,
    pendingFiles: pending.length,
    pendingTools: pending.reduce((sum, file) => sum + file.tools.length, 0),
    errors: problemsPanelErrors(service),
    pluginsAllowed: service.pluginsAllowed,
  };
}

/** The plugin files' errors as the Problems panel counts them (view-text/status-text.ts pluginErrorCount). */
function problemsPanelErrors(service: WorkspaceToolsService): number {
  const pluginFiles = new Set([
    ...service.registry.files().map((file) => file.file),
    ...vscode.workspace.textDocuments.filter((document) => isPluginDocument(document, service)).map((document) => document.uri.fsPath),
  ]);
  const byFile = vscode.languages.getDiagnostics().map(([uri, diagnostics]) => [uri.fsPath, diagnostics.map((diagnostic) => ({ error: diagnostic.severity === vscode.DiagnosticSeverity.Error, source: diagnostic.source }))] as const);
  return pluginErrorCount(byFile, pluginFiles, PROBLEM_SOURCE);
}

const APPROVE = 'Approve…';
const SHOW = 'Show';
const MUTE_ONE = "Don't Ask Again for This File";
const MUTE_ALL = "Don't Ask Again for These Files";

/**
 * One notification for the files that just started waiting. Approve… opens the approval dialog
 * (one file) or the pick of waiting files; Show reveals the file in the tools view; the last
 * button mutes these files' later edits until the window reloads (they still wait, and the
 * badge and status bar still count them).
 */
async function notifyPending(files: readonly string[], service: WorkspaceToolsService, newlyPending: NewlyPendingFiles, revealFile: RevealFile, log: vscode.LogOutputChannel): Promise<void> {
  const statuses = service.registry.files().filter((status) => files.includes(status.file));
  const message = newlyPendingMessage(statuses.map((status) => ({ pluginName: status.pluginName, displayPath: pluginFileDisplayPath(status.file, service) })));
  const [single] = files.length === 1 ? files : [];
  log.info(`[approval] waiting for approval: ${files.join(', ')}`);
  const choice = await vscode.window.showInformationMessage(message, APPROVE, SHOW, single === undefined ? MUTE_ALL : MUTE_ONE);
  if (choice === APPROVE) {
    await vscode.commands.executeCommand(TOOLS_COMMANDS.approveFile, single === undefined ? undefined : vscode.Uri.file(single));
  } else if (choice === SHOW) {
    await (single === undefined ? vscode.commands.executeCommand(SHOW_TOOLS_COMMAND) : revealFile(single));
  } else if (choice === MUTE_ONE || choice === MUTE_ALL) {
    files.forEach((file) => newlyPending.mute(file));
    log.info(`[approval] no more notifications this session for ${files.join(', ')}`);
  }
}
