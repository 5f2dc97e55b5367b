import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkspaceToolsService } from './service';

/**
 * How a plugin file's path is shown (tools view, notifications): relative to its workspace folder
 * when it is inside one, and "registered by an extension" for the files of `registerTools`,
 * which live in the extension's storage.
 */
export function pluginFileDisplayPath(file: string, service: WorkspaceToolsService): string {
  if (path.dirname(file) === service.registeredToolsDirectory) {
    return `registered by an extension (${path.basename(file)})`;
  }
  return vscode.workspace.asRelativePath(file, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}
