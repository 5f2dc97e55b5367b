import * as vscode from 'vscode';
import type { ExecutionLimits } from '../core/types';
import { DEFAULT_LIMITS } from '../core/types';

/** The configuration section; every setting id is `workspaceTools.<key>`. */
export const SECTION = 'workspaceTools';

/** The extension's settings, read where used (never cached across a change). */
export interface WorkspaceToolsSettings {
  readonly builtinsEnabled: boolean;
  readonly disabledTools: readonly string[];
  readonly pluginDirectories: readonly string[];
  readonly mcpEnabled: boolean;
  readonly mcpIncludeBuiltins: boolean;
  readonly limits: ExecutionLimits;
}

/** The current settings, with out-of-range numbers replaced by the defaults. */
export function readSettings(): WorkspaceToolsSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    builtinsEnabled: config.get<boolean>('builtins.enabled', true),
    disabledTools: config.get<string[]>('disabledTools', []),
    pluginDirectories: config.get<string[]>('pluginDirectories', []),
    mcpEnabled: config.get<boolean>('mcp.enabled', true),
    mcpIncludeBuiltins: config.get<boolean>('mcp.includeBuiltins', false),
    limits: {
      ...DEFAULT_LIMITS,
      shellTimeoutMs: positive(config.get<number>('shell.defaultTimeout'), DEFAULT_LIMITS.shellTimeoutMs),
      maxOutputBytes: positive(config.get<number>('output.maxBytes'), DEFAULT_LIMITS.maxOutputBytes),
      nestedConcurrency: Math.floor(positive(config.get<number>('nestedCalls.concurrency'), DEFAULT_LIMITS.nestedConcurrency)),
    },
  };
}

/** Whether a configuration change touches one of our settings (`key` narrows it further). */
export function affects(event: vscode.ConfigurationChangeEvent, key?: string): boolean {
  return event.affectsConfiguration(key === undefined ? SECTION : `${SECTION}.${key}`);
}

/** Turns a tool on or off in the user's settings (workspace level when a folder is open). */
export async function setToolDisabled(name: string, disabled: boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const current = new Set(config.get<string[]>('disabledTools', []));
  if (disabled) {
    current.add(name);
  } else {
    current.delete(name);
  }
  const target = vscode.workspace.workspaceFolders?.length
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  await config.update('disabledTools', [...current].sort(), target);
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}
