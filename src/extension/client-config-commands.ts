/**
 * Door 2 for clients outside VS Code: write the project's `.mcp.json` for Claude Code, or copy a
 * command line for any other MCP client. The text work is pure (src/core/client-config); this
 * file only picks the folder, reads and writes through VS Code, and tells the user.
 */
import * as vscode from 'vscode';
import { shellFlavorFor, serverCommandLine } from '../core/client-config/command-line';
import { MCP_JSON_FILE, MCP_SERVER_NAME, claudeServerEntry, mergeMcpJson } from '../core/client-config/mcp-json';
import { showErrorWithLog } from './commands/targets';
import { bundledServerPath } from './mcp-provider';

/** Registers `workspaceTools.writeMcpJson` and `workspaceTools.copyServerCommand`. */
export function registerClientConfigCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  const serverPath = bundledServerPath(context);
  context.subscriptions.push(
    vscode.commands.registerCommand('workspaceTools.writeMcpJson', () => writeMcpJson(serverPath, log)),
    vscode.commands.registerCommand('workspaceTools.copyServerCommand', () => copyServerCommand(serverPath, log)),
  );
}

/** Adds or updates our server in the chosen folder's `.mcp.json`, then shows the file. */
async function writeMcpJson(serverPath: string, log: vscode.LogOutputChannel): Promise<void> {
  const folder = await pickFolder();
  if (folder === undefined) {
    return;
  }
  const uri = vscode.Uri.joinPath(folder.uri, MCP_JSON_FILE);
  try {
    const document = await openIfExists(uri);
    const outcome = mergeMcpJson(document?.getText(), MCP_SERVER_NAME, claudeServerEntry(serverPath));
    if (!outcome.ok) {
      await refuseBrokenFile(uri, outcome, log);
      return;
    }
    if (document === undefined) {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(outcome.text));
    } else if (outcome.changed) {
      // An edit of the open document keeps unsaved changes elsewhere in it and is undoable.
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), outcome.text);
      await vscode.workspace.applyEdit(edit);
      await document.save();
    }
    await vscode.window.showTextDocument(uri);
    log.info(`[client-config] ${outcome.changed ? 'wrote' : 'kept (already up to date)'} ${uri.fsPath}`);
    void vscode.window.showInformationMessage(
      `${MCP_JSON_FILE} ${outcome.changed ? 'now starts' : 'already starts'} the Workspace Tools MCP server for Claude Code. ` +
        'Started that way, the server serves the plugin files present when it starts; files added or changed later wait until it restarts.',
    );
  } catch (error) {
    const message = `Could not write ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`;
    log.error(`[client-config] ${message}`);
    await showErrorWithLog(message, log);
  }
}

/** Copies `node "<server>" --workspace "<folder>"` for the open folders. */
async function copyServerCommand(serverPath: string, log: vscode.LogOutputChannel): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const line = serverCommandLine(serverPath, folders, shellFlavorFor(process.platform));
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
