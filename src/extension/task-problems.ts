/**
 * What an imported task's problem matcher found, in VS Code's Problems panel: each call result
 * with `structured.problems` (any door of this window: lm tools, Run Tool, History's Run Again)
 * replaces the problems that tool reported last time, as a task run in VS Code replaces its own.
 */
import * as vscode from 'vscode';
import type { MatchedProblem } from '../core/imports';
import type { ToolResult } from '../core/types';
import { problemsByFile } from './view-text/task-problems';

const SEVERITY: Readonly<Record<MatchedProblem['severity'], vscode.DiagnosticSeverity>> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export class TaskProblems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('workspace-tools-tasks');
  /** Per tool, its latest problems by file. */
  private readonly byTool = new Map<string, Map<string, MatchedProblem[]>>();

  /** Takes the problems of `tool`'s result, if it reports any. */
  report(tool: string, result: ToolResult): void {
    const found = problemsByFile(result.structured);
    if (found === undefined) {
      return;
    }
    this.byTool.set(tool, found);
    this.publish();
  }

  private publish(): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const [tool, files] of this.byTool) {
      for (const [file, problems] of files) {
        byFile.set(file, [...(byFile.get(file) ?? []), ...problems.map((problem) => toDiagnostic(tool, problem))]);
      }
    }
    this.collection.clear();
    for (const [file, diagnostics] of byFile) {
      this.collection.set(vscode.Uri.file(file), diagnostics);
    }
  }

  dispose(): void {
    this.collection.dispose();
  }
}

function toDiagnostic(tool: string, problem: MatchedProblem): vscode.Diagnostic {
  const start = new vscode.Position(problem.line - 1, Math.max((problem.column ?? 1) - 1, 0));
  const end = problem.endLine === undefined ? start : new vscode.Position(problem.endLine - 1, Math.max((problem.endColumn ?? problem.column ?? 1) - 1, 0));
  const diagnostic = new vscode.Diagnostic(new vscode.Range(start, end), problem.message, SEVERITY[problem.severity]);
  diagnostic.source = `Workspace Tools: ${tool}`;
  if (problem.code !== undefined) {
    diagnostic.code = problem.code;
  }
  return diagnostic;
}
