/**
 * `git-log`: recent commits, one line each, optionally only those touching a path.
 */
import type { ToolDefinition, ToolInput, ToolResult, ToolRunContext } from '../types';
import { textResult } from '../types';
import { builtinTool } from './builtin-tool';
import { FOLDER_PROPERTY, resolveFolder } from './folder';
import { folderPathspec, folderRelativePath, runGit } from './git';
import { boundedInteger, optionalString } from './input';

const DEFAULT_COUNT = 20;
const MAX_COUNT = 200;

/** Tab-separated so a subject with any characters still parses; rendered as one line. */
const FORMAT = '--format=%h%x09%ad%x09%an%x09%s';

async function run(input: ToolInput, context: ToolRunContext): Promise<ToolResult> {
  const folder = resolveFolder(input['folder'], context.folders);
  const count = boundedInteger(input, 'maxCount', { min: 1, max: MAX_COUNT, fallback: DEFAULT_COUNT });
  const requested = optionalString(input, 'path');
  // --no-show-signature: verifying would run gpg, a program a read-only tool has no need for.
  const args = ['log', `--max-count=${count}`, '--date=iso-strict', '--no-show-signature', '--no-color', FORMAT];
  if (requested !== undefined) {
    args.push('--', folderPathspec(folder, folderRelativePath(requested, folder)));
  }
  let stdout: string;
  try {
    ({ stdout } = await runGit(folder, args, context));
  } catch (error) {
    // A fresh repository has no HEAD yet: that is an answer, not a failure.
    if (error instanceof Error && /does not have any commits yet/.test(error.message)) {
      return textResult('The repository has no commits yet.', { commits: [] });
    }
    throw error;
  }
  const commits = stdout.split('\n').filter((line) => line !== '').map(parseCommit);
  if (commits.length === 0) {
    const scope = requested === undefined ? '' : ` touching "${requested}"`;
    return textResult(`No commits${scope}.`, { commits });
  }
  const header = `${commits.length} most recent commit${commits.length === 1 ? '' : 's'} (hash | date | author | subject):`;
  const lines = commits.map((commit) => `${commit.hash} | ${commit.date} | ${commit.author} | ${commit.subject}`);
  return textResult([header, ...lines].join('\n'), { commits });
}

function parseCommit(line: string): { hash: string; date: string; author: string; subject: string } {
  const [hash = '', date = '', author = '', ...subject] = line.split('\t');
  return { hash, date, author, subject: subject.join('\t') };
}

const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    commits: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          hash: { type: 'string', description: 'Abbreviated commit hash.' },
          date: { type: 'string', description: 'Author date, ISO 8601.' },
          author: { type: 'string' },
          subject: { type: 'string' },
        },
        required: ['hash', 'date', 'author', 'subject'],
      },
    },
  },
  required: ['commits'],
} as const;

/** Built-in tool: `git log`, newest first. */
export const gitLogTool: ToolDefinition = builtinTool({
  name: 'git-log',
  title: 'Git Log',
  description:
    'List recent commits of the current branch in a workspace folder, newest first: short ' +
    'hash, ISO date, author and subject, one commit per line. Use it to see what changed ' +
    'recently or who last touched a file (pass "path").',
  inputSchema: {
    type: 'object',
    properties: {
      maxCount: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_COUNT,
        default: DEFAULT_COUNT,
        description: `How many commits to list (1-${MAX_COUNT}, default ${DEFAULT_COUNT}).`,
      },
      path: {
        type: 'string',
        description: 'Only commits that touched this file or directory, relative to the workspace folder.',
      },
      folder: FOLDER_PROPERTY,
    },
    additionalProperties: false,
  },
  outputSchema: OUTPUT_SCHEMA,
  tags: ['read'],
  source: { kind: 'builtin' },
  handlerSummary: 'git log --max-count=<maxCount> --format=... -- <path>',
  run,
});
