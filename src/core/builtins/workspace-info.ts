/**
 * `workspace-info`: every workspace folder with its git facts (branch, remotes, HEAD commit).
 * A folder that is not a repository is described as such; it is not an error.
 */
import type { ToolDefinition, ToolInput, ToolResult, ToolRunContext, WorkspaceFolder } from '../types';
import { redactUrl } from '../redact';
import { textResult } from '../types';
import { builtinTool } from './builtin-tool';
import { FOLDER_PROPERTY, resolveFolder } from './folder';
import { NotGitRepositoryError, runGit } from './git';

/** Git facts about one folder, already worded for the model. */
interface RepoFacts {
  readonly root: string;
  readonly branch: string;
  readonly remotes: readonly string[];
  readonly head: string;
}

/** One folder as text for the model and as data (see OUTPUT_SCHEMA). */
interface FolderDescription {
  readonly text: string;
  readonly data: Record<string, unknown>;
}

async function describeFolder(folder: WorkspaceFolder, context: ToolRunContext): Promise<FolderDescription> {
  const title = `${folder.name}: ${folder.path}`;
  const base = { name: folder.name, path: folder.path };
  try {
    const facts = await repoFacts(folder, context);
    const remotes =
      facts.remotes.length === 0 ? ['  remotes: none'] : ['  remotes:', ...facts.remotes.map((r) => `    ${r}`)];
    const text = [title, `  git repository: yes (root ${facts.root})`, `  branch: ${facts.branch}`, `  head: ${facts.head}`, ...remotes].join('\n');
    return { text, data: { ...base, git: { root: facts.root, branch: facts.branch, head: facts.head, remotes: facts.remotes } } };
  } catch (error) {
    if (error instanceof NotGitRepositoryError) {
      return { text: `${title}\n  git repository: no`, data: { ...base, git: null } };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { text: `${title}\n  git: ${message}`, data: { ...base, git: null, error: message } };
  }
}

const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    folders: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          path: { type: 'string' },
          git: {
            description: 'null when the folder is not a git repository (or git failed: see error).',
            anyOf: [
              { type: 'null' },
              {
                type: 'object',
                properties: {
                  root: { type: 'string' },
                  branch: { type: 'string' },
                  head: { type: 'string', description: 'Short hash and subject of HEAD.' },
                  remotes: { type: 'array', items: { type: 'string' }, description: '"name url", credentials redacted.' },
                },
                required: ['root', 'branch', 'head', 'remotes'],
              },
            ],
          },
          error: { type: 'string' },
        },
        required: ['name', 'path', 'git'],
      },
    },
  },
  required: ['folders'],
} as const;

/** One rev-parse to learn whether it is a repository, then the rest in parallel. */
async function repoFacts(folder: WorkspaceFolder, context: ToolRunContext): Promise<RepoFacts> {
  const root = (await runGit(folder, ['rev-parse', '--show-toplevel'], context)).stdout.trim();
  const [branch, head, remotes] = await Promise.all([
    // Exit 1 (detached HEAD) is an answer, not a failure.
    runGit(folder, ['symbolic-ref', '--quiet', '--short', 'HEAD'], context, { okExitCodes: [0, 1] }),
    // Exit 128 here means no commits yet; only that case is tolerated. --no-walk: HEAD alone, so
    // a missing parent (a partial clone) does not hide it.
    runGit(folder, ['log', '-1', '--no-walk', '--no-show-signature', '--format=%h %s'], context, { okExitCodes: [0, 128] }),
    runGit(folder, ['remote', '-v'], context),
  ]);
  return {
    root,
    branch: branch.exitCode === 0 ? branch.stdout.trim() : '(detached HEAD)',
    head: head.exitCode === 0 && head.stdout.trim() !== '' ? head.stdout.trim() : '(no commits yet)',
    remotes: parseRemotes(remotes.stdout),
  };
}

/**
 * `origin\turl (fetch)` lines, one entry per remote and url (fetch and push usually agree),
 * with any credential in the url replaced (redactUrl): it must not reach a chat transcript.
 */
export function parseRemotes(output: string): string[] {
  const seen = new Set<string>();
  for (const line of output.split('\n')) {
    const match = /^(\S+)\t(.*?)(?: \((fetch|push)\))?$/.exec(line);
    if (match !== null) {
      seen.add(`${match[1] ?? ''} ${redactUrl(match[2] ?? '')}`);
    }
  }
  return [...seen];
}

async function run(input: ToolInput, context: ToolRunContext): Promise<ToolResult> {
  const wanted = input['folder'];
  const folders = wanted === undefined || wanted === '' ? context.folders : [resolveFolder(wanted, context.folders)];
  if (folders.length === 0) {
    return textResult('No workspace folder is open.');
  }
  const parts = await Promise.all(folders.map((folder) => describeFolder(folder, context)));
  const header = `${folders.length} workspace folder${folders.length === 1 ? '' : 's'} (the first is the default for other tools):`;
  return textResult([header, ...parts.map((part) => part.text)].join('\n\n'), { folders: parts.map((part) => part.data) });
}

/** Built-in tool: the workspace folders and their git repositories at a glance. */
export const workspaceInfoTool: ToolDefinition = builtinTool({
  name: 'workspace-info',
  title: 'Workspace Info',
  description:
    'Describe the open workspace: every workspace folder with its name and path, whether it is ' +
    'a git repository, and for repositories the current branch, the HEAD commit (short hash and ' +
    'subject) and the remotes with their URLs. Use it first to learn which folders exist (other ' +
    'tools take their name as "folder") and which branch is checked out.',
  inputSchema: {
    type: 'object',
    properties: {
      folder: {
        ...FOLDER_PROPERTY,
        description: 'Describe only this workspace folder (name, path or index). Default: all folders.',
      },
    },
    additionalProperties: false,
  },
  outputSchema: OUTPUT_SCHEMA,
  tags: ['read'],
  source: { kind: 'builtin' },
  handlerSummary: 'git rev-parse --show-toplevel; git symbolic-ref --short HEAD; git log -1; git remote -v',
  run,
});
