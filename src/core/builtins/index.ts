/**
 * The built-in tools, in the order they are listed (and registered before any plugin tool,
 * so their names win a clash). Read-only: none of them needs a confirmation.
 */
import type { ToolDefinition } from '../types';
import { fileReaderTool } from './file-reader';
import { gitDiffSummaryTool } from './git-diff-summary';
import { gitLogTool } from './git-log';
import { gitStatusTool } from './git-status';
import { listFilesTool } from './list-files';
import { searchTextTool } from './search-text';
import { workspaceInfoTool } from './workspace-info';

/** Every built-in tool, in display order. */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = [
  gitStatusTool,
  gitDiffSummaryTool,
  gitLogTool,
  workspaceInfoTool,
  fileReaderTool,
  listFilesTool,
  searchTextTool,
];

export { FOLDER_PROPERTY, resolveFolder } from './folder';
