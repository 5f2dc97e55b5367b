/**
 * `git-status`: the working tree's changes at or below the workspace folder, in one `git status`
 * process (it is benchmarked against a bare `git status --porcelain`): the filter drivers to
 * switch off are remembered per folder while its config files are unchanged (git-filter-cache.ts).
 */
import type { ToolDefinition, ToolInput, ToolResult, ToolRunContext } from '../types';
import { textResult } from '../types';
import { builtinTool } from './builtin-tool';
import type { BuiltinDependencies } from './dependencies';
import { FOLDER_PROPERTY, resolveFolder } from './folder';
import { folderPathspec, folderRelativePath, runGit } from './git';
import { optionalString } from './input';

const LEGEND =
  'Format: "XY path", X = staged (index) state, Y = unstaged (working tree) state; ' +
  'M modified, A added, D deleted, R renamed, U unmerged, ?? untracked.';

async function run(input: ToolInput, context: ToolRunContext, deps: Pick<BuiltinDependencies, 'gitFilters'>): Promise<ToolResult> {
  const folder = resolveFolder(input['folder'], context.folders);
  const requested = optionalString(input, 'path');
  // Submodules are compared by commit only: looking inside one would run git in it with its own
  // config, which the overrides here do not cover. The pathspec keeps the answer to the folder.
  const relative = requested === undefined ? '.' : folderRelativePath(requested, folder);
  const args = ['status', '--porcelain=v1', '--branch', '--ignore-submodules=dirty', '--', folderPathspec(folder, relative)];
  const { stdout, truncated } = await runGit(folder, args, context, { filtersOff: deps.gitFilters });
  const lines = stdout.split('\n').filter((line) => line !== '');
  const branch = lines[0]?.startsWith('## ') ? lines.shift() : undefined;
  const header = branch === undefined ? [] : [`Branch: ${branch.slice(3)}`];
  if (lines.length === 0) {
    const scope = requested === undefined ? '' : ` under "${requested}"`;
    return textResult([...header, `The working tree is clean (no changes${scope}).`].join('\n'), statusData(branch, [], truncated));
  }
  const note = truncated ? ['[output truncated at the output cap: pass "path" to narrow it]'] : [];
  return textResult([...header, LEGEND, ...lines, ...note].join('\n'), statusData(branch, lines, truncated));
}

/** `## main...origin/main [ahead 1, behind 2]` and the entry lines as data (see OUTPUT_SCHEMA). */
export function statusData(branchLine: string | undefined, lines: readonly string[], truncated: boolean): Record<string, unknown> {
  const entries = lines.map((line) => {
    const [origPath, path] = line.slice(3).split(' -> ');
    return {
      path: path ?? origPath ?? '',
      ...(path === undefined ? {} : { origPath: origPath ?? '' }),
      index: line.charAt(0),
      worktree: line.charAt(1),
    };
  });
  return { ...branchData(branchLine), entries, clean: entries.length === 0, truncated };
}

function branchData(line: string | undefined): Record<string, unknown> {
  if (line === undefined) {
    return {};
  }
  const text = line.slice(3);
  const unborn = /^No commits yet on (.+)$/.exec(text);
  if (unborn !== null) {
    return { branch: unborn[1] ?? '' };
  }
  if (text.startsWith('HEAD (no branch)')) {
    return { branch: null };
  }
  const match = /^(.+?)(?:\.\.\.(\S+))?(?: \[(.*)\])?$/.exec(text);
  const counts = match?.[3] ?? '';
  const ahead = /ahead (\d+)/.exec(counts)?.[1];
  const behind = /behind (\d+)/.exec(counts)?.[1];
  return {
    branch: match?.[1] ?? text,
    ...(match?.[2] === undefined ? {} : { upstream: match[2] }),
    ...(ahead === undefined ? {} : { ahead: Number(ahead) }),
    ...(behind === undefined ? {} : { behind: Number(behind) }),
  };
}

const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    branch: { type: ['string', 'null'], description: 'The checked-out branch; null when HEAD is detached.' },
    upstream: { type: 'string' },
    ahead: { type: 'integer' },
    behind: { type: 'integer' },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Relative to the repository root.' },
          origPath: { type: 'string', description: 'The path before a rename or copy.' },
          index: { type: 'string', description: 'Staged state: M, A, D, R, C, U, ? or space.' },
          worktree: { type: 'string', description: 'Unstaged state: M, D, U, ? or space.' },
        },
        required: ['path', 'index', 'worktree'],
      },
    },
    clean: { type: 'boolean' },
    truncated: { type: 'boolean' },
  },
  required: ['entries', 'clean', 'truncated'],
} as const;

/** What the tool is, besides how it runs (createGitStatusTool below). */
const DEFINITION: Omit<ToolDefinition, 'run'> = {
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
  outputSchema: OUTPUT_SCHEMA,
  tags: ['read'],
  source: { kind: 'builtin' },
  handlerSummary: 'git status --porcelain=v1 --branch --ignore-submodules=dirty -- <folder>/<path>',
};

/** Built-in tool: `git status` of a workspace folder, optionally limited to a path; filter drivers switched off through `deps.gitFilters`. */
export function createGitStatusTool(deps: Pick<BuiltinDependencies, 'gitFilters'>): ToolDefinition {
  return builtinTool({ ...DEFINITION, run: (input, context) => run(input, context, deps) });
}
