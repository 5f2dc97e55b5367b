/**
 * `search-text`: lines that contain a text or match a regular expression, in tracked and
 * untracked-not-ignored files (binaries skipped), with ripgrep when the machine has one and
 * `git grep` otherwise (search-engines.ts). Matches are read line by line and the search stops
 * as soon as there are more than `maxResults`: the answer has exactly min(maxResults, total)
 * lines, and says when more exist.
 */
import { ToolInputError } from '../tool-errors';
import type { ToolDefinition, ToolInput, ToolResult, ToolRunContext } from '../types';
import { textResult } from '../types';
import { builtinTool } from './builtin-tool';
import type { BuiltinDependencies } from './dependencies';
import { FOLDER_PROPERTY, resolveFolder } from './folder';
import { boundedInteger, flag, optionalString } from './input';
import type { SearchQuery } from './search-engines';
import { search } from './search-engines';

const DEFAULT_RESULTS = 100;
const MAX_RESULTS = 1000;
/** A minified file's single line must not fill the answer. */
const MAX_LINE_CHARS = 300;

function readQuery(input: ToolInput): SearchQuery {
  const query = optionalString(input, 'query');
  if (query === undefined) {
    throw new ToolInputError('"query" must be a non-empty string.');
  }
  if (/[\0\n\r]/.test(query)) {
    throw new ToolInputError('"query" must be a single line without NUL bytes; search for one line at a time.');
  }
  return { query, regex: flag(input, 'regex'), caseSensitive: flag(input, 'caseSensitive'), glob: optionalString(input, 'glob') };
}

/** A matching line's text as returned: shortened when the line is long. */
function shown(text: string, cut: boolean): string {
  return text.length > MAX_LINE_CHARS || cut ? `${text.slice(0, MAX_LINE_CHARS)} [line shortened]` : text;
}

const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    matches: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Relative to the workspace folder.' },
          line: { type: 'integer', description: '1-based line number.' },
          text: { type: 'string', description: 'The line, shortened to 300 characters with a note when longer.' },
        },
        required: ['path', 'line', 'text'],
      },
    },
    more: { type: 'boolean', description: 'True when more matches exist than were returned.' },
    engine: { type: 'string', enum: ['ripgrep', 'git grep'] },
  },
  required: ['matches', 'more', 'engine'],
} as const;

async function run(input: ToolInput, context: ToolRunContext, deps: Pick<BuiltinDependencies, 'ripgrep'>): Promise<ToolResult> {
  const folder = resolveFolder(input['folder'], context.folders);
  const query = readQuery(input);
  const max = boundedInteger(input, 'maxResults', { min: 1, max: MAX_RESULTS, fallback: DEFAULT_RESULTS });
  const found: { path: string; line: number; text: string }[] = [];
  let more = false;
  const { engine } = await search(folder, query, context, deps.ripgrep(context.env), (match) => {
    if (found.length === max) {
      more = true; // one past the limit: enough to say that more exist
      return false;
    }
    found.push({ path: match.path, line: match.line, text: shown(match.text, match.cut) });
    return true;
  });
  const data = { matches: found, more, engine };
  const kind = query.regex ? 'regular expression' : 'text';
  if (found.length === 0) {
    return textResult(`No matches for the ${kind} "${query.query}".`, data);
  }
  const lines = found.map((match) => `${match.path}:${match.line}:${match.text}`);
  if (!more) {
    return textResult([`${found.length} matching lines for the ${kind} "${query.query}" (path:line:text):`, ...lines].join('\n'), data);
  }
  return textResult(
    [
      `Showing the first ${max} matching lines for the ${kind} "${query.query}" (path:line:text); more exist:`,
      ...lines,
      `[more than ${max} matching lines: the search stopped after ${max}; narrow it with "glob" or a more specific query, or raise "maxResults" (max ${MAX_RESULTS})]`,
    ].join('\n'),
    data,
  );
}

/** What the tool is, besides how it runs (createSearchTextTool below). */
const DEFINITION: Omit<ToolDefinition, 'run'> = {
  name: 'search-text',
  title: 'Search Text',
  description:
    'Search the contents of the files in a workspace folder (tracked and untracked files, not ' +
    'those ignored by .gitignore; binary files skipped). Returns matching lines as ' +
    '"path:line:text", exactly "maxResults" of them when there are more, with a note that more ' +
    'exist. The query is literal text unless "regex" is true (an extended regular expression: ' +
    'use [0-9], not \\d, and no backreferences). Case-insensitive unless "caseSensitive" is ' +
    'true. Limit the files with "glob" (e.g. "*.ts", "src/**"). Use it to find where something ' +
    'is defined or used.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'Text to find (one line), or a regular expression with "regex".' },
      regex: {
        type: 'boolean',
        description: 'Treat "query" as an extended regular expression. Default false (literal text).',
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
  outputSchema: OUTPUT_SCHEMA,
  tags: ['read'],
  source: { kind: 'builtin' },
  handlerSummary: 'rg (when installed) or git grep -n -I [-F|-E] [-i] --untracked -e <query> -- :(glob)<glob>, stopped after maxResults',
};

/** Built-in tool: search file contents with the ripgrep `deps.ripgrep` finds for the call, or git grep. */
export function createSearchTextTool(deps: Pick<BuiltinDependencies, 'ripgrep'>): ToolDefinition {
  return builtinTool({ ...DEFINITION, run: (input, context) => run(input, context, deps) });
}
