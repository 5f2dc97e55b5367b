/**
 * `list-files`: the files of a workspace folder that matter (tracked, plus untracked files
 * that are not ignored), from `git ls-files`; outside a repository a bounded directory walk.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ToolDefinition, ToolInput, ToolResult, ToolRunContext, WorkspaceFolder } from '../types';
import { textResult } from '../types';
import { FOLDER_PROPERTY, resolveFolder } from './folder';
import { folderGlobPathspecs, folderPathspec, insideFolder, NotGitRepositoryError, runGit } from './git';
import { compileGlob } from './glob';
import { boundedInteger, optionalString } from './input';

const DEFAULT_RESULTS = 500;
const MAX_RESULTS = 5000;
/** Entries the fallback walk looks at before it stops, so a huge tree cannot stall a call. */
const WALK_LIMIT = 20_000;
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

/** Files found, sorted, and whether the list is known to be complete. */
interface Listing {
  readonly files: readonly string[];
  readonly complete: boolean;
  readonly source: 'git' | 'walk';
}

async function gitFiles(folder: WorkspaceFolder, glob: string | undefined, context: ToolRunContext): Promise<Listing> {
  const pathspecs = glob === undefined ? [folderPathspec(folder)] : folderGlobPathspecs(folder, glob);
  // -z: names come out raw, so a newline or quote in a file name cannot break the parse.
  const args = ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...pathspecs];
  const { stdout, truncated } = await runGit(folder, args, context);
  const names = stdout.split('\0');
  // The last name is cut off when the output hit the cap; it is empty otherwise.
  names.pop();
  const files = [...new Set(names)].filter(insideFolder).sort();
  return { files, complete: !truncated, source: 'git' };
}

/** Breadth-first walk that skips .git and node_modules and never follows symlinks. */
async function walkFiles(folder: WorkspaceFolder, glob: string | undefined, context: ToolRunContext): Promise<Listing> {
  const matcher = glob === undefined ? undefined : compileGlob(glob);
  const files: string[] = [];
  const queue = [''];
  let seen = 0;
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    if (context.signal.aborted) {
      throw new Error('list-files was cancelled.');
    }
    const entries = await fs.readdir(path.join(folder.path, dir), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (++seen > WALK_LIMIT) {
        return { files: files.sort(), complete: false, source: 'walk' };
      }
      const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) {
          queue.push(relative);
        }
      } else if (matcher === undefined || matcher.matches(relative)) {
        files.push(relative);
      }
    }
  }
  return { files: files.sort(), complete: true, source: 'walk' };
}

function render(listing: Listing, max: number, glob: string | undefined): string {
  const scope = glob === undefined ? '' : ` matching "${glob}"`;
  if (listing.files.length === 0) {
    return listing.complete ? `No files${scope}.` : `No files${scope} among the entries scanned before the limit.`;
  }
  const shown = listing.files.slice(0, max);
  const hidden = listing.files.length - shown.length;
  const origin =
    listing.source === 'git'
      ? 'tracked and untracked, not ignored'
      : 'not a git repository: directory walk, .git and node_modules skipped';
  const lines = [`${listing.files.length}${listing.complete ? '' : '+'} files${scope} (${origin}):`, ...shown];
  const more = moreNote(hidden, listing.complete);
  if (more !== undefined) {
    lines.push(`[${more}; narrow the search with "glob" or raise "maxResults" (max ${MAX_RESULTS})]`);
  }
  return lines.join('\n');
}

/** How many paths the answer leaves out, when it leaves any out. */
function moreNote(hidden: number, complete: boolean): string | undefined {
  if (complete) {
    return hidden > 0 ? `${hidden} more files not shown` : undefined;
  }
  return hidden > 0
    ? `at least ${hidden} more files not shown (the listing also stopped at its size limit)`
    : 'more files exist: the listing stopped at its size limit';
}

async function run(input: ToolInput, context: ToolRunContext): Promise<ToolResult> {
  const folder = resolveFolder(input['folder'], context.folders);
  const glob = optionalString(input, 'glob');
  const max = boundedInteger(input, 'maxResults', { min: 1, max: MAX_RESULTS, fallback: DEFAULT_RESULTS });
  let listing: Listing;
  try {
    listing = await gitFiles(folder, glob, context);
  } catch (error) {
    if (!(error instanceof NotGitRepositoryError)) {
      throw error;
    }
    listing = await walkFiles(folder, glob, context);
  }
  return textResult(render(listing, max, glob));
}

/** Built-in tool: list files, honouring .gitignore, filtered by a glob. */
export const listFilesTool: ToolDefinition = {
  name: 'list-files',
  title: 'List Files',
  description:
    'List the files of a workspace folder, one path per line relative to the folder: tracked ' +
    'files plus untracked files that are not ignored by .gitignore (build output and ' +
    'dependencies are left out). Filter with "glob": "*.ts" matches at any depth, "src/**/*.ts" ' +
    'below src, "{a,b}" alternatives, a directory name lists everything below it. The list is ' +
    'capped at "maxResults" with a note saying how many more exist. Use it to find files by name ' +
    'before reading them; use search-text to find files by content.',
  inputSchema: {
    type: 'object',
    properties: {
      glob: {
        type: 'string',
        description:
          'Glob relative to the folder: * and ? stay within one path segment, ** spans directories, {a,b} alternatives. Without "/" it matches names at any depth.',
      },
      maxResults: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_RESULTS,
        default: DEFAULT_RESULTS,
        description: `Most paths to return (1-${MAX_RESULTS}, default ${DEFAULT_RESULTS}).`,
      },
      folder: FOLDER_PROPERTY,
    },
    additionalProperties: false,
  },
  tags: ['read'],
  source: { kind: 'builtin' },
  handlerSummary: 'git ls-files --cached --others --exclude-standard -- :(glob)<glob>',
  run,
};
