/**
 * What every subcommand starts from: the folders, limits, approval policy and tool registry
 * that the command line describes, built the same way for `serve`, `list`, `call` and the rest.
 */
import * as path from 'node:path';
import { defaultApprovalStorePath } from '../../core/approval/store-path';
import type { ApprovalPolicy } from '../../core/registry/approval';
import { ApproveAllPolicy, ExistingFilesPolicy, StoredApprovalPolicy } from '../../core/registry/approval';
import type { ToolRegistry } from '../../core/registry/tool-registry';
import type { ExecutionLimits, Logger, WorkspaceFolder } from '../../core/types';
import { DEFAULT_LIMITS } from '../../core/types';
import { createWorkspaceRegistry } from '../../core/workspace-registry';
import type { ServerCliOptions } from '../cli';

/** A registry and what it was built from. */
export interface CommandSetup {
  readonly folders: readonly WorkspaceFolder[];
  readonly limits: ExecutionLimits;
  readonly approval: ApprovalPolicy;
  readonly storePath: string;
  readonly registry: ToolRegistry;
}

/** The approval store the options name, else the per-user one. */
export function storePathFor(options: ServerCliOptions): string {
  return options.approvalsFile ?? defaultApprovalStorePath();
}

/**
 * The store, with `--approve-existing` (files as they are at the first load) or
 * `--approve-changes` (everything) on top when asked for. Nothing else approves.
 */
export function approvalPolicyFor(options: ServerCliOptions, logger: Logger): ApprovalPolicy {
  if (options.approveChanges) {
    return new ApproveAllPolicy();
  }
  const stored = new StoredApprovalPolicy(storePathFor(options), logger);
  return options.approveExisting ? new ExistingFilesPolicy(stored) : stored;
}

/** Builds the registry the options describe; `approval` replaces the options' policy. */
export function setUp(options: ServerCliOptions, logger: Logger, approval = approvalPolicyFor(options, logger)): CommandSetup {
  const folders = options.workspaces.map((dir) => ({ name: path.basename(dir), path: dir }));
  const limits = {
    ...DEFAULT_LIMITS,
    ...(options.timeoutMs === undefined ? {} : { shellTimeoutMs: options.timeoutMs }),
    ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
  };
  const registry = createWorkspaceRegistry({
    folders: () => folders,
    extraPluginDirectories: () => options.pluginDirectories,
    includeBuiltins: options.builtins,
    includePlugins: options.plugins,
    approval,
    limits: () => limits,
    env: process.env,
    logger,
    disabledTools: options.disabledTools,
  });
  return { folders, limits, approval, storePath: storePathFor(options), registry };
}

/** A path as the user typed it best: relative to the current directory when inside it. */
export function displayPath(file: string, cwd = process.cwd()): string {
  const relative = path.relative(cwd, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
