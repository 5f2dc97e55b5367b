/**
 * The server's configuration: one type, and its command line both ways, side by side, so the
 * flags the VS Code extension writes are the flags the server reads. The settings' flags are
 * their rows' in the settings table (settings-table.ts), read and written by their kinds; this
 * module adds the server's own flags. Settings that change while VS Code runs (disabled tools,
 * limits) travel in a watched settings file instead (live-settings.ts; each row's `reach` says
 * which): a changed command line means a restart, and VS Code asks the user for one.
 */
import * as path from 'node:path';
import type { parseArgs } from 'node:util';
import type { FlaggedField, ToolSettings } from './settings-table';
import { FLAGGED_FIELDS, flagOf, rowOf, valuesOf } from './settings-table';

/** A `--log-level`: the lowest level written (`off`: none). */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'off';

/** Every level, quietest last: a logger at one level writes that level and those after it. */
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'off'];

/**
 * The settings a server's command line carries: the value of each row of the settings table
 * that has a flag (settings-table.ts), the default when its flag is absent.
 */
export type ServerSettings = { readonly [F in FlaggedField]: ToolSettings[F] };

/** What a server (and every subcommand) builds its tool registry from: its own flags, and the settings'. */
export interface ServerConfig extends ServerSettings {
  readonly workspaces: readonly string[];
  readonly plugins: boolean;
  /** The approval store (default: the per-user store, see defaultApprovalStorePath). */
  readonly approvalsFile?: string;
  /** Also serve the plugin files as they are when the process starts (CI, throwaway workspaces). */
  readonly approveExisting: boolean;
  /** Serve every plugin file, approved or not, including files written while running. */
  readonly approveChanges: boolean;
  /** Past this many bytes of stdout, answer with head and tail and link the whole output. */
  readonly largeOutputBytes?: number;
  /** A live settings file, watched: disabled tools and limits that change without a restart. */
  readonly settingsFile?: string;
  /** `--max-tasks`: most tools one client may run as MCP tasks at once (serve). */
  readonly maxTasks?: number;
  /** `--task-ttl`: how long a task and its result are kept, in ms, when the client asks for no TTL (serve). */
  readonly taskTtlMs?: number;
  /**
   * `--running-file`: where the server publishes its calls and tasks in progress, and beside which
   * it watches cancel requests (core/running/running-file.ts; a VS Code window's tools view).
   */
  readonly runningFile?: string;
  readonly logLevel: LogLevel;
  readonly watch: boolean;
  /** The call history file (default: the per-user one, see defaultHistoryPath). */
  readonly historyFile?: string;
  /** False for `--no-history`: calls are not recorded. */
  readonly history: boolean;
}

/** The parseArgs table of the server's own flags (the settings' flags are the table's). */
const OWN_OPTIONS = {
  workspace: { type: 'string', multiple: true },
  'no-plugins': { type: 'boolean' },
  approvals: { type: 'string' },
  'approve-existing': { type: 'boolean' },
  'approve-changes': { type: 'boolean' },
  'large-output': { type: 'string' },
  'max-tasks': { type: 'string' },
  'task-ttl': { type: 'string' },
  'running-file': { type: 'string' },
  settings: { type: 'string' },
  'no-watch': { type: 'boolean' },
  'log-level': { type: 'string' },
  history: { type: 'string' },
  'no-history': { type: 'boolean' },
} as const;

/** The parseArgs table of every flag of the configuration. */
export const SERVER_CONFIG_OPTIONS = { ...OWN_OPTIONS, ...settingFlagOptions() };

/** What parseArgs gives for SERVER_CONFIG_OPTIONS (plus whatever else the caller's table has). */
export type ServerConfigValues = ReturnType<typeof parseArgs<{ options: typeof OWN_OPTIONS }>>['values'] & Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

