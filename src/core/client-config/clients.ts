/**
 * The agents `init` sets up, each with the file it reads, the format that file has, and how to
 * check that the agent sees the server (its own list command, or where its UI shows it).
 *
 * Every entry starts the server with `--workspace .` except Cursor's (`${workspaceFolder}`, which
 * Cursor replaces with the open folder): these agents start a project's servers in the folder the
 * session works in (the project, a subfolder of it, or a linked worktree), and `.` is served as
 * the git work tree that holds it (see core/paths/work-tree.ts), so one committed file serves
 * every checkout of the repository.
 */
import * as path from 'node:path';
import type { MergeOutcome } from './mcp-json';
import type { McpStdioEntry, ServersKey } from './mcp-json';
import { MCP_JSON_FILE, mergeMcpJson } from './mcp-json';
import { CODEX_CONFIG_FILE, mergeCodexToml } from './codex-toml';
import type { ServerLauncher } from './launch';
import { launchCommand } from './launch';

/** An agent `init` sets up: `init --claude`, `--vscode`, `--copilot`, `--cursor`, `--codex`, `--gemini`, `--zed`. */
export type ClientId = 'claude' | 'vscode' | 'copilot' | 'cursor' | 'codex' | 'gemini' | 'zed';

/** Every agent, in the order `init` writes them and `init --list` shows them. */
export const CLIENT_IDS: readonly ClientId[] = ['claude', 'vscode', 'copilot', 'cursor', 'codex', 'gemini', 'zed'];

/** Where a configuration file lives: in the project (relative to its root) or the user's home. */
export type FileScope = 'project' | 'user';

/** One file an agent reads, and how our entry goes into it. */
export interface ClientFile {
  readonly scope: FileScope;
  /** Relative to the project's root (project) or the home folder (user), with `/` separators. */
  readonly file: string;
  /** Our entry added to (or updated in) the file's text; undefined text: no file yet. */
  merge(existing: string | undefined, serverName: string, launcher: ServerLauncher): MergeOutcome;
}

/** What `init` needs to know of one agent. */
export interface ClientTarget {
  readonly id: ClientId;
  /** Its name, for messages. */
  readonly label: string;
  /** The project file it reads (committed for the team). */
  readonly project: ClientFile;
  /** Its user-level file (`init --<agent> --user`), for an agent where that is the usual place. */
  readonly user?: ClientFile;
  /** How to check that it sees the server: its own command, or where its UI shows it. */
  readonly check: string;
  /** What else to know (trust, restarts), or nothing. */
  readonly note?: string;
  /** The entry in its JSON files (the Claude Code form for `.mcp.json`). */
  entry(launcher: ServerLauncher): McpStdioEntry;
}

/** A JSON (JSONC) file whose servers are under `key`. */
function jsonFile(scope: FileScope, file: string, key: ServersKey, entry: (launcher: ServerLauncher) => McpStdioEntry): ClientFile {
  return { scope, file, merge: (existing, name, launcher) => mergeMcpJson(existing, name, entry(launcher), key) };
}

/** `.mcp.json`'s entry: Claude Code, VS Code (1.140+) and Copilot CLI read the same file. */
const mcpJsonEntry = (launcher: ServerLauncher): McpStdioEntry => ({ type: 'stdio', ...launchCommand(launcher, ['--workspace', '.']) });
const MCP_JSON = jsonFile('project', MCP_JSON_FILE, 'mcpServers', mcpJsonEntry);
/** Its plain form (command and arguments): Gemini CLI, Zed and Codex have no `type`. */
const plainEntry = (launcher: ServerLauncher): McpStdioEntry => launchCommand(launcher, ['--workspace', '.']);

const TARGETS: Readonly<Record<ClientId, ClientTarget>> = {
  claude: {
    id: 'claude',
    label: 'Claude Code',
    project: MCP_JSON,
    check: 'claude mcp list',
    note: 'also .claude/settings.json: the read-only tools run without asking',
    entry: mcpJsonEntry,
  },
  vscode: {
    id: 'vscode',
    label: 'VS Code',
    project: MCP_JSON,
    check: 'Command Palette > "MCP: List Servers"',
    note: 'VS Code 1.140+ and its agent sessions read .mcp.json; with the Workspace Tools extension, VS Code has the server already',
    entry: mcpJsonEntry,
  },
  copilot: {
    id: 'copilot',
    label: 'Copilot CLI',
    project: MCP_JSON,
    user: jsonFile('user', '.copilot/mcp-config.json', 'mcpServers', (launcher) => ({ type: 'local', ...plainEntry(launcher), tools: ['*'] })),
    check: 'copilot mcp list',
    note: 'reads .mcp.json once you trust the folder; --user writes ~/.copilot/mcp-config.json ($COPILOT_HOME if set) for every folder',
    entry: mcpJsonEntry,
  },
  cursor: {
    id: 'cursor',
    label: 'Cursor',
    project: jsonFile('project', '.cursor/mcp.json', 'mcpServers', (launcher) => launchCommand(launcher, ['--workspace', '${workspaceFolder}'])),
    check: 'Cursor Settings > MCP (or: cursor-agent mcp list)',
    entry: (launcher) => launchCommand(launcher, ['--workspace', '${workspaceFolder}']),
  },
  codex: {
    id: 'codex',
    label: 'Codex CLI',
    project: { scope: 'project', file: CODEX_CONFIG_FILE, merge: (existing, name, launcher) => mergeCodexToml(existing, name, plainEntry(launcher)) },
    check: 'codex mcp list',
    note: 'reads .codex/config.toml in a project you trust',
    entry: plainEntry,
  },
  gemini: {
    id: 'gemini',
    label: 'Gemini CLI',
    project: jsonFile('project', '.gemini/settings.json', 'mcpServers', plainEntry),
    check: 'gemini mcp list',
    entry: plainEntry,
  },
  zed: {
    id: 'zed',
    label: 'Zed',
    project: jsonFile('project', '.zed/settings.json', 'context_servers', plainEntry),
    check: 'Agent Panel > settings: the server is listed with a green dot',
    note: 'starts it once you trust the project',
    entry: plainEntry,
  },
};

/** The agent with this id. */
export function clientTarget(id: ClientId): ClientTarget {
  return TARGETS[id];
}

/** The file of `target` for `scope`, or undefined when it has none there. */
export function clientFile(target: ClientTarget, scope: FileScope): ClientFile | undefined {
  return scope === 'project' ? target.project : target.user;
}

/**
 * Where a user-level file is: Copilot CLI's folder is `$COPILOT_HOME` when set, else
 * `~/.copilot`; other files are relative to the home folder.
 */
export function userFilePath(file: ClientFile, home: string, env: Readonly<Record<string, string | undefined>>): string {
  const [first, ...rest] = file.file.split('/');
  const copilotHome = env['COPILOT_HOME'];
  if (first === '.copilot' && copilotHome !== undefined && copilotHome !== '') {
    return path.join(copilotHome, ...rest);
  }
  return path.join(home, ...file.file.split('/'));
}
