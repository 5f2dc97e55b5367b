import * as path from 'node:path';
import { builtinDependencies, createBuiltinTools } from './builtins';
import type { CallHistory } from './history/history-file';
import type { Sandbox } from './sandbox/sandbox';
import type { PluginDirectory, PluginFile } from './plugins/plugin-file';
import { PluginFileCache, loadPluginDirectories } from './plugins/scan-directories';
import type { ApprovalPolicy } from './approval/approval-policy';
import { ToolRegistry } from './registry/tool-registry';
import type { ExecutionLimits, Logger, ToolDefinition, WorkspaceFolder } from './types';

/** Where a workspace's own plugin files live, relative to each folder. */
export const WORKSPACE_PLUGIN_DIRECTORY = path.join('.vscode', 'tools');

/** Everything both hosts (the extension and the standalone server) configure. */
export interface WorkspaceRegistryOptions {
  readonly folders: () => readonly WorkspaceFolder[];
  /** Extra plugin directories (user-level tools); their tools work in the first folder. */
  readonly extraPluginDirectories?: () => readonly string[];
  readonly includeBuiltins: boolean;
  /**
   * Tools served after the built-ins, whatever `includeBuiltins` says: the editor tools (the
   * window's own, or a window's bridge in a server its terminal started; core/editor-bridge).
   */
  readonly extraTools?: readonly ToolDefinition[];
  /** False turns every plugin directory off (`--no-plugins`, Restricted Mode). */
  readonly includePlugins: boolean;
  /** False leaves out each folder's `.vscode/tools` (untrusted workspace) but keeps extras. */
  readonly includeWorkspacePlugins?: boolean;
  readonly approval: ApprovalPolicy;
  readonly limits: () => ExecutionLimits;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  readonly disabledTools?: Iterable<string>;
  readonly history?: CallHistory;
  /** The OS sandbox shell and imported tools run in. */
  readonly sandbox?: Sandbox;
}

/**
 * The plugin directories in registration order: each folder's `.vscode/tools` in folder
 * order, then the extra directories in the order given.
 */
export function pluginDirectoriesFor(
  folders: readonly WorkspaceFolder[],
  extra: readonly string[],
  includeWorkspace = true,
): PluginDirectory[] {
  const workspace = includeWorkspace
    ? folders.map((folder) => ({ path: path.join(folder.path, WORKSPACE_PLUGIN_DIRECTORY), folder }))
    : [];
  const first = folders[0];
  const extras =
    first === undefined ? [] : extra.map((directory) => ({ path: path.resolve(first.path, directory), folder: first }));
  return [...workspace, ...extras];
}

/** A registry wired to the built-ins and the workspace's plugin directories. */
export function createWorkspaceRegistry(options: WorkspaceRegistryOptions): ToolRegistry {
  // Unchanged files come back from the cache as the same objects, tools and all: a reload builds
  // only what changed.
  const cache = new PluginFileCache();
  const loadPlugins = options.includePlugins
    ? async (): Promise<readonly PluginFile[]> => {
        const directories = pluginDirectoriesFor(
          options.folders(),
          options.extraPluginDirectories?.() ?? [],
          options.includeWorkspacePlugins ?? true,
        );
        return loadPluginDirectories(directories, cache, { env: options.env });
      }
    : undefined;
  return new ToolRegistry({
    builtins: [...(options.includeBuiltins ? createBuiltinTools(builtinDependencies()) : []), ...(options.extraTools ?? [])],
    ...(loadPlugins === undefined ? {} : { loadPlugins }),
    approval: options.approval,
    folders: options.folders,
    limits: options.limits,
    env: options.env,
    logger: options.logger,
    ...(options.disabledTools === undefined ? {} : { disabledTools: options.disabledTools }),
    ...(options.history === undefined ? {} : { history: options.history }),
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
  });
}
