/**
 * Plugin problems in VS Code's Problems panel, on the plugin file at their line and column (the
 * same diagnostics the tools view and the server's stderr show), replaced on every reload so a
 * fixed problem goes away.
 */
import * as vscode from 'vscode';
import type { PluginDiagnostic } from '../core/types';
import type { WorkspaceToolsService } from './service';

export function registerPluginProblems(context: vscode.ExtensionContext, service: WorkspaceToolsService): void {
  const collection = vscode.languages.createDiagnosticCollection('workspace-tools');
  const update = (): void => {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const diagnostic of service.registry.diagnostics()) {
      const list = byFile.get(diagnostic.file) ?? [];
      list.push(toVscode(diagnostic));
      byFile.set(diagnostic.file, list);
    }
    collection.clear();
    for (const [file, diagnostics] of byFile) {
      collection.set(vscode.Uri.file(file), diagnostics);
    }
  };
  context.subscriptions.push(collection, service.onDidChange(update));
  update();
}

function toVscode(diagnostic: PluginDiagnostic): vscode.Diagnostic {
  // A zero-width range: VS Code underlines the word at the position.
  const position = new vscode.Position(Math.max(diagnostic.line - 1, 0), Math.max(diagnostic.column - 1, 0));
  const message = diagnostic.tool === undefined ? diagnostic.message : `tool "${diagnostic.tool}": ${diagnostic.message}`;
  const result = new vscode.Diagnostic(new vscode.Range(position, position), message, vscode.DiagnosticSeverity.Error);
  result.source = 'Workspace Tools';
  return result;
}
