/**
 * `search-text`: lines that contain a text or match a regular expression, via `git grep`
 * (tracked and untracked-not-ignored files, binaries skipped); outside a repository
 * `git grep --no-index` searches the directory instead.
 */
import { ToolInputError } from '../tool-errors';
import type { ToolDefinition, ToolInput, ToolResult, ToolRunContext, WorkspaceFolder } from '../types';
import { textResult } from '../types';
import { FOLDER_PROPERTY, resolveFolder } from './folder';
import type { GitOutput } from './git';
import { folderGlobPathspecs, folderPathspec, NotGitRepositoryError, runGit } from './git';
import { globPathspecs } from './glob';
import { boundedInteger, flag, optionalString } from './input';

const DEFAULT_RESULTS = 100;
const MAX_RESULTS = 1000;
/** A minified file's single line must not fill the answer. */
const MAX_LINE_CHARS = 300;
const NO_MATCH = 1;

interface SearchRequest {
  readonly query: string;
  readonly regex: boolean;
  readonly caseSensitive: boolean;
  readonly glob: string | undefined;
}

function readRequest(input: ToolInput): SearchRequest {
  const query = optionalString(input, 'query');
  if (query === undefined) {
    throw new ToolInputError('"query" must be a non-empty string.');
  }
  if (/[\0\n\r]/.test(query)) {
    throw new ToolInputError('"query" must be a single line without NUL bytes; search for one line at a time.');
  }
  const glob = optionalString(input, 'glob');
  return {
    query,
    regex: flag(input, 'regex'),
    caseSensitive: flag(input, 'caseSensitive'),
    glob,
  };
}

/** The grep argv; `-e` keeps a query such as `--output=x` a pattern, never an option. */
function grepArgs(request: SearchRequest, scope: readonly string[], pathspecs: readonly string[]): string[] {
  return [
    'grep',
    ...scope,
    '-n',
    '-I',
    '--no-color',
    request.regex ? '-E' : '-F',
    ...(request.caseSensitive ? [] : ['-i']),
    '-e',
    request.query,
    '--',
    ...pathspecs,
  ];
}

async function search(folder: WorkspaceFolder, request: SearchRequest, context: ToolRunContext): Promise<GitOutput> {
  const ok = { okExitCodes: [0, NO_MATCH] };
  try {
    const pathspecs = request.glob === undefined ? [folderPathspec(folder)] : folderGlobPathspecs(folder, request.glob);
    return await runGit(folder, grepArgs(request, ['--untracked'], pathspecs), context, ok);
  } catch (error) {
    if (!(error instanceof NotGitRepositoryError)) {
      throw error;
    }
    // No repository: search the directory itself, still skipping dependencies.
    const globs = request.glob === undefined ? [] : globPathspecs(request.glob);
    const pathspecs = [...globs, ':(exclude,glob)**/node_modules/**'];
    return runGit(folder, grepArgs(request, ['--no-index', '--exclude-standard'], pathspecs), context, ok);
  }
}

function render(output: GitOutput, request: SearchRequest, max: number): string {
  const kind = request.regex ? 'regular expression' : 'text';
  // git prints paths relative to the folder; one climbing out of it is never shown.
  const lines = output.stdout.split('\n').filter((line) => line !== '' && !line.startsWith('../'));
  if (output.truncated) {
    lines.pop(); // cut off at the output cap
  }
  if (output.exitCode === NO_MATCH || lines.length === 0) {
    return `No matches for the ${kind} "${request.query}".`;
  }
  const shown = lines.slice(0, max).map((line) =>
    line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} [line shortened]` : line,
  );
  const total = `${lines.length}${output.truncated ? '+' : ''}`;
  const result = [`${total} matching lines for the ${kind} "${request.query}" (path:line:text):`, ...shown];
  const hidden = lines.length - shown.length;
  if (hidden > 0 || output.truncated) {
    const more = output.truncated
      ? `at least ${hidden} more matching lines not shown (git output stopped at the output cap)`
      : `${hidden} more matching lines not shown`;
    result.push(`[${more}; narrow the search with "glob" or a more specific query]`);
  }
  return result.join('\n');
}

async function run(input: ToolInput, context: ToolRunContext): Promise<ToolResult> {
  const folder = resolveFolder(input['folder'], context.folders);
  const request = readRequest(input);
  const max = boundedInteger(input, 'maxResults', { min: 1, max: MAX_RESULTS, fallback: DEFAULT_RESULTS });
  return textResult(render(await search(folder, request, context), request, max));
}

/** Built-in tool: search file contents with git grep. */
export const searchTextTool: ToolDefinition = {
  name: 'search-text',
  title: 'Search Text',
  description:
    'Search the contents of the files in a workspace folder (tracked and untracked files, not ' +
    'those ignored by .gitignore; binary files skipped). Returns matching lines as ' +
    '"path:line:text", capped at "maxResults" with a note saying how many more exist. The query ' +
    'is literal text unless "regex" is true (POSIX extended regular expression: use [0-9], not ' +
    '\\d). Case-insensitive unless "caseSensitive" is true. Limit the files with "glob" ' +
    '(e.g. "*.ts", "src/**"). Use it to find where something is defined or used.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'Text to find (one line), or a regular expression with "regex".' },
      regex: {
        type: 'boolean',
        description: 'Treat "query" as a POSIX extended regular expression. Default false (literal text).',
      },
      caseSensitive: { type: 'boolean', description: 'Match case exactly. Default false.' },
      glob: {
        type: 'string',
        description: 'Only search files matching this glob, relative to the folder; without "/" it matches names at any depth.',
      },
      maxResults: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_RESULTS,
        default: DEFAULT_RESULTS,
        description: `Most matching lines to return (1-${MAX_RESULTS}, default ${DEFAULT_RESULTS}).`,
      },
      folder: FOLDER_PROPERTY,
    },
    required: ['query'],
    additionalProperties: false,
  },
  tags: ['read'],
  source: { kind: 'builtin' },
  handlerSummary: 'git grep -n -I [-F|-E] [-i] --untracked -e <query> -- :(glob)<glob>',
  run,
};
