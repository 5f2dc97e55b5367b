/**
 * What every subcommand starts from: the folders, limits, approval policy and tool registry
 * that the command line describes, built the same way for `serve`, `list`, `call` and the rest.
 */
import * as path from 'node:path';
import { defaultApprovalStorePath } from '../../core/approval/store-path';
import type { LiveSettings } from '../../core/settings/live-settings';
import { NO_LIVE_SETTINGS, readLiveSettings } from '../../core/settings/live-settings';
import type { ApprovalPolicy } from '../../core/approval/approval-policy';
import { ApproveAllPolicy, ExistingFilesPolicy, StoredApprovalPolicy } from '../../core/approval/approval-policy';
import type { ToolRegistry } from '../../core/registry/tool-registry';
import type { ExecutionLimits, Logger, ToolDefinition, WorkspaceFolder } from '../../core/types';
import { HistoryFile } from '../../core/history/history-file';
import { defaultHistoryPath } from '../../core/history/history-path';
import { createWorkspaceRegistry } from '../../core/workspace-registry';
import type { ServerConfig } from '../../core/settings/server-config';
import { serverLimitsOf } from '../../core/settings/settings-limits';
import type { Sandbox } from '../../core/sandbox/sandbox';
import { createSandbox } from '../../core/sandbox/sandbox-service';
import type { UserPlace } from '../../core/sandbox/user-place';
import { userPlace } from '../../core/sandbox/user-place';

/** A registry and what it was built from. */
export interface CommandSetup {
  readonly folders: readonly WorkspaceFolder[];
  readonly approval: ApprovalPolicy;
  readonly storePath: string;
  readonly registry: ToolRegistry;
  /** The limits in force now (the command line's, then the live settings'). */
  limits(): ExecutionLimits;
  /** Applies live settings (from the --settings file): disabled tools and limits, at once. */
  applyLiveSettings(settings: LiveSettings): void;
  /** Where calls are recorded, unless `--no-history`. */
  readonly history?: HistoryFile;
  /** The OS sandbox shell and imported tools run in (`--sandbox`); its brokers start on first need. */
  readonly sandbox: Sandbox;
}

/** The approval store the options name, else the per-user one. */
export function storePathFor(options: ServerConfig): string {
  return options.approvalsFile ?? defaultApprovalStorePath();
}

/**
 * The store, with `--approve-existing` (files as they are at the first load) or
 * `--approve-changes` (everything) on top when asked for. Nothing else approves.
 */
export function approvalPolicyFor(options: ServerConfig, logger: Logger): ApprovalPolicy {
  if (options.approveChanges) {
    return new ApproveAllPolicy();
  }
  const stored = new StoredApprovalPolicy(storePathFor(options), logger);
  return options.approveExisting ? new ExistingFilesPolicy(stored) : stored;
}

/**
 * Builds the registry the options describe; `approval` replaces the options' policy; `editorTools`
 * are a VS Code window's (editor-bridge.ts), served after the built-ins. The live
 * settings file, if any, is read once here (the server then watches it).
 */
export function setUp(options: ServerConfig, logger: Logger, approval = approvalPolicyFor(options, logger), editorTools: readonly ToolDefinition[] = []): CommandSetup {
  const folders = options.workspaces.map((dir) => ({ name: path.basename(dir), path: dir }));
  const live = (options.settingsFile === undefined ? undefined : readLiveSettings(options.settingsFile, (problem) => logger.warn(`[settings] ${problem}`))) ?? NO_LIVE_SETTINGS;
  let limits = serverLimitsOf(options, live);
  const history = historyFor(options, logger);
  const sandbox = sandboxFor(options, logger);
  const registry = createWorkspaceRegistry({
    folders: () => folders,
    extraPluginDirectories: () => options.pluginDirectories,
    includeBuiltins: options.builtinsEnabled,
    // A VS Code window's editor tools, when its terminal started this process (../editor-bridge.ts).
    extraTools: editorTools,
    includePlugins: options.plugins,
    approval,
    limits: () => limits,
    env: process.env,
    logger,
    disabledTools: [...options.disabledTools, ...(live.disabledTools ?? [])],
    ...(history === undefined ? {} : { history }),
    sandbox,
  });
  const applyLiveSettings = (settings: LiveSettings): void => {
    limits = serverLimitsOf(options, settings);
    registry.setDisabledTools([...options.disabledTools, ...(settings.disabledTools ?? [])]);
  };
  return { folders, approval, storePath: storePathFor(options), registry, limits: () => limits, applyLiveSettings, sandbox, ...(history === undefined ? {} : { history }) };
}

/**
 * The sandbox `--sandbox` asks for, hiding this server's own state (the approval store's and the
 * history's folders) and the `--sandbox-deny-read` paths from every tool.
 */
export function sandboxFor(options: ServerConfig, logger: Logger): Sandbox {
  return createSandbox({ setting: options.sandbox, user: userPlaceFor(options), env: process.env, logger });
}

/**
 * What every sandbox policy of this command line hides and where: the home, this server's state
 * (the approval store's folder, and the history's, even under --no-history: another server of the
 * user's writes there) and the --sandbox-deny-read paths.
 */
export function userPlaceFor(options: ServerConfig): UserPlace {
  return userPlace({
    approvalStorePath: storePathFor(options),
    historyPath: options.historyFile ?? defaultHistoryPath(),
    ...(options.sandboxDenyRead.length === 0 ? {} : { extraDenyRead: options.sandboxDenyRead }),
  });
}

/** The history file the options name (default: the per-user one), or none for `--no-history`. */
export function historyFor(options: ServerConfig, logger: Logger): HistoryFile | undefined {
  return options.history ? new HistoryFile(options.historyFile ?? defaultHistoryPath(), logger) : undefined;
}

/** A path as the user typed it best: relative to the current directory when inside it. */
export function displayPath(file: string, cwd = process.cwd()): string {
  const relative = path.relative(cwd, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
