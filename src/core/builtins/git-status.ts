/**
 * `git-status`: the working tree's changes at or below the workspace folder, in one `git status`
 * process (it is benchmarked against a bare `git status --porcelain`): the filter drivers to
 * switch off are remembered per folder while its config files are unchanged (git-filter-cache.ts).
 */
import type { ToolDefinition, ToolInput, ToolResult, ToolRunContext } from '../types';
import { textResult } from '../types';
import { FOLDER_PROPERTY, resolveFolder } from './folder';
import { folderPathspec, folderRelativePath, runGit } from './git';
import { optionalString } from './input';

const LEGEND =
  'Format: "XY path", X = staged (index) state, Y = unstaged (working tree) state; ' +
  'M modified, A added, D deleted, R renamed, U unmerged, ?? untracked.';

async function run(input: ToolInput, context: ToolRunContext): Promise<ToolResult> {
  const folder = resolveFolder(input['folder'], context.folders);
  const requested = optionalString(input, 'path');
  // Submodules are compared by commit only: looking inside one would run git in it with its own
  // config, which the overrides here do not cover. The pathspec keeps the answer to the folder.
  const relative = requested === undefined ? '.' : folderRelativePath(requested, folder);
  const args = ['status', '--porcelain=v1', '--branch', '--ignore-submodules=dirty', '--', folderPathspec(folder, relative)];
  const { stdout, truncated } = await runGit(folder, args, context, { noFilters: true });
  const lines = stdout.split('\n').filter((line) => line !== '');
  const branch = lines[0]?.startsWith('## ') ? lines.shift() : undefined;
  const header = branch === undefined ? [] : [`Branch: ${branch.slice(3)}`];
  if (lines.length === 0) {
    const scope = requested === undefined ? '' : ` under "${requested}"`;
    return textResult([...header, `The working tree is clean (no changes${scope}).`].join('\n'));
  }
  const note = truncated ? ['[output truncated at the output cap: pass "path" to narrow it]'] : [];
  return textResult([...header, LEGEND, ...lines, ...note].join('\n'));
}

/** Built-in tool: `git status` of a workspace folder, optionally limited to a path. */
export const gitStatusTool: ToolDefinition = {
  name: 'git-status',
  title: 'Git Status',
  description:
    'Show the git status of a workspace folder: the current branch with its upstream and ' +
    'ahead/behind counts, then one line per changed file (staged, unstaged, untracked; ' +
    'ignored files are not listed), at or below the workspace folder. Use it to see what has ' +
    'been modified before reviewing, committing or summarizing work. Paths are relative to the ' +
    'repository root.',
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description:
          'Only report changes at or below this file or directory, relative to the workspace folder.',
      },
      folder: FOLDER_PROPERTY,
    },
    additionalProperties: false,
  },
  tags: ['read'],
  source: { kind: 'builtin' },
  handlerSummary: 'git status --porcelain=v1 --branch --ignore-submodules=dirty -- <folder>/<path>',
  run,
};
