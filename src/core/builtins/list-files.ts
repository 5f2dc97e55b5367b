/**
 * `list-files`: the files of a workspace folder that matter (tracked, plus untracked files
 * that are not ignored), from `git ls-files`; outside a repository a bounded directory walk.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ToolDefinition, ToolInput, ToolResult, ToolRunContext, WorkspaceFolder } from '../types';
import { textResult } from '../types';
import { builtinTool } from './builtin-tool';
import { FOLDER_PROPERTY, resolveFolder } from './folder';
import { folderGlobPathspecs, folderPathspec, insideFolder, NotGitRepositoryError, runGitLines } from './git';
import { compileGlob } from './glob';
import { boundedInteger, optionalString } from './input';

const DEFAULT_RESULTS = 500;
const MAX_RESULTS = 5000;
/** Entries the fallback walk looks at before it stops, so a huge tree cannot stall a call. */
const WALK_LIMIT = 20_000;
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

/** The first files found (at most `max`, sorted), and whether more exist beyond them. */
export interface Listing {
  readonly files: readonly string[];
  readonly more: boolean;
  readonly source: 'git' | 'walk';
}

/**
 * `git ls-files`, read name by name and stopped once there is one more than `max`: on a
 * 30,000-file tree the answer does not wait for (or hold) names it will not show. -z: names come
 * out raw, so a newline or quote in a file name cannot break the parse.
 */
async function gitFiles(folder: WorkspaceFolder, glob: string | undefined, max: number, context: ToolRunContext, accept: (file: string) => boolean): Promise<Listing> {
  const pathspecs = glob === undefined ? [folderPathspec(folder)] : folderGlobPathspecs(folder, glob);
  const args = ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...pathspecs];
  const seen = new Set<string>();
  let more = false;
  await runGitLines(folder, args, context, {
    separator: 'nul',
    onLine: ({ text, cut }) => {
      // A cut name is not a real path; one outside the folder is never shown.
      if (cut || text === '' || !insideFolder(text) || seen.has(text) || !accept(text)) {
        return true;
      }
      if (seen.size === max) {
        more = true;
        return false;
      }
      seen.add(text);
      return true;
    },
  });
  return { files: [...seen].sort(), more, source: 'git' };
}

/**
 * Breadth-first walk that skips .git and node_modules and never follows symlinks (also what a
 * plugin resource's `files` glob lists).
 */
export async function walkFiles(
  folder: WorkspaceFolder,
  glob: string | undefined,
  max: number,
  context: Pick<ToolRunContext, 'signal'>,
  accept: (file: string) => boolean = () => true,
): Promise<Listing> {
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
        return { files: files.sort(), more: true, source: 'walk' };
      }
      const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) {
          queue.push(relative);
        }
      } else if ((matcher === undefined || matcher.matches(relative)) && accept(relative)) {
        if (files.length === max) {
          return { files: files.sort(), more: true, source: 'walk' };
        }
        files.push(relative);
      }
    }
  }
  return { files: files.sort(), more: false, source: 'walk' };
}

function render(listing: Listing, glob: string | undefined): string {
  const scope = glob === undefined ? '' : ` matching "${glob}"`;
  if (listing.files.length === 0) {
    return listing.more ? `No files${scope} among the entries scanned before the limit.` : `No files${scope}.`;
  }
  const origin =
    listing.source === 'git'
      ? 'tracked and untracked, not ignored'
      : 'not a git repository: directory walk, .git and node_modules skipped';
  if (!listing.more) {
    return [`${listing.files.length} files${scope} (${origin}):`, ...listing.files].join('\n');
  }
  const count = listing.files.length;
  return [
    `Showing ${count} of more than ${count} files${scope} (${origin}):`,
    ...listing.files,
    `[more than ${count} files: the listing stopped after ${count}; narrow it with "glob" or raise "maxResults" (max ${MAX_RESULTS})]`,
  ].join('\n');
}

/**
 * The files of `folder` that matter (see the file's header), matching `glob` and `accept`: at
 * most `max` of them, sorted, and whether more exist. Also what completes workspace file paths
 * (core/completions), so both list the same files.
 */
export async function listFolderFiles(
  folder: WorkspaceFolder,
  glob: string | undefined,
  max: number,
  context: ToolRunContext,
  accept: (file: string) => boolean = () => true,
): Promise<Listing> {
  try {
    return await gitFiles(folder, glob, max, context, accept);
  } catch (error) {
    if (!(error instanceof NotGitRepositoryError)) {
      throw error;
    }
    return walkFiles(folder, glob, max, context, accept);
  }
}

async function run(input: ToolInput, context: ToolRunContext): Promise<ToolResult> {
  const folder = resolveFolder(input['folder'], context.folders);
  const glob = optionalString(input, 'glob');
  const max = boundedInteger(input, 'maxResults', { min: 1, max: MAX_RESULTS, fallback: DEFAULT_RESULTS });
  const listing = await listFolderFiles(folder, glob, max, context);
  return textResult(render(listing, glob), { files: listing.files, more: listing.more, source: listing.source });
}

const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    files: { type: 'array', items: { type: 'string' }, description: 'Paths relative to the folder, sorted.' },
    more: { type: 'boolean', description: 'True when more files exist than were returned.' },
    source: { type: 'string', enum: ['git', 'walk'], description: 'git ls-files, or a directory walk outside a repository.' },
  },
  required: ['files', 'more', 'source'],
} as const;

/** Built-in tool: list files, honouring .gitignore, filtered by a glob. */
export const listFilesTool: ToolDefinition = builtinTool({
  name: 'list-files',
  title: 'List Files',
  description:
    'List the files of a workspace folder, one path per line relative to the folder: tracked ' +
    'files plus untracked files that are not ignored by .gitignore (build output and ' +
    'dependencies are left out). Filter with "glob": "*.ts" matches at any depth, "src/**/*.ts" ' +
    'below src, "{a,b}" alternatives, a directory name lists everything below it. At most ' +
    '"maxResults" paths are returned, with a note when more exist. Use it to find files by name ' +
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
  outputSchema: OUTPUT_SCHEMA,
  tags: ['read'],
  source: { kind: 'builtin' },
  handlerSummary: 'git ls-files --cached --others --exclude-standard -- :(glob)<glob>',
  run,
});