/** The parseArgs entries of the settings' flags, by flag name without its dashes. */
function settingFlagOptions(): Readonly<Record<string, { readonly type: 'boolean' | 'string'; readonly multiple?: true }>> {
  return Object.fromEntries(FLAGGED_FIELDS.map((field) => [flagOf(field).name.slice(2), rowOf(field).kind.parseArgs]));
}

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
  flag(!config.plugins, '--no-plugins');
  value('--approvals', config.approvalsFile);
  flag(config.approveExisting, '--approve-existing');
  flag(config.approveChanges, '--approve-changes');
  value('--large-output', config.largeOutputBytes === undefined ? undefined : Math.round(config.largeOutputBytes));
  value('--max-tasks', config.maxTasks === undefined ? undefined : Math.round(config.maxTasks));
  value('--task-ttl', config.taskTtlMs === undefined ? undefined : Math.round(config.taskTtlMs));
  value('--running-file', config.runningFile);
  value('--settings', config.settingsFile);
  flag(!config.watch, '--no-watch');
  value('--log-level', config.logLevel === 'info' ? undefined : config.logLevel);
  value('--history', config.historyFile);
  flag(!config.history, '--no-history');
  for (const field of FLAGGED_FIELDS) {
    argv.push(...settingToArgv(field, config[field], first));
  }
  return argv;
}

/** One setting's flag and value, none when it is the default. */
function settingToArgv<F extends FlaggedField>(field: F, value: ToolSettings[F], base: string | undefined): string[] {
  const row = rowOf(field);
  return row.kind.same(value, row.default) ? [] : row.kind.toFlag(value, { flag: flagOf(field).name, cwd: base ?? '', ...(base === undefined ? {} : { base }) });
}

/** The configuration parsed values describe (paths resolved against `cwd`), or what is wrong. */
export function serverConfigFromArgv(values: ServerConfigValues, cwd: string): ServerConfig | string {
  const logLevel = (values['log-level'] ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    return `--log-level must be one of ${LOG_LEVELS.join(', ')}`;
  }
  const largeOutputBytes = positiveInteger(values['large-output'], '--large-output');
  const maxTasks = positiveInteger(values['max-tasks'], '--max-tasks');
  const taskTtlMs = positiveInteger(values['task-ttl'], '--task-ttl');
  for (const parsed of [largeOutputBytes, maxTasks, taskTtlMs]) {
    if (typeof parsed === 'string') {
      return parsed;
    }
  }
  const settings = serverSettingsFromArgv(values, cwd);
  if (typeof settings === 'string') {
    return settings;
  }
  return {
    ...settings,
    workspaces: (values.workspace ?? [cwd]).map((dir) => path.resolve(cwd, dir)),
    plugins: values['no-plugins'] !== true,
    ...(values.approvals === undefined ? {} : { approvalsFile: path.resolve(cwd, values.approvals) }),
    approveExisting: values['approve-existing'] === true,
    approveChanges: values['approve-changes'] === true,
    ...(typeof largeOutputBytes === 'number' ? { largeOutputBytes } : {}),
    ...(typeof maxTasks === 'number' ? { maxTasks } : {}),
    ...(typeof taskTtlMs === 'number' ? { taskTtlMs } : {}),
    ...(values['running-file'] === undefined ? {} : { runningFile: path.resolve(cwd, values['running-file']) }),
    ...(values.settings === undefined ? {} : { settingsFile: path.resolve(cwd, values.settings) }),
    logLevel,
    watch: values['no-watch'] !== true,
    ...(values.history === undefined ? {} : { historyFile: path.resolve(cwd, values.history) }),
    history: values['no-history'] !== true,
  };
}

/** Each setting's value from its flag (the default when absent), or the first flag that is wrong. */
function serverSettingsFromArgv(values: ServerConfigValues, cwd: string): ServerSettings | string {
  let problem: string | undefined;
  const settings = valuesOf(FLAGGED_FIELDS, (field, row) => {
    const flag = flagOf(field).name;
    const raw = values[flag.slice(2)];
    const reading = raw === undefined ? { value: row.default } : row.kind.fromFlag(raw as string | boolean | readonly string[], { flag, cwd }, row.default);
    if ('problem' in reading) {
      problem ??= reading.problem;
      return row.default;
    }
    return reading.value;
  });
  return problem ?? settings;
}

/** A positive integer, undefined when absent, or an error message. */
function positiveInteger(raw: string | undefined, flag: string): number | string | undefined {
  if (raw === undefined) {
    return undefined;
  }
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 ? value : `${flag} needs a positive whole number, got "${raw}"`;
}
