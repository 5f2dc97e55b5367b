import * as vscode from 'vscode';
import type { ApprovalSubject } from '../../core/approval/approval-subject';
import { approvalPrompt } from '../view-text/describe-file';
import type { WorkspaceToolsService } from '../service';
import { approvalHashOf } from '../../core/plugins/plugin-file';
import { awaitsApproval } from '../../core/registry/snapshot';
import { filePathFrom, loadedFile } from './targets';

/** The confirm button of the approval dialog (the e2e harness clicks it by this label). */
export const APPROVE_LABEL = 'Approve';

/**
 * The dialog's first button, which VS Code focuses, so Enter (or a double-tapped key) chooses it:
 * a harmless one that opens the file for review. Approving takes a deliberate click; Escape and
 * the close button cancel.
 */
const REVIEW_ITEM: vscode.MessageItem = { title: 'Open File' };
const APPROVE_ITEM: vscode.MessageItem = { title: APPROVE_LABEL };
const CANCEL_ITEM: vscode.MessageItem = { title: 'Cancel', isCloseAffordance: true };

/**
 * Approves a plugin file after showing exactly what it runs. Always asks, whoever calls: the
 * point of approval is that a file written by an agent does not run until a person has seen it.
 * The argument is a tree node, a Uri or a path; none means "pick one". Resolves to whether the
 * file is approved now.
 */
export async function approveFile(arg: unknown, service: WorkspaceToolsService, log: vscode.LogOutputChannel): Promise<boolean> {
  await service.registry.initialize();
  if (!service.pluginsAllowed) {
    void explainRestrictedMode();
    return false;
  }
  const file = arg === undefined ? await pickPendingFile(service) : filePathFrom(arg);
  if (file === undefined) {
    return false;
  }
  // Load what is on disk now, so the dialog shows the content a save just wrote.
  await service.reload();
  const status = loadedFile(service, file);
  if (status === undefined) {
    throw new Error(`${file} is not a loaded plugin file (plugin files are .vscode/tools/*.json in a trusted workspace).`);
  }
  const subject = service.registry.approvalSubject(status.file);
  if (!awaitsApproval(status) || subject === undefined) {
    void vscode.window.showInformationMessage(status.approved ? `"${status.pluginName}" is already approved.` : `"${status.pluginName}" has no tools to approve: fix its problems first.`);
    return status.approved;
  }
  return confirmAndApprove(subject, service, log);
}

/** Shows what the file runs and approves it on a click of Approve; resolves to whether it did. */
async function confirmAndApprove(subject: ApprovalSubject, service: WorkspaceToolsService, log: vscode.LogOutputChannel): Promise<boolean> {
  const prompt = approvalPrompt(subject, vscode.workspace.asRelativePath(subject.file), service.sandboxView());
  const choice = await vscode.window.showWarningMessage(prompt.message, { modal: true, detail: prompt.detail }, REVIEW_ITEM, APPROVE_ITEM, CANCEL_ITEM);
  if (choice !== APPROVE_ITEM) {
    log.info(`[approval] not approved: ${subject.file}`);
    if (choice === REVIEW_ITEM) {
      await vscode.window.showTextDocument(vscode.Uri.file(subject.file), { preview: false });
    }
    return false;
  }
  // Exactly what was shown runs: the registry refuses if that changed meanwhile.
  const now = loadedFile(service, subject.file);
  if (now === undefined || approvalHashOf(now.loaded) !== subject.contentHash) {
    void vscode.window.showWarningMessage(`"${subject.pluginName}" changed while the dialog was open; approve it again to review the new content.`);
    return false;
  }
  await service.approve(subject.file, subject.contentHash);
  return true;
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
