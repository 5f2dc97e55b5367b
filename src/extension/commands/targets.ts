import * as path from 'node:path';
import * as vscode from 'vscode';
import { samePathName } from '../../core/platform/path-rules';
import { hostPlatform } from '../../core/platform/platform';
import type { PluginFileStatus, RegisteredTool } from '../../core/registry/snapshot';
import type { WorkspaceToolsService } from '../service';
import { isToolsNode } from '../tree/nodes';

/**
 * What a command was invoked on. Menus pass the clicked tree node; other extensions, keybindings
 * and tests pass a tool name, a file Uri or a file path.
 */
export function toolFrom(arg: unknown, service: WorkspaceToolsService): RegisteredTool | undefined {
  if (isToolsNode(arg)) {
    // Look the tool up again: the node may be older than the last reload.
    return arg.kind === 'tool' ? service.registry.get(arg.tool.definition.name) : undefined;
  }
  return typeof arg === 'string' ? service.registry.get(arg) : undefined;
}

/** The absolute path of the plugin file a command argument names, if it names one. */
export function filePathFrom(arg: unknown): string | undefined {
  if (isToolsNode(arg)) {
    return arg.kind === 'file' ? arg.file.file : undefined;
  }
  if (arg instanceof vscode.Uri) {
    return arg.fsPath;
  }
  // A test item of the Testing view (its Approve action): the plugin file its test is declared in.
  if (isTestItem(arg)) {
    return arg.uri?.fsPath;
  }
  return typeof arg === 'string' && arg !== '' ? path.resolve(arg) : undefined;
}

function isTestItem(value: unknown): value is vscode.TestItem {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string' && (value as { uri?: unknown }).uri instanceof vscode.Uri;
}

/** The loaded plugin file at `file`, as of the registry's current snapshot. */
export function loadedFile(service: WorkspaceToolsService, file: string): PluginFileStatus | undefined {
  const files = service.registry.files();
  return files.find((status) => status.file === file) ?? files.find((status) => samePath(status.file, file));
}

function samePath(a: string, b: string): boolean {
  return samePathName(a, b, hostPlatform());
}

/** A quick pick over tools, for commands run from the Command Palette. */
export async function pickTool(tools: readonly RegisteredTool[], placeHolder: string): Promise<RegisteredTool | undefined> {
  const picked = await vscode.window.showQuickPick(
    tools.map((tool) => ({ label: tool.definition.name, description: tool.definition.description, tool })),
    { placeHolder, matchOnDescription: true },
  );
  return picked?.tool;
}
