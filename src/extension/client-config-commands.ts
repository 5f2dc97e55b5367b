/**
 * Door 2 for clients outside VS Code: set up Claude Code (`.mcp.json`, and the read-only tools in
 * `.claude/settings.json`), or copy a command line for any other MCP client. The text work is
 * pure (src/core/client-config); this file only picks the folder, reads and writes through VS
 * Code, and tells the user.
 */
import * as vscode from 'vscode';
import { clientTarget } from '../core/client-config/clients';
import { commandLineOf, shellFlavorFor } from '../core/client-config/command-line';
import type { ServerLauncher } from '../core/client-config/launch';
import { launchCommand } from '../core/client-config/launch';
import { hostPlatform } from '../core/platform/platform';
import { BUILTIN_TOOLS } from '../core/builtins';
import { CLAUDE_SETTINGS_FILE, mergeAllowedTools, readOnlyToolNames } from '../core/client-config/claude-settings';
import type { MergeOutcome } from '../core/client-config/mcp-json';
import { MCP_JSON_FILE, MCP_SERVER_NAME, mergeMcpJson } from '../core/client-config/mcp-json';
import { projectFilesReadBy } from '../core/client-config/project-servers';
import { failure, registerCommand } from './commands/command-errors';
import type { WorkspaceToolsService } from './service';
import { raiseWalkthroughEvent } from './walkthrough-events';

/**
 * Registers `workspaceTools.writeMcpJson` and `workspaceTools.copyServerCommand`. Both give the
 * npx form of this extension's version, `npx -y workspace-tools-mcp@<version>`: a path into the
 * extension's folder would change with every update and mean nothing on a teammate's machine.
 */
export function registerClientConfigCommands(context: vscode.ExtensionContext, service: WorkspaceToolsService, log: vscode.LogOutputChannel): void {
  const launcher: ServerLauncher = { kind: 'npx', version: String((context.extension.packageJSON as { version?: unknown }).version) };
  context.subscriptions.push(
    registerCommand('workspaceTools.writeMcpJson', () => writeClaudeSetup(launcher, service, log), log),
    registerCommand('workspaceTools.copyServerCommand', () => copyServerCommand(launcher, log), log),
  );
}

/**
 * Sets up Claude Code for the chosen folder: our server in `.mcp.json`, and the read-only tools
 * (the built-ins, and the approved plugin tools) in `.claude/settings.json` `permissions.allow`.
 */
async function writeClaudeSetup(launcher: ServerLauncher, service: WorkspaceToolsService, log: vscode.LogOutputChannel): Promise<void> {
  const folder = await pickFolder();
  if (folder === undefined) {
    return;
  }
  await service.registry.initialize();
  const plugins = service.registry.list().filter((tool) => tool.source.kind === 'plugin');
  const names = readOnlyToolNames(MCP_SERVER_NAME, [...BUILTIN_TOOLS, ...plugins]);
  const mcpJson = await mergeWorkspaceFile(vscode.Uri.joinPath(folder.uri, MCP_JSON_FILE), (text) => mergeMcpJson(text, MCP_SERVER_NAME, clientTarget('claude').entry(launcher)), log);
  if (mcpJson === undefined) {
    return;
  }
  const settings = await mergeWorkspaceFile(vscode.Uri.joinPath(folder.uri, ...CLAUDE_SETTINGS_FILE.split('/')), (text) => mergeAllowedTools(text, names), log);
  if (settings === undefined) {
    return;
  }
  await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, MCP_JSON_FILE));
  void raiseWalkthroughEvent('claudeConfigured');
  void vscode.window.showInformationMessage(
    `Claude Code now starts the Workspace Tools MCP server from ${MCP_JSON_FILE} and runs its ${names.length} read-only tools without asking (${CLAUDE_SETTINGS_FILE}). ` +
      (projectFilesReadBy(vscode.version).some((file) => file.file === MCP_JSON_FILE)
        ? `VS Code's chat starts it from ${MCP_JSON_FILE} too, instead of this extension's own (the tools view's "MCP server" row says which). `
        : '') +
      'It serves a plugin file only once you have approved its exact content, here in the tools view or with the server\'s "approve" command in a terminal.',
  );
}

/**
 * Merges into one file of the folder (through the open document when there is one, so unsaved
 * changes elsewhere in it stay and the edit can be undone). Resolves to whether it changed, or
 * undefined when the file was left alone because it does not parse (the user is told where).
 */
async function mergeWorkspaceFile(uri: vscode.Uri, merge: (existing: string | undefined) => MergeOutcome, log: vscode.LogOutputChannel): Promise<boolean | undefined> {
  try {
    const document = await openIfExists(uri);
    const outcome = merge(document?.getText());
    if (!outcome.ok) {
      await refuseBrokenFile(uri, outcome, log);
      return undefined;
    }
    if (document === undefined) {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(outcome.text));
    } else if (outcome.changed) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), outcome.text);
      await vscode.workspace.applyEdit(edit);
      await document.save();
    }
    log.info(`[client-config] ${outcome.changed ? 'wrote' : 'kept (already up to date)'} ${uri.fsPath}`);
    return outcome.changed;
  } catch (error) {
    throw failure(`Could not write ${uri.fsPath}`, error);
  }
}

/** Copies `npx -y workspace-tools-mcp@<version> --workspace "<folder>"` for the open folders. */
async function copyServerCommand(launcher: ServerLauncher, log: vscode.LogOutputChannel): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const line = commandLineOf(launchCommand(launcher, folders.flatMap((folder) => ['--workspace', folder])), shellFlavorFor(hostPlatform().name));
  await vscode.env.clipboard.writeText(line);
  log.info(`[client-config] copied server command line: ${line}`);
  const where = folders.length === 0 ? 'the directory it is started in' : 'this workspace';
  void vscode.window.showInformationMessage(`Copied the MCP server command line for ${where}: ${line}`);
}

/** The only folder, or the user's pick among several (undefined when cancelled or none). */
async function pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showErrorMessage(`Open a folder first: ${MCP_JSON_FILE} is written in the project's root folder.`);
    return undefined;
  }
  if (folders.length === 1) {
    return folders[0];
  }
  return vscode.window.showWorkspaceFolderPick({ placeHolder: `Folder to write ${MCP_JSON_FILE} in` });
}

async function openIfExists(uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  try {
    await vscode.workspace.fs.stat(uri);
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') {
      return undefined;
    }
    throw error;
  }
  return vscode.workspace.openTextDocument(uri);
}

/** A file that does not parse is left as it is: say where the problem is and offer to go there. */
async function refuseBrokenFile(
  uri: vscode.Uri,
  problem: { line: number; column: number; message: string },
  log: vscode.LogOutputChannel,
): Promise<void> {
  const where = `${vscode.workspace.asRelativePath(uri)}:${problem.line}:${problem.column}`;
  log.warn(`[client-config] not updating ${uri.fsPath}:${problem.line}:${problem.column}: ${problem.message}`);
  const choice = await vscode.window.showErrorMessage(
    `${where}: ${problem.message}. The file was left unchanged; fix it and run the command again.`,
    'Open File',
  );
  if (choice === 'Open File') {
    const position = new vscode.Position(problem.line - 1, problem.column - 1);
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position) });
  }
}
