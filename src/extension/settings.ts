import * as vscode from 'vscode';
import type { ToolSettings } from '../core/settings/tool-settings';
import { SETTINGS_SECTION, readToolSettings } from '../core/settings/tool-settings';

/** The current settings (core/settings/tool-settings.ts), read where used: never cached across a change. */
export function readSettings(): ToolSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return readToolSettings((key) => config.get(key));
}

/** Whether a configuration change touches one of our settings (`key` narrows it further). */
export function affects(event: vscode.ConfigurationChangeEvent, key?: string): boolean {
  return event.affectsConfiguration(key === undefined ? SETTINGS_SECTION : `${SETTINGS_SECTION}.${key}`);
}

/** Turns a tool on or off in the user's settings (workspace level when a folder is open). */
export async function setToolDisabled(name: string, disabled: boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const current = new Set(config.get<string[]>('disabledTools', []));
  if (disabled) {
    current.add(name);
  } else {
    current.delete(name);
  }
  const target = vscode.workspace.workspaceFolders?.length
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  // An empty list is no setting: it is removed (no `"disabledTools": []` left in a new
  // .vscode/settings.json), unless the workspace needs it to override a user-level list.
  const inherited = target === vscode.ConfigurationTarget.Workspace ? (config.inspect<string[]>('disabledTools')?.globalValue ?? []) : [];
  await config.update('disabledTools', current.size === 0 && inherited.length === 0 ? undefined : [...current].sort(), target);
}
