import * as vscode from 'vscode';
import { describePluginFileForApproval } from '../../core/plugins/describe-file';
import { textIfUnchanged } from '../../core/plugins/approval-subject';
import type { PluginFileStatus } from '../../core/registry/snapshot';
import type { WorkspaceToolsService } from '../service';
import { awaitsApproval } from '../../core/registry/snapshot';
import { filePathFrom, loadedFile, showErrorWithLog } from './targets';

/** The confirm button of the approval dialog (the e2e harness clicks it by this label). */
export const APPROVE_LABEL = 'Approve';

/**
 * Approves a plugin file after showing exactly what it runs. Always asks, whoever calls: the
 * point of approval is that a file written by an agent does not run until a person has seen it.
 * The argument is a tree node, a Uri or a path; none means "pick one".
 */
export async function approveFile(arg: unknown, service: WorkspaceToolsService, log: vscode.LogOutputChannel): Promise<void> {
  await service.registry.initialize();
  if (!service.pluginsAllowed) {
    void explainRestrictedMode();
    return;
  }
  const file = arg === undefined ? await pickPendingFile(service) : filePathFrom(arg);
  if (file === undefined) {
    return;
  }
  let status = loadedFile(service, file);
  let text = status === undefined ? undefined : await textIfUnchanged(status.file, status.contentHash);
  if (status !== undefined && text === undefined) {
    // Changed on disk since the last load: load it again so the dialog shows what gets approved.
    await service.reload();
    status = loadedFile(service, file);
    text = status === undefined ? undefined : await textIfUnchanged(status.file, status.contentHash);
  }
  if (status === undefined) {
    void showErrorWithLog(`${file} is not a loaded plugin file (plugin files are .vscode/tools/*.json in a trusted workspace).`, log);
    return;
  }
  if (!awaitsApproval(status)) {
    void vscode.window.showInformationMessage(status.approved ? `"${status.pluginName}" is already approved.` : `"${status.pluginName}" has no tools to approve: fix its problems first.`);
    return;
  }
  if (text === undefined) {
    void vscode.window.showWarningMessage(`${vscode.workspace.asRelativePath(file)} keeps changing; try again when it is saved.`);
    return;
  }
  await confirmAndApprove(status, text, service, log);
}

async function confirmAndApprove(status: PluginFileStatus, text: string, service: WorkspaceToolsService, log: vscode.LogOutputChannel): Promise<void> {
  const prompt = describePluginFileForApproval({ pluginName: status.pluginName, displayPath: vscode.workspace.asRelativePath(status.file), text });
  const choice = await vscode.window.showWarningMessage(prompt.message, { modal: true, detail: prompt.detail }, APPROVE_LABEL);
  if (choice !== APPROVE_LABEL) {
    log.info(`[approval] not approved: ${status.file}`);
    return;
  }
  // Approve exactly the content that was shown; the registry refuses if it changed meanwhile.
  if (loadedFile(service, status.file)?.contentHash !== status.contentHash) {
    void vscode.window.showWarningMessage(`"${status.pluginName}" changed while the dialog was open; approve it again to review the new content.`);
    return;
  }
  try {
    await service.approve(status.file, status.contentHash);
  } catch (error) {
    log.error(`[approval] approving ${status.file} failed: ${String(error)}`);
    void showErrorWithLog(`Could not approve "${status.pluginName}": ${error instanceof Error ? error.message : String(error)}`, log);
  }
}

async function pickPendingFile(service: WorkspaceToolsService): Promise<string | undefined> {
  const pending = service.registry.files().filter(awaitsApproval);
  if (pending.length === 0) {
    void vscode.window.showInformationMessage('No plugin file is awaiting approval.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    pending.map((file) => ({ label: file.pluginName, description: vscode.workspace.asRelativePath(file.file), file: file.file })),
    { placeHolder: 'Plugin file to review and approve' },
  );
  return picked?.file;
}

/** In Restricted Mode no plugin file is loaded, so there is nothing to approve: say how to change that. */
async function explainRestrictedMode(): Promise<void> {
  const manage = 'Manage Workspace Trust';
  const choice = await vscode.window.showWarningMessage('Plugin tools are off in Restricted Mode: trust this workspace to load plugin files and approve them.', manage);
  if (choice === manage) {
    await vscode.commands.executeCommand('workbench.trust.manage');
  }
}
