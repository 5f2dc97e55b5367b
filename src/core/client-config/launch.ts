/**
 * How an MCP client starts the server. Two forms:
 *  - `npx -y workspace-tools-mcp@<version>`: the published npm package, the way every reference
 *    MCP server is started. No path of this machine in it, so a team can commit the file.
 *  - `node <path>/mcp-server.js`: this machine's copy (a checkout, or a build not published).
 * Neither carries a Node flag: a client's `node` or `npx` may be older than the server's floor,
 * and Node refuses a flag it does not know (`--disable-sigusr1` in NODE_OPTIONS stops npm itself
 * on Node 20) before the server can say which Node it needs. The server shuts the inspector
 * signal itself in its first lines (ignore-inspector-signal.ts).
 */
import * as path from 'node:path';

/** The npm package `npx` runs: its `workspace-tools-mcp` bin is the server. */
export const NPM_PACKAGE = 'workspace-tools-mcp';

/** Which copy of the server a client starts. */
export type ServerLauncher =
  | { readonly kind: 'npx'; readonly version: string }
  | { readonly kind: 'local'; readonly serverPath: string };

/** A stdio command as MCP clients' configuration files spell it. */
export interface LaunchCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** The command that starts the server with `serverArgs`, for a client's configuration. */
export function launchCommand(launcher: ServerLauncher, serverArgs: readonly string[]): LaunchCommand {
  if (launcher.kind === 'local') {
    return { command: 'node', args: [launcher.serverPath, ...serverArgs] };
  }
  return { command: 'npx', args: ['-y', `${NPM_PACKAGE}@${launcher.version}`, ...serverArgs] };
}

/**
 * The launcher a running server tells its users to use: npx when npm's npx cache holds the
 * script (it was started as `npx workspace-tools-mcp`), else the script itself.
 */
export function launcherForScript(scriptPath: string, version: string): ServerLauncher {
  const parts = path.resolve(scriptPath).split(/[\\/]/);
  return parts.includes('_npx') ? { kind: 'npx', version } : { kind: 'local', serverPath: path.resolve(scriptPath) };
}
