/**
 * The workspace the third-party client tests (mcp-inspector.test.ts, claude-code.test.ts) serve:
 * a git repository whose plugin file declares a tool, a prompt, a resource and a resource
 * template, approved the way a user approves it (`approve --yes`), and the server command line
 * that serves it (dist/mcp-server.js on the Node running the tests).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import type { TempDir } from '../helpers/git-repo';
import { makeGitRepo } from '../helpers/git-repo';
import { SERVER_PATH } from '../helpers/mcp-client';

/** What the guide resource serves: a line no other file has, so a client that shows it read the file. */
export const GUIDE_TEXT = '# Team guide\n\nEvery change is reviewed by someone who did not write it.\n';

/**
 * The plugin file: one tool, one prompt (an argument with an enum, a text message that names it,
 * and the guide embedded as a file), one resource (a workspace file), one resource template.
 */
export const PLUGIN = {
  name: 'team',
  tools: [
    {
      name: 'say',
      description: 'Prints its word after "said "',
      tags: ['read'],
      inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
      handler: { type: 'shell', command: ['node', '-e', 'process.stdout.write("said " + process.argv[1])', '{{word}}'] },
    },
  ],
  prompts: [
    {
      name: 'review',
      title: 'Review a change',
      description: 'Review the change the way this team does',
      arguments: [{ name: 'focus', description: 'What to look at', required: true, enum: ['security', 'tests'] }],
      messages: [
        { role: 'user', text: 'Review the change with a focus on {{focus}}. Follow the team guide.' },
        { role: 'user', file: 'docs/guide.md' },
      ],
    },
  ],
  resources: [
    { name: 'guide', title: 'Team guide', description: 'How we review', uri: 'docs://guide', file: 'docs/guide.md' },
    { name: 'ticket', description: 'One ticket by its number', uriTemplate: 'tickets://{id}', file: 'tickets/{{id}}.md' },
  ],
};

/** A served workspace and how to start the server on it. */
export interface ServedWorkspace {
  readonly dir: TempDir;
  /** XDG_CONFIG_HOME and XDG_STATE_HOME of the server: its approvals (and history) live there. */
  readonly configHome: string;
  /** The server's command line. */
  readonly command: string;
  readonly args: readonly string[];
  /** What the server's environment must have (beside what a client gives it anyway). */
  readonly env: Readonly<Record<string, string>>;
  cleanup(): void;
}

/** Writes the workspace into a new temp git repository and approves its plugin file with `approve --yes`. */
export async function servedWorkspace(prefix: string): Promise<ServedWorkspace> {
  const dir = makeGitRepo(prefix);
  dir.write('.vscode/tools/team.json', JSON.stringify(PLUGIN, null, 2));
  dir.write('docs/guide.md', GUIDE_TEXT);
  dir.write('tickets/7.md', 'Ticket 7: the release checklist\n');
  // Outside the workspace: nothing the server writes is in the folder it serves.
  const configHome = mkdtempSync(path.join(tmpdir(), `${prefix}config-`));
  const approved = await runCli(['approve', '--yes', '--workspace', dir.path], { configHome, cwd: dir.path });
  if (approved.code !== 0 || !/^Approved: .*\.vscode\/tools\/team\.json$/m.test(approved.stdout)) {
    throw new Error(`approve --yes did not approve the plugin file (exit ${approved.code}):\n${approved.stdout}${approved.stderr}`);
  }
  return {
    dir,
    configHome,
    command: process.execPath,
    args: [SERVER_PATH, '--workspace', dir.path, '--no-builtins'],
    env: { XDG_CONFIG_HOME: configHome, XDG_STATE_HOME: configHome },
    cleanup: () => {
      dir.cleanup();
      rmSync(configHome, { recursive: true, force: true });
    },
  };
}
