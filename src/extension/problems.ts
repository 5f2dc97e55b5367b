/**
 * Plugin problems in VS Code's Problems panel, on the plugin file, underlining the offending text
 * (the same diagnostics the tools view and the server's stderr show), replaced on every reload so
 * a fixed problem goes away. Each is an error, open or closed: it keeps a tool (or the file) from
 * loading, and the status bar counts them as errors. A plugin file open in an editor is checked as
 * you type, from its text: there the JSON language service reports the syntax (see
 * reported-by-editor.ts) and this collection the rest, so each problem appears once.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadPluginFileInTurns } from '../core/plugins/load-plugin-file';
import { readPluginImports } from '../core/plugins/imported-tools';
import { readPluginSources } from '../core/plugins/plugin-sources';
import type { PluginDiagnostic, WorkspaceFolder } from '../core/types';
import { diagnosticSubject } from '../core/types';
import { loadedFile } from './commands/targets';
import { reportedByTheEditor } from './editor/reported-by-editor';
import type { WorkspaceToolsService } from './service';

/** The source of the extension's plugin problems in the Problems panel. */
export const PROBLEM_SOURCE = 'Workspace Tools';

/** How long typing pauses before an open plugin file is checked again. */
const CHECK_DELAY_MS = 250;

/** Whether a document is a plugin file: in a `.vscode/tools` folder, or loaded from an extra directory. */
export function isPluginDocument(document: vscode.TextDocument, service: WorkspaceToolsService): boolean {
  return document.uri.scheme === 'file' && (/[\\/]\.vscode[\\/]tools[\\/][^\\/]+\.json$/.test(document.uri.fsPath) || loadedFile(service, document.uri.fsPath) !== undefined);
}

export function registerPluginProblems(context: vscode.ExtensionContext, service: WorkspaceToolsService): void {
  const collection = vscode.languages.createDiagnosticCollection('workspace-tools');
  /** The problems of each open plugin file's current text, by path. */
  const live = new Map<string, readonly PluginDiagnostic[]>();
  const timers = new Map<string, NodeJS.Timeout>();
  const publish = (): void => {
    collection.clear();
    // A plugin file's problems may be in another file: a task its import section does not serve is
    // reported where tasks.json (or the Makefile, ...) declares it.
    const byDiagnosticFile = new Map<string, vscode.Diagnostic[]>();
    for (const [file, diagnostics] of problemsByFile(service, live)) {
      byDiagnosticFile.set(file, byDiagnosticFile.get(file) ?? []);
      for (const diagnostic of diagnostics) {
        const where = diagnostic.file === file || !path.isAbsolute(diagnostic.file) ? file : diagnostic.file;
        byDiagnosticFile.set(where, [...(byDiagnosticFile.get(where) ?? []), toVscode(diagnostic)]);
      }
    }
    for (const [file, diagnostics] of byDiagnosticFile) {
      collection.set(vscode.Uri.file(file), diagnostics);
    }
  };
  const check = (document: vscode.TextDocument): void => {
    const file = document.uri.fsPath;
    clearTimeout(timers.get(file));
    timers.delete(file);
    liveProblems(document, service).then(
      (diagnostics) => {
        if (vscode.workspace.textDocuments.includes(document) && !document.isClosed) {
          live.set(file, diagnostics);
          publish();
        }
      },
      () => undefined,
    );
  };
  const later = (document: vscode.TextDocument): void => {
    clearTimeout(timers.get(document.uri.fsPath));
    timers.set(document.uri.fsPath, setTimeout(() => check(document), CHECK_DELAY_MS));
  };
  context.subscriptions.push(
    collection,
    service.onDidChange(() => {
      // A reload may have found a document to be a plugin file (an extra directory's).
      vscode.workspace.textDocuments.filter((document) => isPluginDocument(document, service) && !live.has(document.uri.fsPath)).forEach(check);
      publish();
    }),
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (isPluginDocument(document, service)) {
        check(document);
      }
    }),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (isPluginDocument(event.document, service)) {
        later(event.document);
      }
    }),
    vscode.workspace.onDidCloseTextDocument((document) => {
      clearTimeout(timers.get(document.uri.fsPath));
      if (live.delete(document.uri.fsPath)) {
        publish();
      }
    }),
    { dispose: () => timers.forEach((timer) => clearTimeout(timer)) },
  );
  vscode.workspace.textDocuments.filter((document) => isPluginDocument(document, service)).forEach(check);
  publish();
}

