/**
 * How the bundled MCP server is started: the node flags it should run with, and its definition
 * version for VS Code. The server's own flags are built by serverConfigToArgv
 * (src/core/settings/server-config.ts), beside the parser that reads them.
 */
import { createHash } from 'node:crypto';

/**
 * Node flags the server is started with where the starting Node is known to have them (VS Code's
 * definition: serverNodeFlags). Client configurations carry none (launch.ts says why); one a user
 * put in NODE_OPTIONS is taken out again before the server starts any tool (see
 * ignore-inspector-signal.ts), so a tool's own `node` of another version is not refused.
 */
export const SERVER_NODE_FLAGS: readonly string[] = [
  // Node 22.14+/23.7+: SIGUSR1 cannot open the server's inspector (from its first instant; the
  // server also ignores the signal itself, on every version: src/mcp/ignore-inspector-signal.ts).
  '--disable-sigusr1',
];

/**
 * The node flags to put before the server's script on a command line, for a node that accepts
 * `available` (default: the flags of the node running this code, right when that same executable
 * starts the server, as VS Code's server definition does, whose runtime may be older than the
 * server's own floor): an unknown flag would stop that node from starting. The server protects
 * itself in its first lines anyway.
 */
export function serverNodeFlags(available: ReadonlySet<string> = process.allowedNodeEnvironmentFlags): string[] {
  return SERVER_NODE_FLAGS.filter((flag) => available.has(flag));
}

/**
 * A short version string that changes whenever the command line changes, so the editor knows
 * the server it started is out of date and offers to restart it. Settings that change while the
 * editor runs travel in the live settings file instead, so they never change this.
 */
export function serverDefinitionVersion(command: string, args: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify([command, ...args])).digest('hex').slice(0, 16);
}
