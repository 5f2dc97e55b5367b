/**
 * The one settings model: the `ToolSettings` type and the table that says, for each value, its
 * VS Code key, the server flag that carries it, and how a change reaches the MCP server a window
 * starts (live: through the watched settings file; restart: the server's command line changes, or
 * whether there is a server). The extension reads settings, writes the live settings file and
 * decides on restarts from this table alone; a unit test holds it to package.json.
 *
 * A value has one name in code, the field name, which is also its key in the live settings file
 * (`timeoutMs`); the VS Code key and the flag are public spellings kept for users.
 */
import type { ExecutionLimits } from '../types';
import { DEFAULT_LIMITS } from '../types';
import type { LiveSettings } from './live-settings';
import type { ServerConfig } from './server-config';
import type { SandboxSetting } from '../sandbox/status';
import { DEFAULT_SANDBOX_SETTING, SANDBOX_SETTINGS } from '../sandbox/status';

/** The configuration section; every setting id is `workspaceTools.<key>`. */
export const SETTINGS_SECTION = 'workspaceTools';

/** Every setting of the extension, as read (out-of-range numbers replaced by the defaults). */
export interface ToolSettings {
  readonly builtinsEnabled: boolean;
  readonly disabledTools: readonly string[];
  readonly pluginDirectories: readonly string[];
  /** Default timeout of shell tools and git, in ms (ExecutionLimits.timeoutMs, the same name). */
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly nestedConcurrency: number;
  readonly mcpEnabled: boolean;
  readonly mcpIncludeBuiltins: boolean;
  /** Whether shell and imported tools must, may or do not run in the OS sandbox. */
  readonly sandbox: SandboxSetting;
  /** More paths no sandboxed tool may read (absolute, or `~/`). */
  readonly sandboxDenyRead: readonly string[];
  /** Other extensions' lm tools the editor bridge serves to outside agents (names or extension ids; core/editor-bridge). */
  readonly bridgeExtensionTools: readonly string[];
}

/** How a changed setting reaches the window's MCP server. */
export type Reach = 'live' | 'restart';

/** One row of the table. */
export interface SettingRow {
  /** The key under `workspaceTools.` in VS Code's settings (package.json declares the same). */
  readonly key: string;
  readonly field: keyof ToolSettings;
  /** The server flag that carries the value (none: it decides whether there is a server). */
  readonly flag?: string;
  readonly reach: Reach;
  /** The value when unset or out of range (package.json's default). */
  readonly fallback: ToolSettings[keyof ToolSettings];
  /** The smallest accepted number (package.json's minimum). */
  readonly minimum?: number;
  /** The values a string setting may take (package.json's enum); any other reads as the fallback. */
  readonly options?: readonly string[];
}

/** Every setting, in package.json's order. */
export const SETTINGS_TABLE: readonly SettingRow[] = [
  { key: 'builtins.enabled', field: 'builtinsEnabled', flag: '--no-builtins', reach: 'restart', fallback: true },
  { key: 'disabledTools', field: 'disabledTools', flag: '--disable', reach: 'live', fallback: [] },
  { key: 'pluginDirectories', field: 'pluginDirectories', flag: '--plugins', reach: 'restart', fallback: [] },
  { key: 'shell.defaultTimeout', field: 'timeoutMs', flag: '--timeout', reach: 'live', fallback: DEFAULT_LIMITS.timeoutMs, minimum: 100 },
  { key: 'output.maxBytes', field: 'maxOutputBytes', flag: '--max-output', reach: 'live', fallback: DEFAULT_LIMITS.maxOutputBytes, minimum: 1024 },
  { key: 'nestedCalls.concurrency', field: 'nestedConcurrency', flag: '--nested-concurrency', reach: 'live', fallback: DEFAULT_LIMITS.nestedConcurrency, minimum: 1 },
  { key: 'mcp.enabled', field: 'mcpEnabled', reach: 'restart', fallback: true },
  { key: 'mcp.includeBuiltins', field: 'mcpIncludeBuiltins', flag: '--no-builtins', reach: 'restart', fallback: false },
  // Restart: what is served depends on it (under "required" without a sandbox, no shell tool is).
  { key: 'sandbox', field: 'sandbox', flag: '--sandbox', reach: 'restart', fallback: DEFAULT_SANDBOX_SETTING, options: SANDBOX_SETTINGS },
  // Not `sandbox.denyRead`: VS Code's settings are one tree, where `sandbox` cannot be a string and hold a key.
  { key: 'sandboxDenyRead', field: 'sandboxDenyRead', flag: '--sandbox-deny-read', reach: 'restart', fallback: [] },
  // Live: the window reads it at each bridge request (no restart); the server never sees it (liveSettingsOf leaves it out).
  { key: 'bridge.extensionTools', field: 'bridgeExtensionTools', reach: 'live', fallback: [] },
];

