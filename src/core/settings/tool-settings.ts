/**
 * What the extension does with the settings table (settings-table.ts): read VS Code's values,
 * write the live settings file, and build the command line of the server a window starts. It
 * decides on restarts from the table alone; a unit test holds the table to package.json.
 */
import type { ExecutionLimits } from '../types';
import type { LiveSettings } from './live-settings';
import type { ServerConfig } from './server-config';
import type { ToolSettings } from './settings-table';
import { FLAGGED_FIELDS, LIVE_FIELDS, SETTING_FIELDS, rowOf, valuesOf } from './settings-table';
import { limitsWith } from './settings-limits';

export type { ToolSettings } from './settings-table';
export { SETTINGS_SECTION } from './settings-table';

/** The keys whose change needs a new server (its command line changes, or whether there is one). */
export const RESTART_KEYS: readonly string[] = SETTING_FIELDS.filter((field) => rowOf(field).reach === 'restart').map((field) => rowOf(field).key);

/** The keys the running server picks up from its live settings file. */
export const LIVE_KEYS: readonly string[] = LIVE_FIELDS.map((field) => rowOf(field).key);

/**
 * The settings `get` reads (VS Code: `getConfiguration(SETTINGS_SECTION).get`), each read by its
 * row's kind: a value that is not one (the wrong type, a number below 1) gives the default.
 */
export function readToolSettings(get: (key: string) => unknown): ToolSettings {
  return valuesOf(SETTING_FIELDS, (_field, row) => row.kind.fromEditor(get(row.key)) ?? row.default);
}

/** The limits tools run with under these settings (the extension host's own calls). */
export function limitsOf(settings: ToolSettings): ExecutionLimits {
  return limitsWith((field) => settings[field]);
}

/** What the running server takes from the live settings file: the live rows' values. */
export function liveSettingsOf(settings: ToolSettings): LiveSettings {
  return valuesOf(LIVE_FIELDS, (field) => settings[field]);
}

/** The files and folders of a window's server that come from the window, not from settings. */
export interface WindowServerPaths {
  readonly folders: readonly string[];
  readonly approvalsFile: string;
  readonly settingsFile: string;
  /** Where the tools other extensions register are written (always served; watched, no restart). */
  readonly registeredToolsDirectory: string;
  /** The window's History view reads this file: calls from chat through MCP appear there. */
  readonly historyFile: string;
  /** The window's tools view lists the server's calls and tasks in progress from this file, in the extension's storage (core/running/running-file.ts). */
  readonly runningFile: string;
}

/**
 * The server a window starts: the restart rows on its command line, the live rows left at their
 * defaults there (they travel in the live settings file, so a change of those never changes the
 * command line).
 */
export function windowServerConfig(settings: ToolSettings, paths: WindowServerPaths): ServerConfig {
  const carried = valuesOf(FLAGGED_FIELDS, (field, row) => (row.reach === 'restart' ? settings[field] : row.default));
  return {
    ...carried,
    // The window's server serves the built-ins only when asked: chat has them as lm tools already.
    builtinsEnabled: settings.mcpIncludeBuiltins && settings.builtinsEnabled,
    pluginDirectories: [...settings.pluginDirectories, paths.registeredToolsDirectory],
    workspaces: paths.folders,
    plugins: true,
    approvalsFile: paths.approvalsFile,
    approveExisting: false,
    approveChanges: false,
    settingsFile: paths.settingsFile,
    logLevel: 'info',
    watch: true,
    historyFile: paths.historyFile,
    history: true,
    runningFile: paths.runningFile,
  };
}
