/**
 * `git-diff-summary`: which files changed and by how many lines (`git diff --stat`), for
 * unstaged changes or, with `staged`, for what the next commit would contain.
 */
import type { ToolDefinition, ToolInput, ToolResult, ToolRunContext } from '../types';
import { textResult } from '../types';
import { builtinTool } from './builtin-tool';
import type { BuiltinDependencies } from './dependencies';
import { FOLDER_PROPERTY, resolveFolder } from './folder';
import { folderPathspec, runGit } from './git';
import { flag } from './input';

/**
 * Wide enough that long paths are not shortened to `.../name`; no external diff or textconv
 * programs, because a read-only tool must not run commands named in the repository's config.
 */
const DIFF_ARGS = [
  'diff',
  '--stat=200,160',
  '--stat-graph-width=40',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  // Submodules by commit only: looking inside one would run git with the submodule's own config.
  '--ignore-submodules=dirty',
];

async function run(input: ToolInput, context: ToolRunContext, deps: Pick<BuiltinDependencies, 'gitFilters'>): Promise<ToolResult> {
  const folder = resolveFolder(input['folder'], context.folders);
  const staged = flag(input, 'staged');
  const args = [...DIFF_ARGS, ...(staged ? ['--cached'] : []), '--', folderPathspec(folder)];
  const { stdout, truncated } = await runGit(folder, args, context, { filtersOff: deps.gitFilters });
  const body = stdout.trimEnd();
  if (body === '') {
    return textResult(
      staged
        ? 'No staged changes (the index matches HEAD).'
        : 'No unstaged changes (the working tree matches the index; untracked files are not counted).',
    );
  }
  const title = staged ? 'Staged changes (index vs HEAD):' : 'Unstaged changes (working tree vs index):';
  const note = truncated ? ['[output truncated at the output cap]'] : [];
  return textResult([title, body, ...note].join('\n'));
}

/** What the tool is, besides how it runs (createGitDiffSummaryTool below). */
const DEFINITION: Omit<ToolDefinition, 'run'> = {
  name: 'git-diff-summary',
  title: 'Git Diff Summary',
  description:
    'Summarize uncommitted changes in a workspace folder with `git diff --stat`: one line per ' +
    'changed file with the number of inserted and deleted lines, and a total. By default it ' +
    'compares the working tree with the index (unstaged changes); set "staged" to see what is ' +
    'staged for the next commit. Only files at or below the workspace folder are counted; ' +
    'untracked files are not included (use git-status for those). Paths are relative to the ' +
    'repository root.',
  inputSchema: {
    type: 'object',
    properties: {
      staged: {
        type: 'boolean',
        description: 'Summarize staged changes (git diff --cached) instead of unstaged ones. Default false.',
      },
      folder: FOLDER_PROPERTY,
    },
    additionalProperties: false,
  },
  tags: ['read'],
  source: { kind: 'builtin' },
  handlerSummary: 'git diff --stat [--cached] -- <folder>',
};

/** Built-in tool: `git diff --stat`, unstaged or staged; filter drivers switched off through `deps.gitFilters`. */
export function createGitDiffSummaryTool(deps: Pick<BuiltinDependencies, 'gitFilters'>): ToolDefinition {
  return builtinTool({ ...DEFINITION, run: (input, context) => run(input, context, deps) });
}
