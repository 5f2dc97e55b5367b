import type * as vscode from 'vscode';

/** Minimal activation until the VS Code surface lands (its own issue). */
export function activate(_context: vscode.ExtensionContext): void {
  // Intentionally empty.
}

export function deactivate(): void {
  // Nothing to release yet.
}
