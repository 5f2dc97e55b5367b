import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CODE_TYPES_FILE, codeModulePath, codeModuleTemplate, codePluginFileTemplate } from '../view-text/code-scaffold';
import { pluginFileTemplate, validatePluginFileName } from '../view-text/scaffold';
import { WORKSPACE_PLUGIN_DIRECTORY } from '../../core/workspace-registry';
import { isToolsNode } from '../tree/nodes';
import { failure } from './command-errors';

/**
 * The scripted form of the command's argument: `{ name, folder?, template? }` (folder: its name
 * or Uri). Not `kind`: an object with a string `kind` is a tree node (isToolsNode).
 */
interface NewPluginFileRequest {
  readonly name?: unknown;
  readonly folder?: unknown;
  /** "shell" (default): a commented example tool; "code": a tool that runs a TypeScript module. */
  readonly template?: unknown;
}

/** What the new file's example tool is. */
type PluginKind = 'shell' | 'code';

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

function workspaceFolders(): readonly vscode.WorkspaceFolder[] | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showInformationMessage('Open a folder first: plugin files live in its .vscode/tools folder.');
    return undefined;
  }
  return folders;
}

/** The folder to add the file to: the only one, or the one the user picks. */
async function pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = workspaceFolders();
  if (folders === undefined) {
    return undefined;
  }
  return folders.length === 1 ? folders[0] : vscode.window.showWorkspaceFolderPick({ placeHolder: 'Folder to add the plugin file to' });
}

/** The workspace folder a caller named (by name or Uri). Only a workspace folder: plugin files load from nowhere else. */
function folderFrom(value: unknown): vscode.WorkspaceFolder | undefined {
  const folders = workspaceFolders();
  if (folders === undefined) {
    return undefined;
  }
  const found =
    value instanceof vscode.Uri
      ? folders.find((folder) => folder.uri.toString() === value.toString())
      : folders.find((folder) => folder.name === value);
  if (found === undefined) {
    void vscode.window.showWarningMessage(`${value instanceof vscode.Uri ? value.fsPath : String(value)} is not a folder of this workspace.`);
  }
  return found;
}

/** Why `name` cannot be created in `directory`: the same messages the input box shows while typing. */
async function nameProblem(name: string, directory: string): Promise<string | undefined> {
  const invalid = validatePluginFileName(name);
  if (invalid !== undefined) {
    return invalid;
  }
  // A code plugin file also writes <name>.ts: neither may exist, whichever kind is picked next.
  for (const file of [`${name}.json`, `${name}.ts`]) {
    if (await exists(path.join(directory, file))) {
      return `.vscode/tools/${file} already exists.`;
    }
  }
  return undefined;
}

async function askKind(): Promise<PluginKind | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'Shell tool', description: 'runs a command, without a shell', pluginKind: 'shell' as const },
      { label: 'Code tool', description: 'runs a TypeScript module in a sandbox', pluginKind: 'code' as const },
    ],
    { title: 'New Plugin File', placeHolder: 'What the example tool in the new file runs', ignoreFocusOut: true },
  );
  return picked?.pluginKind;
}

/** "team-tools", or "team-tools-2", "-3", ... when that is taken: a name Enter can take as it is. */
async function freeName(directory: string): Promise<string> {
  for (let n = 1; ; n++) {
    const name = n === 1 ? 'team-tools' : `team-tools-${n}`;
    if ((await nameProblem(name, directory)) === undefined) {
      return name;
    }
  }
}

async function askName(directory: string): Promise<string | undefined> {
  // A suggestion written as the box's value, selected, not as a placeholder hint: Enter takes it,
  // and typing replaces it.
  const suggested = await freeName(directory);
  const name = await vscode.window.showInputBox({
    title: 'New Plugin File',
    prompt: 'Name of the plugin file: it becomes .vscode/tools/<name>.json',
    value: suggested,
    valueSelection: [0, suggested.length],
    ignoreFocusOut: true,
    validateInput: (value) => nameProblem(value.trim(), directory),
  });
  return name?.trim();
}

/** A name given by the caller, checked as the input box would; refused with its message otherwise. */
async function checkedName(value: unknown, directory: string): Promise<string | undefined> {
  const name = typeof value === 'string' ? value.trim() : '';
  const problem = await nameProblem(name, directory);
  if (problem !== undefined) {
    void vscode.window.showWarningMessage(problem);
    return undefined;
  }
  return name;
}

function requestFrom(arg: unknown): NewPluginFileRequest | undefined {
  return typeof arg === 'object' && arg !== null && !Array.isArray(arg) && !isToolsNode(arg) && 'name' in arg ? arg : undefined;
}

/**
 * Creates `.vscode/tools/<name>.json` from a commented example and opens it. For a code tool
 * (`template: "code"`, or picked) it also writes the module `.vscode/tools/<name>.ts` and the types
 * file the module references (the extension's `typesFile`, copied beside it), and opens the
 * module. Never overwrites: an existing name is refused (while typing, or with the same message
 * when a caller passes `{ name, folder?, template? }`), and the writes themselves fail if a file
 * appeared meanwhile. `written` is told the file before it is written. Resolves to the new plugin
 * file, or undefined when none was created.
 */
export async function newPluginFile(arg: unknown, log: vscode.LogOutputChannel, typesFile: string, written: (file: string) => void): Promise<vscode.Uri | undefined> {
  const request = requestFrom(arg);
  const folder = request?.folder === undefined ? await pickFolder() : folderFrom(request.folder);
  if (folder === undefined) {
    return undefined;
  }
  const directory = path.join(folder.uri.fsPath, WORKSPACE_PLUGIN_DIRECTORY);
  const name = request === undefined ? await askName(directory) : await checkedName(request.name, directory);
  if (name === undefined) {
    return undefined;
  }
  const kind = request === undefined ? await askKind() : request.template === 'code' ? 'code' : 'shell';
  if (kind === undefined) {
    return undefined;
  }
  const file = path.join(directory, `${name}.json`);
  try {
    await mkdir(directory, { recursive: true });
    // The person's own new file: its tools wait for approval, but no notification says so.
    written(file);
    await writeFile(file, kind === 'code' ? codePluginFileTemplate(name) : pluginFileTemplate(name), { encoding: 'utf8', flag: 'wx' });
    if (kind === 'code') {
      await writeCodeModule(folder.uri.fsPath, name, typesFile);
    }
  } catch (error) {
    throw failure(`Could not create ${vscode.workspace.asRelativePath(file)}`, error);
  }
  log.info(`[tree] created ${file}${kind === 'code' ? ` and ${codeModulePath(name)}` : ''}`);
  const uri = vscode.Uri.file(file);
  await vscode.window.showTextDocument(kind === 'code' ? vscode.Uri.file(path.join(folder.uri.fsPath, codeModulePath(name))) : uri, { preview: false });
  return uri;
}

/** The module of a new code tool, and the types file beside it (written when missing or outdated). */
async function writeCodeModule(folder: string, name: string, typesFile: string): Promise<void> {
  await writeFile(path.join(folder, codeModulePath(name)), codeModuleTemplate(), { encoding: 'utf8', flag: 'wx' });
  const types = await readFile(typesFile, 'utf8');
  const target = path.join(folder, WORKSPACE_PLUGIN_DIRECTORY, CODE_TYPES_FILE);
  const current = await readFile(target, 'utf8').catch(() => undefined);
  if (current !== types) {
    await writeFile(target, types, 'utf8');
  }
}
