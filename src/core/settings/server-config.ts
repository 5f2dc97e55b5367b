/**
 * The server's configuration: one type, and its command line both ways, side by side, so the
 * flags the VS Code extension writes are the flags the server reads. Settings that change while
 * VS Code runs (disabled tools, limits) travel in a watched settings file instead (see
 * live-settings.ts; tool-settings.ts says which setting is which): a changed command line means
 * a restart, and VS Code asks the user for one.
 */
import * as path from 'node:path';
import type { parseArgs } from 'node:util';
import type { SandboxSetting } from '../sandbox/status';
import { DEFAULT_SANDBOX_SETTING, SANDBOX_SETTINGS, isSandboxSetting } from '../sandbox/status';

/** A `--log-level`: the lowest level written (`off`: none). */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'off';

/** Every level, quietest last: a logger at one level writes that level and those after it. */
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'off'];

/** What a server (and every subcommand) builds its tool registry from. */
export interface ServerConfig {
  readonly workspaces: readonly string[];
  readonly pluginDirectories: readonly string[];
  readonly builtins: boolean;
  readonly plugins: boolean;
  /** The approval store (default: the per-user store, see defaultApprovalStorePath). */
  readonly approvalsFile?: string;
  /** Also serve the plugin files as they are when the process starts (CI, throwaway workspaces). */
  readonly approveExisting: boolean;
  /** Serve every plugin file, approved or not, including files written while running. */
  readonly approveChanges: boolean;
  readonly disabledTools: readonly string[];
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** Past this many bytes of stdout, answer with head and tail and link the whole output. */
  readonly largeOutputBytes?: number;
  /** Most nested calls (callTool, tool steps, aliases) of one call that run at once. */
  readonly nestedConcurrency?: number;
  /** A live settings file, watched: disabled tools and limits that change without a restart. */
  readonly settingsFile?: string;
  /** `--max-tasks`: most tools one client may run as MCP tasks at once (serve). */
  readonly maxTasks?: number;
  /** `--task-ttl`: how long a task and its result are kept, in ms, when the client asks for no TTL (serve). */
  readonly taskTtlMs?: number;
  readonly logLevel: LogLevel;
  readonly watch: boolean;
  /** The call history file (default: the per-user one, see defaultHistoryPath). */
  readonly historyFile?: string;
  /** False for `--no-history`: calls are not recorded. */
  readonly history: boolean;
  /** `--sandbox`: whether shell and imported tools must (`required`), may (`preferred`) or do not (`off`) run in the OS sandbox. */
  readonly sandbox?: SandboxSetting;
  /** `--sandbox-deny-read`: more paths no sandboxed tool may read (absolute, or `~/`). */
  readonly sandboxDenyRead?: readonly string[];
}

/** The parseArgs table of the configuration's flags. */
export const SERVER_CONFIG_OPTIONS = {
  workspace: { type: 'string', multiple: true },
  plugins: { type: 'string', multiple: true },
  'no-builtins': { type: 'boolean' },
  'no-plugins': { type: 'boolean' },
  approvals: { type: 'string' },
  'approve-existing': { type: 'boolean' },
  'approve-changes': { type: 'boolean' },
  disable: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  'max-output': { type: 'string' },
  'large-output': { type: 'string' },
  'nested-concurrency': { type: 'string' },
  'max-tasks': { type: 'string' },
  'task-ttl': { type: 'string' },
  settings: { type: 'string' },
  'no-watch': { type: 'boolean' },
  'log-level': { type: 'string' },
  history: { type: 'string' },
  'no-history': { type: 'boolean' },
  sandbox: { type: 'string' },
  'sandbox-deny-read': { type: 'string', multiple: true },
} as const;

/** What parseArgs gives for SERVER_CONFIG_OPTIONS (plus whatever else the caller's table has). */
export type ServerConfigValues = ReturnType<typeof parseArgs<{ options: typeof SERVER_CONFIG_OPTIONS }>>['values'];

/**
 * The flags for `config`, leaving out what equals the default. Relative plugin directories are
 * resolved against the first workspace, as the editor does, so the line is self-contained.
 */
