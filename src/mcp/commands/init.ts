/**
 * `init --claude | --cursor | --vscode`: sets up MCP clients for the first workspace folder in one
 * step. Each client's project file gets this server (`npx -y workspace-tools-mcp@<version>`, or
 * this copy's path with `--local`); for Claude Code the served read-only tools also go into
 * `.claude/settings.json` `permissions.allow`. Files are merged, never rewritten; one that does not
 * parse is left alone.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { version } from '../../../package.json';
import { CLAUDE_SETTINGS_FILE, mergeAllowedTools, readOnlyToolNames } from '../../core/client-config/claude-settings';
import type { ClientTarget } from '../../core/client-config/clients';
import { clientTarget } from '../../core/client-config/clients';
import { commandLineOf, shellFlavorFor } from '../../core/client-config/command-line';
import type { ServerLauncher } from '../../core/client-config/launch';
import { NPM_PACKAGE, launchCommand } from '../../core/client-config/launch';
import type { MergeOutcome } from '../../core/client-config/mcp-json';
import { mergeMcpJson } from '../../core/client-config/mcp-json';
import { repositoryRootOf } from '../../core/client-config/project-root';
import type { CliCommand } from '../cli';
import { hostPlatform } from '../../core/platform/platform';
import { stderrLogger } from '../stderr-logger';
import { displayPath, sandboxFor, setUp, storePathFor } from './setup';
import { sandboxAdvice } from '../../core/sandbox/status';

type InitCommand = Extract<CliCommand, { command: 'init' }>;

/** Writes every file asked for; resolves to 0, or 1 when a file was left alone because it does not parse. */
export async function init(given: InitCommand, scriptPath: string): Promise<number> {
  const command = atProjectRoot(given);
  const { options, serverName } = command;
  const folder = options.workspaces[0];
  if (folder === undefined) {
    return 1;
  }
  const launcher: ServerLauncher = command.local ? { kind: 'local', serverPath: path.resolve(scriptPath) } : { kind: 'npx', version };
  const wrote: boolean[] = [];
  const targets = command.clients.map(clientTarget);
  for (const target of targets) {
    const file = path.join(folder, ...target.file.split('/'));
    wrote.push(await mergeFile(file, (text) => mergeMcpJson(text, serverName, target.entry(launcher), target.serversKey)));
    if (target.id === 'claude') {
      wrote.push(await writeClaudeAllowList(command, folder));
    }
  }
  process.stdout.write(nextSteps(targets, serverName, launcher, folder, storePathFor(options)));
  process.stdout.write(`${await sandboxLine(options, folder)}\n`);
  return wrote.every(Boolean) ? 0 : 1;
}

/**
 * Without --workspace, the project is the repository around the current folder: its
 * configuration goes at the root, where clients read it, not in the subfolder init ran in.
 */
function atProjectRoot(command: InitCommand): InitCommand {
  const here = command.options.workspaces[0];
  const root = command.workspaceGiven || here === undefined ? undefined : repositoryRootOf(here);
  if (root === undefined || root === here) {
    return command;
  }
  process.stdout.write(`Setting up the repository's root, ${displayPath(root)} (init ran in ${displayPath(here ?? root)}; --workspace names another folder).\n`);
  return { ...command, options: { ...command.options, workspaces: [root] } };
}

/** The served read-only tools, in `.claude/settings.json` `permissions.allow`. */
async function writeClaudeAllowList(command: InitCommand, folder: string): Promise<boolean> {
  const { options, serverName } = command;
  const { registry } = setUp(options, stderrLogger(options.logLevel === 'info' ? 'warn' : options.logLevel));
  await registry.initialize();
  const names = readOnlyToolNames(serverName, registry.list());
  registry.dispose();
  const settings = path.join(folder, CLAUDE_SETTINGS_FILE);
  const wrote = await mergeFile(settings, (text) => mergeAllowedTools(text, names));
  process.stdout.write(`Claude Code runs the ${names.length} read-only tools without asking (${displayPath(settings)}).\n`);
  return wrote;
}

/** What the clients now do, and how plugin files get approved. */
function nextSteps(targets: readonly ClientTarget[], serverName: string, launcher: ServerLauncher, folder: string, storePath: string): string {
  const how =
    launcher.kind === 'npx'
      ? `npx runs ${NPM_PACKAGE}@${launcher.version} (no path of this machine in it: commit the files for your team)`
      : `node runs ${launcher.serverPath} (a path of this machine: keep the files out of version control)`;
  const approve = commandLineOf(launchCommand(launcher, ['approve', '--workspace', displayPath(folder)]), shellFlavorFor(hostPlatform().name));
  return [
    '',
    `${targets.map((target) => target.label).join(', ')} ${targets.length === 1 ? 'starts' : 'start'} "${serverName}": ${how}.`,
    'How approval works there: a client starts a new server every session, and that server serves a plugin file',
    'from .vscode/tools only once you have approved its exact content, here or in VS Code\'s Workspace Tools view.',
    'A file that an agent writes or changes waits, and the server prints the command that approves it. To review and approve:',
    `  ${approve}`,
    `Approvals are kept in ${storePath}.`,
    '',
  ].join('\n');
}

/** Whether the servers the clients start will sandbox shell and imported tools here, found for real (the probe). */
async function sandboxLine(options: InitCommand['options'], folder: string): Promise<string> {
  // Quiet: the line printed is the notice.
  const sandbox = sandboxFor(options, stderrLogger('off'));
  try {
    return sandboxAdvice(await sandbox.ready(folder), sandbox.setting);
  } finally {
    sandbox.dispose();
  }
}

/** Merges into one file and says what happened; false when the file was left alone. */
async function mergeFile(file: string, merge: (existing: string | undefined) => MergeOutcome): Promise<boolean> {
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') {
      return undefined;
    }
    throw error;
  });
  const outcome = merge(existing);
  if (!outcome.ok) {
    process.stderr.write(`${displayPath(file)}:${outcome.line}:${outcome.column}: ${outcome.message}; the file was left unchanged: fix it and run init again.\n`);
    return false;
  }
  if (outcome.changed) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, outcome.text, 'utf8');
  }
  process.stdout.write(`${outcome.changed ? (existing === undefined ? 'Created' : 'Updated') : 'Already up to date'}: ${displayPath(file)}\n`);
  return true;
}