/** The folder a plugin file's tools work in: as loaded, else the document's workspace folder. */
function folderOf(document: vscode.TextDocument, service: WorkspaceToolsService): WorkspaceFolder | undefined {
  const loaded = loadedFile(service, document.uri.fsPath)?.loaded.folder;
  const folder = vscode.workspace.getWorkspaceFolder(document.uri) ?? vscode.workspace.workspaceFolders?.[0];
  return loaded ?? (folder === undefined ? undefined : { name: folder.name, path: folder.uri.fsPath });
}

/** The problems of an open plugin file's text (unsaved edits included), as loading would find them. */
async function liveProblems(document: vscode.TextDocument, service: WorkspaceToolsService): Promise<readonly PluginDiagnostic[]> {
  const folder = folderOf(document, service) ?? { name: path.basename(path.dirname(document.uri.fsPath)), path: path.dirname(document.uri.fsPath) };
  const text = document.getText();
  const sources = await readPluginSources(text, folder);
  // Restricted Mode: the problems are still shown, but nothing of the workspace runs to find them.
  const imports = await readPluginImports(text, folder, { env: service.toolEnv, ...(vscode.workspace.isTrusted ? {} : { runsNoPrograms: true }) });
  // In turns: the editor's extension host must not stall on a file of thousands of tools either.
  return (await loadPluginFileInTurns(document.uri.fsPath, text, folder, sources, imports)).diagnostics;
}

/**
 * What the collection holds for each file: a closed file's problems as loaded; an open one's from
 * its text, without those the editor reports itself, plus what only the whole registry knows
 * (a name another file uses) while the text is the one loaded.
 */
function problemsByFile(service: WorkspaceToolsService, live: ReadonlyMap<string, readonly PluginDiagnostic[]>): Map<string, PluginDiagnostic[]> {
  const byFile = new Map<string, PluginDiagnostic[]>();
  for (const status of service.registry.files()) {
    byFile.set(status.file, [...status.diagnostics]);
  }
  for (const [file, diagnostics] of live) {
    const status = loadedFile(service, file);
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath === file);
    const saved = status !== undefined && document !== undefined && !document.isDirty && status.loaded.text === document.getText().replace(/^\uFEFF/, '');
    const registryOnly = saved ? status.diagnostics.filter((diagnostic) => !status.loaded.diagnostics.includes(diagnostic)) : [];
    byFile.set(status?.file ?? file, [...diagnostics.filter((diagnostic) => !reportedByTheEditor(diagnostic)), ...registryOnly]);
  }
  return byFile;
}

function toVscode(diagnostic: PluginDiagnostic): vscode.Diagnostic {
  const start = new vscode.Position(Math.max(diagnostic.line - 1, 0), Math.max(diagnostic.column - 1, 0));
  // Without an end, a zero-width range: VS Code underlines the word at the position.
  const end = diagnostic.endLine === undefined || diagnostic.endColumn === undefined ? start : new vscode.Position(diagnostic.endLine - 1, diagnostic.endColumn - 1);
  const subject = diagnosticSubject(diagnostic);
  const message = subject === undefined ? diagnostic.message : `${subject}: ${diagnostic.message}`;
  const result = new vscode.Diagnostic(new vscode.Range(start, end), message, vscode.DiagnosticSeverity.Error);
  result.source = PROBLEM_SOURCE;
  return result;
}
