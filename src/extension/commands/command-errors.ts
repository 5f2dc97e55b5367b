/**
 * The one error path of the extension's commands: a command handler throws, and this logs the
 * failure and shows it once, worded for the person who clicked, with an Open Log action.
 */
import * as vscode from 'vscode';

/**
 * Registers command `id`. A thrown error (or rejected promise) is logged and shown as an error
 * notification; the command then resolves to undefined instead of failing in VS Code's hands.
 */
export function registerCommand(id: string, handler: (...args: unknown[]) => unknown, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`[${id}] ${message}`);
      void showErrorWithLog(message, log);
      return undefined;
    }
  });
}

/** `error` with what was being done in front, for the notification: "Could not create x: EEXIST". */
export function failure(what: string, error: unknown): Error {
  return new Error(`${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/**
 * Shows an error the user caused by a click, with a way to the log for the details. Resolves
 * when the notification is dismissed: callers do not wait for it.
 */
export async function showErrorWithLog(message: string, log: vscode.LogOutputChannel): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, 'Open Log');
  if (choice === 'Open Log') {
    log.show();
  }
}
