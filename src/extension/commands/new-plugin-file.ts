import { access, mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { pluginFileTemplate, validatePluginFileName } from '../../core/plugins/scaffold';
import { WORKSPACE_PLUGIN_DIRECTORY } from '../../core/workspace-registry';
import { showErrorWithLog } from './targets';

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** The folder to add the file to: the only one, or the one the user picks. */
async function pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showInformationMessage('Open a folder first: plugin files live in its .vscode/tools folder.');
    return undefined;
  }
  return folders.length === 1 ? folders[0] : vscode.window.showWorkspaceFolderPick({ placeHolder: 'Folder to add the plugin file to' });
}

/**
 * Creates `.vscode/tools/<name>.json` from the commented example and opens it. Never
 * overwrites: an existing name is refused while typing, and the write itself fails if the
 * file appeared meanwhile.
 */
export async function newPluginFile(log: vscode.LogOutputChannel): Promise<void> {
  const folder = await pickFolder();
  if (folder === undefined) {
    return;
  }
  const directory = path.join(folder.uri.fsPath, WORKSPACE_PLUGIN_DIRECTORY);
  const name = await vscode.window.showInputBox({
    title: 'New Plugin File',
    prompt: 'Name of the plugin file: it becomes .vscode/tools/<name>.json',
    placeHolder: 'team-tools',
    ignoreFocusOut: true,
    validateInput: async (value) => {
      const problem = validatePluginFileName(value.trim());
      if (problem !== undefined) {
        return problem;
      }
      return (await exists(path.join(directory, `${value.trim()}.json`))) ? `.vscode/tools/${value.trim()}.json already exists.` : undefined;
    },
  });
  if (name === undefined) {
    return;
  }
  const file = path.join(directory, `${name.trim()}.json`);
  try {
    await mkdir(directory, { recursive: true });
    await writeFile(file, pluginFileTemplate(name.trim()), { encoding: 'utf8', flag: 'wx' });
  } catch (error) {
    log.error(`[tree] creating ${file} failed: ${String(error)}`);
    void showErrorWithLog(`Could not create ${vscode.workspace.asRelativePath(file)}: ${error instanceof Error ? error.message : String(error)}`, log);
    return;
  }
  log.info(`[tree] created ${file}`);
  await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
}