/** The keys whose change needs a new server (its command line changes, or whether there is one). */
export const RESTART_KEYS: readonly string[] = SETTINGS_TABLE.filter((row) => row.reach === 'restart').map((row) => row.key);

/** The keys the running server picks up from its live settings file. */
export const LIVE_KEYS: readonly string[] = SETTINGS_TABLE.filter((row) => row.reach === 'live').map((row) => row.key);

/**
 * The settings `get` reads (VS Code: `getConfiguration(SETTINGS_SECTION).get`), each checked
 * against its row: a value of the wrong type, or a number not positive, gives the default.
 */
export function readToolSettings(get: (key: string) => unknown): ToolSettings {
  const entries = SETTINGS_TABLE.map((row) => [row.field, valueOf(row, get(row.key))] as const);
  return Object.fromEntries(entries) as unknown as ToolSettings;
}

function valueOf(row: SettingRow, raw: unknown): ToolSettings[keyof ToolSettings] {
  if (typeof row.fallback === 'number') {
    const number = typeof raw === 'number' && Number.isFinite(raw) && raw > 0 ? raw : row.fallback;
    // A count of calls is whole; VS Code's settings editor accepts fractions.
    return row.field === 'nestedConcurrency' ? Math.floor(number) : number;
  }
  if (isStringList(row.fallback)) {
    return isStringList(raw) ? raw : row.fallback;
  }
  if (typeof row.fallback === 'string') {
    return typeof raw === 'string' && (row.options ?? []).includes(raw) ? (raw as ToolSettings[keyof ToolSettings]) : row.fallback;
  }
  return typeof raw === 'boolean' ? raw : row.fallback;
}

function isStringList(raw: unknown): raw is readonly string[] {
  return Array.isArray(raw) && raw.every((item) => typeof item === 'string');
}

/** The limits tools run with under these settings. */
export function limitsOf(settings: ToolSettings): ExecutionLimits {
  return { ...DEFAULT_LIMITS, timeoutMs: settings.timeoutMs, maxOutputBytes: settings.maxOutputBytes, nestedConcurrency: settings.nestedConcurrency };
}

/** What the running server takes from the live settings file: the live rows' values. */
export function liveSettingsOf(settings: ToolSettings): LiveSettings {
  const { disabledTools, timeoutMs, maxOutputBytes, nestedConcurrency } = settings;
  return { disabledTools, timeoutMs, maxOutputBytes, nestedConcurrency };
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
}

/**
 * The server a window starts: the restart rows on its command line, the live rows left to the
 * live settings file (so a change of those never changes the command line).
 */
export function windowServerConfig(settings: ToolSettings, paths: WindowServerPaths): ServerConfig {
  return {
    workspaces: paths.folders,
    pluginDirectories: [...settings.pluginDirectories, paths.registeredToolsDirectory],
    builtins: settings.mcpIncludeBuiltins && settings.builtinsEnabled,
    plugins: true,
    approvalsFile: paths.approvalsFile,
    approveExisting: false,
    approveChanges: false,
    disabledTools: [],
    settingsFile: paths.settingsFile,
    logLevel: 'info',
    watch: true,
    historyFile: paths.historyFile,
    history: true,
    sandbox: settings.sandbox,
    sandboxDenyRead: settings.sandboxDenyRead,
  };
}
