/**
 * The MCP clients whose project configuration `init` writes, each with its file, the key its
 * servers are listed under, and how it tells the server which folder is the project's.
 */
import type { McpStdioEntry, ServersKey } from './mcp-json';
import { MCP_JSON_FILE } from './mcp-json';
import type { ServerLauncher } from './launch';
import { launchCommand } from './launch';

/** A client `init` sets up: `init --claude`, `init --cursor`, `init --vscode`. */
export type ClientId = 'claude' | 'cursor' | 'vscode';

/** Every client, in the order `init` writes them. */
export const CLIENT_IDS: readonly ClientId[] = ['claude', 'cursor', 'vscode'];

/** What `init` needs to know of one client. */
export interface ClientTarget {
  readonly id: ClientId;
  /** Its name, for messages. */
  readonly label: string;
  /** The file, relative to the project's root folder, with `/` separators. */
  readonly file: string;
  readonly serversKey: ServersKey;
  /** Our entry for it. */
  entry(launcher: ServerLauncher): McpStdioEntry;
}

/**
 * Claude Code starts project servers in the project's root, so `--workspace .` is right wherever
 * the project is checked out. Cursor and VS Code replace `${workspaceFolder}` with the open folder.
 */
const TARGETS: Readonly<Record<ClientId, ClientTarget>> = {
  claude: {
    id: 'claude',
    label: 'Claude Code',
    file: MCP_JSON_FILE,
    serversKey: 'mcpServers',
    entry: (launcher) => ({ type: 'stdio', ...launchCommand(launcher, ['--workspace', '.']) }),
  },
  cursor: {
    id: 'cursor',
    label: 'Cursor',
    file: '.cursor/mcp.json',
    serversKey: 'mcpServers',
    entry: (launcher) => launchCommand(launcher, ['--workspace', '${workspaceFolder}']),
  },
  vscode: {
    id: 'vscode',
    label: 'VS Code',
    file: '.vscode/mcp.json',
    serversKey: 'servers',
    entry: (launcher) => ({ type: 'stdio', ...launchCommand(launcher, ['--workspace', '${workspaceFolder}']) }),
  },
};

/** The client with this id. */
export function clientTarget(id: ClientId): ClientTarget {
  return TARGETS[id];
}
