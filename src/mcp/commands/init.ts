/**
 * `init --claude | --vscode | --copilot | --cursor | --codex | --gemini | --zed | --all`: sets up
 * agents for the first workspace folder in one step. Each agent's project file gets this server
 * (`npx -y workspace-tools-mcp@<version>`, or this copy's path with `--local`), each file once
 * (Claude Code, VS Code and Copilot CLI share `.mcp.json`); `--user` writes the user-level file of
 * an agent that has one (Copilot CLI's `~/.copilot/mcp-config.json`). For Claude Code the served
 * read-only tools also go into `.claude/settings.json` `permissions.allow`. Files are merged, never
 * rewritten; one that does not parse is left alone. `init --list` says which agents it knows,
 * where each file goes and how to check that the agent sees the server.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import { version } from '../../../package.json';
import { CLAUDE_SETTINGS_FILE, mergeAllowedTools, readOnlyToolNames } from '../../core/client-config/claude-settings';
import type { ClientFile, ClientTarget, FileScope } from '../../core/client-config/clients';
import { CLIENT_IDS, clientFile, clientTarget, userFilePath } from '../../core/client-config/clients';
import { commandLineOf, shellFlavorFor } from '../../core/client-config/command-line';
import type { ServerLauncher } from '../../core/client-config/launch';
import { NPM_PACKAGE, launchCommand } from '../../core/client-config/launch';
import type { MergeOutcome } from '../../core/client-config/mcp-json';
import { repositoryRootOf } from '../../core/client-config/project-root';
import type { CliCommand } from '../cli';
import { hostPlatform } from '../../core/platform/platform';
import { stderrLogger } from '../stderr-logger';
import { displayPath, sandboxFor, setUp, storePathFor } from './setup';
import { sandboxAdvice } from '../../core/sandbox/status';

type InitCommand = Extract<CliCommand, { command: 'init' }>;

/** VS Code's own file before 1.140, which `init --vscode` wrote then: still read, so an entry there is a second server. */
const LEGACY_VSCODE_FILE = '.vscode/mcp.json';

/** Writes every file asked for; resolves to 0, or 1 when a file was left alone because it does not parse. */
export async function init(given: InitCommand, scriptPath: string): Promise<number> {
  if (given.listAgents) {
    process.stdout.write(agentList());
    return 0;
  }
  const command = given.user ? given : atProjectRoot(given);
  const { options, serverName } = command;
  const folder = options.workspaces[0];
  if (folder === undefined) {
    return 1;
  }
  const launcher: ServerLauncher = command.local ? { kind: 'local', serverPath: path.resolve(scriptPath) } : { kind: 'npx', version };
  const scope: FileScope = command.user ? 'user' : 'project';
  const targets = command.clients.map(clientTarget);
  const wrote: boolean[] = [];
  // Each file once, for every agent that reads it (.mcp.json: Claude Code, VS Code, Copilot CLI).
  const files = new Map<string, ClientFile>();
  for (const target of targets) {
    const file = clientFile(target, scope);
    if (file !== undefined) {
      files.set(scope === 'user' ? userFilePath(file, homedir(), process.env) : path.join(folder, ...file.file.split('/')), file);
    }
  }
  for (const [where, file] of files) {
    wrote.push(await mergeFile(where, (text) => file.merge(text, serverName, launcher)));
  }
  if (scope === 'project' && targets.some((target) => target.id === 'claude')) {
    wrote.push(await writeClaudeAllowList(command, folder));
  }
  if (scope === 'project' && targets.some((target) => target.id === 'vscode')) {
    await warnOfLegacyVsCodeEntry(path.join(folder, ...LEGACY_VSCODE_FILE.split('/')), serverName);
  }
  process.stdout.write(nextSteps(targets, serverName, launcher, folder, storePathFor(options)));
  process.stdout.write(`${await sandboxLine(options, folder)}\n`);
  return wrote.every(Boolean) ? 0 : 1;
}

/** `init --list`: each agent, its flag, where its files go, and how to check it sees the server. */
export function agentList(): string {
  const rows = CLIENT_IDS.map(clientTarget).map((target) => {
    const files = [target.project.file, ...(target.user === undefined ? [] : [`--user: ~/${target.user.file}`])].join('; ');
    return [`  --${target.id.padEnd(9)}${target.label}`, `      file:  ${files}`, `      check: ${target.check}`, ...(target.note === undefined ? [] : [`      note:  ${target.note}`])].join('\n');
  });
  return [
    'Agents "init" sets up (project files go at the root of the repository; --all writes every one of them):',
    ...rows,
    '',
    'Each file starts "npx -y workspace-tools-mcp@<version> --workspace ." (Cursor: --workspace ${workspaceFolder}):',
    'no path of this machine, so the files can be committed. Existing files are merged, never replaced.',
    '',
  ].join('\n');
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

/** What the agents now do, how to check each sees the server, and how plugin files get approved. */
function nextSteps(targets: readonly ClientTarget[], serverName: string, launcher: ServerLauncher, folder: string, storePath: string): string {
  const how =
    launcher.kind === 'npx'
      ? `npx runs ${NPM_PACKAGE}@${launcher.version} (no path of this machine in it: commit the files for your team)`
      : `node runs ${launcher.serverPath} (a path of this machine: keep the files out of version control)`;
  const approve = commandLineOf(launchCommand(launcher, ['approve', '--workspace', displayPath(folder)]), shellFlavorFor(hostPlatform().name));
  return [
    '',
    `${targets.map((target) => target.label).join(', ')} ${targets.length === 1 ? 'starts' : 'start'} "${serverName}": ${how}.`,
    'To check that each sees it:',
    ...targets.map((target) => `  ${target.label}: ${target.check}`),
    'How approval works there: a client starts a new server every session, and that server serves a plugin file',
    'from .vscode/tools only once you have approved its exact content, here or in VS Code\'s Workspace Tools view.',
    'A file that an agent writes or changes waits, and the server prints the command that approves it. To review and approve:',
    `  ${approve}`,
    `Approvals are kept in ${storePath}.`,
    '',
  ].join('\n');
}

/**
 * VS Code 1.140+ reads `.vscode/mcp.json` as well as `.mcp.json`: an entry that an earlier
 * `init --vscode` wrote there starts a second server. It is not removed (an older VS Code reads
 * only that file); the user is told.
 */
async function warnOfLegacyVsCodeEntry(file: string, serverName: string): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const servers = text === undefined ? undefined : (parse(text) as { servers?: Record<string, unknown> } | undefined)?.servers;
  if (servers !== undefined && typeof servers === 'object' && servers !== null && serverName in servers) {
    process.stdout.write(
      `Note: ${displayPath(file)} also starts "${serverName}" (an earlier init wrote it). VS Code 1.140+ reads .mcp.json too and would start it twice: remove it there unless your team uses an older VS Code.\n`,
    );
  }
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
