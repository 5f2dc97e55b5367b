import * as vscode from 'vscode';
import { WALKTHROUGH_EVENTS } from './context-keys';

/**
 * Raises a walkthrough event: its context key becomes true, then false again, so the step whose
 * `completionEvents` has `onContext:<key>` completes now, and the next time the event happens
 * the key changes again. Never fails its caller (a step left open is all that can go wrong).
 */
export async function raiseWalkthroughEvent(event: keyof typeof WALKTHROUGH_EVENTS): Promise<void> {
  const key = WALKTHROUGH_EVENTS[event];
  try {
    await vscode.commands.executeCommand('setContext', key, true);
    await vscode.commands.executeCommand('setContext', key, false);
  } catch {
    // Nothing to do: the walkthrough's checkbox can still be ticked by hand.
  }
}
