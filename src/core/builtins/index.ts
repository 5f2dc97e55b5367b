/**
 * The built-in tools, in the order they are listed (and registered before any plugin tool,
 * so their names win a clash). Read-only: none of them needs a confirmation. They are built by
 * createBuiltinTools from their dependencies (dependencies.ts); each set owns its caches.
 */
import type { ToolDefinition } from '../types';
import type { BuiltinDependencies } from './dependencies';
import { builtinDependencies } from './dependencies';
import { fileReaderTool } from './file-reader';
import { createGitDiffSummaryTool } from './git-diff-summary';
import { gitLogTool } from './git-log';
import { createGitStatusTool } from './git-status';
import { listFilesTool } from './list-files';
import { createSearchTextTool } from './search-text';
import { workspaceInfoTool } from './workspace-info';

/** Every built-in tool, in display order, using `deps`. */
export function createBuiltinTools(deps: BuiltinDependencies): readonly ToolDefinition[] {
  return [createGitStatusTool(deps), createGitDiffSummaryTool(deps), gitLogTool, workspaceInfoTool, fileReaderTool, listFilesTool, createSearchTextTool(deps)];
}

/**
 * The built-ins with default dependencies (ripgrep from each call's environment, their own
 * caches): what lists the tools (the manifest, the lm tools), and tests that run one directly. A
 * workspace registry builds its own set (workspace-registry.ts).
 */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = createBuiltinTools(builtinDependencies());

function builtin(name: string): ToolDefinition {
  const found = BUILTIN_TOOLS.find((tool) => tool.name === name);
  if (found === undefined) {
    throw new Error(`no built-in tool "${name}"`);
  }
  return found;
}

export const gitStatusTool = builtin('git-status');
export const gitDiffSummaryTool = builtin('git-diff-summary');
export const searchTextTool = builtin('search-text');
export { fileReaderTool, gitLogTool, listFilesTool, workspaceInfoTool };
export type { BuiltinDependencies, RipgrepLocator } from './dependencies';
export { builtinDependencies, fixedRipgrep, ripgrepFromEnvironment } from './dependencies';
export { FOLDER_PROPERTY, resolveFolder } from './folder';
