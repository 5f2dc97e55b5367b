import * as path from 'node:path';
import { builtinDependencies, createBuiltinTools } from './builtins';
import type { PluginDirectory, PluginFile } from './plugins/plugin-file';
import { PluginFileCache, loadPluginDirectories } from './plugins/scan-directories';
import { ToolRegistry } from './registry/tool-registry';
import type { RegistryOptions } from './registry/registry-options';
import type { ToolDefinition, WorkspaceFolder } from './types';

/** Where a workspace's own plugin files live, relative to each folder. */
export const WORKSPACE_PLUGIN_DIRECTORY = path.join('.vscode', 'tools');

/** The registry's options this module passes through as they are (documented in registry-options.ts). */
type PassedThrough = 'folders' | 'approval' | 'limits' | 'env' | 'logger' | 'disabledTools' | 'history' | 'sandbox';

/**
 * Everything both hosts (the extension and the standalone server) configure: what the registry
 * itself takes, but its built-ins and plugin loader, which are made here from the rest.
 */
export interface WorkspaceRegistryOptions extends Pick<RegistryOptions, PassedThrough> {
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
  const { extraPluginDirectories, includeBuiltins, extraTools, includePlugins, includeWorkspacePlugins, ...passedThrough } = options;
  // Unchanged files come back from the cache as the same objects, tools and all: a reload builds
  // only what changed.
  const cache = new PluginFileCache();
  const loadPlugins = includePlugins
    ? async (): Promise<readonly PluginFile[]> => {
        const directories = pluginDirectoriesFor(options.folders(), extraPluginDirectories?.() ?? [], includeWorkspacePlugins ?? true);
        return loadPluginDirectories(directories, cache, { env: options.env });
      }
    : undefined;
  return new ToolRegistry({
    ...passedThrough,
    builtins: [...(includeBuiltins ? createBuiltinTools(builtinDependencies()) : []), ...(extraTools ?? [])],
    ...(loadPlugins === undefined ? {} : { loadPlugins }),
  });
}
