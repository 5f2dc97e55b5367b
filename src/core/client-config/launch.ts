/**
 * How an MCP client starts the server. Two forms:
 *  - `npx -y workspace-tools-mcp@<version>`: the published npm package, the way every reference
 *    MCP server is started. No path of this machine in it, so a team can commit the file.
 *  - `node <path>/mcp-server.js`: this machine's copy (a checkout, or a build not published).
 * The Node flags the server must run with (server-args.ts) are added here, once, for both forms.
 */
import * as path from 'node:path';
import { SERVER_NODE_FLAGS } from './server-args';

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

/**
 * The command that starts the server with `serverArgs`. `nodeFlags` are the flags Node itself must
 * get (for example a hardening flag): on `node`'s command line for a local copy, in NODE_OPTIONS
 * for npx, whose bin starts Node through its `#!/usr/bin/env node` line.
 */
export function launchCommand(launcher: ServerLauncher, serverArgs: readonly string[], nodeFlags: readonly string[] = SERVER_NODE_FLAGS): LaunchCommand {
  if (launcher.kind === 'local') {
    return { command: 'node', args: [...nodeFlags, launcher.serverPath, ...serverArgs] };
  }
  const args = ['-y', `${NPM_PACKAGE}@${launcher.version}`, ...serverArgs];
  return nodeFlags.length === 0 ? { command: 'npx', args } : { command: 'npx', args, env: { NODE_OPTIONS: nodeFlags.join(' ') } };
}

/**
 * The launcher a running server tells its users to use: npx when npm's npx cache holds the
 * script (it was started as `npx workspace-tools-mcp`), else the script itself.
 */
export function launcherForScript(scriptPath: string, version: string): ServerLauncher {
  const parts = path.resolve(scriptPath).split(/[\\/]/);
  return parts.includes('_npx') ? { kind: 'npx', version } : { kind: 'local', serverPath: path.resolve(scriptPath) };
}
