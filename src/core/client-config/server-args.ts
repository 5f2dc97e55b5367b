/**
 * The bundled MCP server's definition version for VS Code. The command line itself is built by
 * serverConfigToArgv (src/core/server-config.ts), beside the parser that reads it.
 */
import { createHash } from 'node:crypto';

/**
 * A short version string that changes whenever the command line changes, so the editor knows
 * the server it started is out of date and offers to restart it. Settings that change while the
 * editor runs travel in the live settings file instead, so they never change this.
 */
export function serverDefinitionVersion(command: string, args: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify([command, ...args])).digest('hex').slice(0, 16);
}
