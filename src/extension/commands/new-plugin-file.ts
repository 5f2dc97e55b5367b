import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CODE_TYPES_FILE, codeModulePath, codeModuleTemplate, codePluginFileTemplate } from '../view-text/code-scaffold';
import { importPluginFileTemplate, pluginFileTemplate, validatePluginFileName } from '../view-text/scaffold';
import { WORKSPACE_PLUGIN_DIRECTORY } from '../../core/workspace-registry';
import type { ImportEntry } from '../../core/imports/import-entry';
import type { ImportableSource, ImportableTask } from '../../core/imports/importable';
import { importEntriesFor } from '../../core/imports/importable';
import { isToolsNode } from '../tree/nodes';
import { failure } from './command-errors';

/**
 * The scripted form of the command's argument: `{ name, folder?, template?, import? }` (folder:
 * its name or Uri). Not `kind`: an object with a string `kind` is a tree node (isToolsNode).
 */
interface NewPluginFileRequest {
  readonly name?: unknown;
  readonly folder?: unknown;
  /**
   * "shell" (default): a commented example tool; "code": a tool that runs a TypeScript module;
   * "import": an `import` section, the entries given in `import` (what Import Tasks and Scripts writes).
   */
  readonly template?: unknown;
  readonly import?: unknown;
}

/** What the new file holds: an example tool that runs a command or a module, or imported tasks. */
type PluginKind = 'shell' | 'code' | 'import';

/** What the command needs from the window besides VS Code. */
export interface NewPluginFileDeps {
  readonly log: vscode.LogOutputChannel;
  /** The extension's types file, copied beside a new code tool's module. */
  readonly typesFile: string;
  /** Told each file before it is written (the person's own new file: no "waits for approval" notification). */
  readonly written: (file: string) => void;
  /** What the folder could import (core/imports/importable.ts, with the window's environment). */
  readonly importable: (folder: vscode.WorkspaceFolder) => Promise<ImportableSource[]>;
  /** Whether a tool of this name is served or waits already (its task is imported by some file). */
  readonly isTool: (name: string) => boolean;
}

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
      { label: 'Import tasks/scripts', description: 'serves tasks.json tasks, npm scripts, Makefile targets or just recipes', pluginKind: 'import' as const },
    ],
    { title: 'New Plugin File', placeHolder: 'What the new file serves', ignoreFocusOut: true },
  );
  return picked?.pluginKind;
}

/** A row of the import pick: a task that can be imported, or one that cannot (with why), or a source's heading. */
type ImportItem = vscode.QuickPickItem & { readonly task?: ImportableTask };

/**
 * Lists what the folder could import, grouped by source, each task with the tool it becomes and
 * what it runs; resolves to the `import` entries of the tasks the person chose (undefined when
 * none, or nothing could be imported: then a message says why).
 */
async function pickImports(folder: vscode.WorkspaceFolder, deps: NewPluginFileDeps): Promise<ImportEntry[] | undefined> {
  const sources = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Looking for tasks and scripts to import' }, () => deps.importable(folder));
  const servable = sources.reduce((sum, source) => sum + source.tasks.length, 0);
  if (servable === 0) {
    const refused = sources.flatMap((source) => source.notServed.map((entry) => `${entry.name} (${source.file}): ${entry.reason}`));
    void vscode.window.showInformationMessage(
      `Nothing to import in ${folder.name}: no .vscode/tasks.json task, package.json script, Makefile target or justfile recipe that can be served.${refused.length === 0 ? '' : ` Declared but not servable: ${refused.slice(0, 3).join('; ')}${refused.length > 3 ? '; …' : ''}`}`,
    );
    return undefined;
  }
  const items: ImportItem[] = sources.flatMap((source): ImportItem[] => [
    { label: `${source.kind} · ${source.file}`, kind: vscode.QuickPickItemKind.Separator },
    ...source.tasks.map((task): ImportItem => ({
      label: task.taskName,
      description: deps.isTool(task.toolName) ? `${task.toolName} · already a tool` : task.toolName,
      detail: `runs: ${task.runs}`,
      task,
    })),
    ...source.notServed.map((entry): ImportItem => ({ label: `$(circle-slash) ${entry.name}`, description: 'cannot be served', detail: entry.reason })),
  ]);
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Import Tasks and Scripts',
    placeHolder: 'Choose the tasks to serve as tools; the new file waits for your approval',
    canPickMany: true,
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  const tasks = (picked ?? []).flatMap((item) => (item.task === undefined ? [] : [item.task]));
  if (picked !== undefined && tasks.length === 0) {
    void vscode.window.showInformationMessage('No task chosen: no plugin file was written.');
  }
  return tasks.length === 0 ? undefined : importEntriesFor(tasks, sources);
}