export function serverConfigToArgv(config: ServerConfig): string[] {
  const first = config.workspaces[0];
  const argv: string[] = [];
  const flag = (on: boolean, name: string): void => {
    if (on) {
      argv.push(name);
    }
  };
  const value = (name: string, given: string | number | undefined): void => {
    if (given !== undefined) {
      argv.push(name, String(given));
    }
  };
  config.workspaces.forEach((folder) => value('--workspace', folder));
  config.pluginDirectories.forEach((directory) => value('--plugins', first === undefined ? directory : path.resolve(first, directory)));
  flag(!config.builtins, '--no-builtins');
  flag(!config.plugins, '--no-plugins');
  value('--approvals', config.approvalsFile);
  flag(config.approveExisting, '--approve-existing');
  flag(config.approveChanges, '--approve-changes');
  // Sorted and deduplicated: the same setting in another order must not look like a change.
  [...new Set(config.disabledTools)].sort().forEach((name) => value('--disable', name));
  value('--timeout', config.timeoutMs === undefined ? undefined : Math.round(config.timeoutMs));
  value('--max-output', config.maxOutputBytes === undefined ? undefined : Math.round(config.maxOutputBytes));
  value('--large-output', config.largeOutputBytes === undefined ? undefined : Math.round(config.largeOutputBytes));
  value('--nested-concurrency', config.nestedConcurrency === undefined ? undefined : Math.round(config.nestedConcurrency));
  value('--max-tasks', config.maxTasks === undefined ? undefined : Math.round(config.maxTasks));
  value('--task-ttl', config.taskTtlMs === undefined ? undefined : Math.round(config.taskTtlMs));
  value('--settings', config.settingsFile);
  flag(!config.watch, '--no-watch');
  value('--log-level', config.logLevel === 'info' ? undefined : config.logLevel);
  value('--history', config.historyFile);
  flag(!config.history, '--no-history');
  value('--sandbox', config.sandbox === DEFAULT_SANDBOX_SETTING ? undefined : config.sandbox);
  (config.sandboxDenyRead ?? []).forEach((entry) => value('--sandbox-deny-read', entry));
  return argv;
}

/** The configuration parsed values describe (paths resolved against `cwd`), or what is wrong. */
export function serverConfigFromArgv(values: ServerConfigValues, cwd: string): ServerConfig | string {
  const logLevel = (values['log-level'] ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    return `--log-level must be one of ${LOG_LEVELS.join(', ')}`;
  }
  const sandbox = values.sandbox ?? DEFAULT_SANDBOX_SETTING;
  if (!isSandboxSetting(sandbox)) {
    return `--sandbox must be one of ${SANDBOX_SETTINGS.join(', ')}, got "${sandbox}"`;
  }
  const denyRead = values['sandbox-deny-read'] ?? [];
  const relative = denyRead.find((entry) => !entry.startsWith('~/') && entry !== '~' && !path.isAbsolute(entry));
  if (relative !== undefined) {
    return `--sandbox-deny-read needs an absolute path or one starting with ~/, got "${relative}"`;
  }
  const timeoutMs = positiveInteger(values.timeout, '--timeout');
  const maxOutputBytes = positiveInteger(values['max-output'], '--max-output');
  const largeOutputBytes = positiveInteger(values['large-output'], '--large-output');
  const nestedConcurrency = positiveInteger(values['nested-concurrency'], '--nested-concurrency');
  const maxTasks = positiveInteger(values['max-tasks'], '--max-tasks');
  const taskTtlMs = positiveInteger(values['task-ttl'], '--task-ttl');
  for (const parsed of [timeoutMs, maxOutputBytes, largeOutputBytes, nestedConcurrency, maxTasks, taskTtlMs]) {
    if (typeof parsed === 'string') {
      return parsed;
    }
  }
  return {
    workspaces: (values.workspace ?? [cwd]).map((dir) => path.resolve(cwd, dir)),
    pluginDirectories: (values.plugins ?? []).map((dir) => path.resolve(cwd, dir)),
    builtins: values['no-builtins'] !== true,
    plugins: values['no-plugins'] !== true,
    ...(values.approvals === undefined ? {} : { approvalsFile: path.resolve(cwd, values.approvals) }),
    approveExisting: values['approve-existing'] === true,
    approveChanges: values['approve-changes'] === true,
    disabledTools: values.disable ?? [],
    ...(typeof timeoutMs === 'number' ? { timeoutMs } : {}),
    ...(typeof maxOutputBytes === 'number' ? { maxOutputBytes } : {}),
    ...(typeof largeOutputBytes === 'number' ? { largeOutputBytes } : {}),
    ...(typeof nestedConcurrency === 'number' ? { nestedConcurrency } : {}),
    ...(typeof maxTasks === 'number' ? { maxTasks } : {}),
    ...(typeof taskTtlMs === 'number' ? { taskTtlMs } : {}),
    ...(values.settings === undefined ? {} : { settingsFile: path.resolve(cwd, values.settings) }),
    logLevel,
    watch: values['no-watch'] !== true,
    ...(values.history === undefined ? {} : { historyFile: path.resolve(cwd, values.history) }),
    history: values['no-history'] !== true,
    ...(values.sandbox === undefined ? {} : { sandbox }),
    ...(denyRead.length === 0 ? {} : { sandboxDenyRead: denyRead }),
  };
}

/** A positive integer, undefined when absent, or an error message. */
function positiveInteger(raw: string | undefined, flag: string): number | string | undefined {
  if (raw === undefined) {
    return undefined;
  }
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 ? value : `${flag} needs a positive whole number, got "${raw}"`;
}