/** The `import` entries a scripted caller gave, as they are (the loader checks them like any file's). */
function entriesFrom(value: unknown): ImportEntry[] | undefined {
  return Array.isArray(value) && value.length > 0 && value.every((entry) => typeof entry === 'object' && entry !== null && typeof (entry as { from?: unknown }).from === 'string') ? (value as ImportEntry[]) : undefined;
}

/** `base` ("team-tools"), or "team-tools-2", "-3", ... when that is taken: a name Enter can take as it is. */
async function freeName(directory: string, base: string): Promise<string> {
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if ((await nameProblem(name, directory)) === undefined) {
      return name;
    }
  }
}

async function askName(directory: string, base: string): Promise<string | undefined> {
  // A suggestion written as the box's value, selected, not as a placeholder hint: Enter takes it,
  // and typing replaces it.
  const suggested = await freeName(directory, base);
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
 * Creates `.vscode/tools/<name>.json` and opens it: a commented example tool, or (`import`) an
 * `import` section that serves the tasks the person chose from what the folder declares. For a
 * code tool (`template: "code"`, or picked) it also writes the module `.vscode/tools/<name>.ts` and
 * the types file the module references (copied beside it), and opens the module. Never
 * overwrites: an existing name is refused (while typing, or with the same message when a caller
 * passes `{ name, folder?, template?, import? }`), and the writes themselves fail if a file
 * appeared meanwhile. `preset` is Import Tasks and Scripts' kind: the tasks are chosen first, the
 * name after. Resolves to the new plugin file, or undefined when none was created.
 */
export async function newPluginFile(arg: unknown, deps: NewPluginFileDeps, preset?: PluginKind): Promise<vscode.Uri | undefined> {
  const request = requestFrom(arg);
  const folder = request?.folder === undefined ? await pickFolder() : folderFrom(request.folder);
  if (folder === undefined) {
    return undefined;
  }
  const scriptedKind: PluginKind | undefined = request === undefined ? undefined : request.template === 'code' ? 'code' : request.template === 'import' ? 'import' : 'shell';
  let entries = request === undefined ? undefined : entriesFrom(request.import);
  if (scriptedKind === 'import' && entries === undefined) {
    void vscode.window.showWarningMessage('A plugin file of imported tasks needs its "import" entries, such as [{ "from": "npm-scripts" }].');
    return undefined;
  }
  // Chosen first when that is what the command is for: nothing to import asks no name.
  if (request === undefined && preset === 'import') {
    entries = await pickImports(folder, deps);
    if (entries === undefined) {
      return undefined;
    }
  }
  const directory = path.join(folder.uri.fsPath, WORKSPACE_PLUGIN_DIRECTORY);
  const name = request === undefined ? await askName(directory, preset === 'import' ? 'imported-tasks' : 'team-tools') : await checkedName(request.name, directory);
  if (name === undefined) {
    return undefined;
  }
  const kind = scriptedKind ?? preset ?? (await askKind());
  if (kind === undefined) {
    return undefined;
  }
  if (kind === 'import' && entries === undefined) {
    entries = await pickImports(folder, deps);
    if (entries === undefined) {
      return undefined;
    }
  }
  const file = path.join(directory, `${name}.json`);
  try {
    await mkdir(directory, { recursive: true });
    // The person's own new file: its tools wait for approval, but no notification says so.
    deps.written(file);
    const text = kind === 'code' ? codePluginFileTemplate(name) : kind === 'import' ? importPluginFileTemplate(name, entries ?? []) : pluginFileTemplate(name);
    await writeFile(file, text, { encoding: 'utf8', flag: 'wx' });
    if (kind === 'code') {
      await writeCodeModule(folder.uri.fsPath, name, deps.typesFile);
    }
  } catch (error) {
    throw failure(`Could not create ${vscode.workspace.asRelativePath(file)}`, error);
  }
  deps.log.info(`[tree] created ${file}${kind === 'code' ? ` and ${codeModulePath(name)}` : ''}`);
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
