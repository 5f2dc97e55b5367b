/**
 * The bundled MCP server's command line, built from what the editor knows (folders, approval
 * store, settings). Pure: the VS Code provider and the tests call it the same way, and the
 * flags are the ones `src/mcp/cli.ts` parses.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';

/** Everything the server's command line depends on. */
export interface ServerArgsOptions {
  /** Absolute path of `dist/mcp-server.js`. */
  readonly serverPath: string;
  /** Absolute workspace folder paths, first the default. */
  readonly folders: readonly string[];
  /** The approval store to honour (the editor's own), so both doors serve the same files. */
  readonly approvalsFile?: string;
  readonly includeBuiltins: boolean;
  readonly disabledTools: readonly string[];
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** Extra plugin directories; relative ones resolve against the first folder, as in the editor. */
  readonly pluginDirectories: readonly string[];
}

/** The arguments after the node executable: the script first, then the flags. */
export function serverArgs(options: ServerArgsOptions): string[] {
  const first = options.folders[0];
  const args = [options.serverPath];
  for (const folder of options.folders) {
    args.push('--workspace', folder);
  }
  for (const directory of options.pluginDirectories) {
    // The server would resolve against its cwd; resolving here keeps the line self-contained.
    args.push('--plugins', first === undefined ? directory : path.resolve(first, directory));
  }
  if (options.approvalsFile !== undefined) {
    args.push('--approvals', options.approvalsFile);
  }
  if (!options.includeBuiltins) {
    args.push('--no-builtins');
  }
  // Sorted and deduplicated: the same setting in another order must not look like a change.
  for (const name of [...new Set(options.disabledTools)].sort()) {
    args.push('--disable', name);
  }
  if (options.timeoutMs !== undefined) {
    args.push('--timeout', String(Math.round(options.timeoutMs)));
  }
  if (options.maxOutputBytes !== undefined) {
    args.push('--max-output', String(Math.round(options.maxOutputBytes)));
  }
  return args;
}

/**
 * A short version string that changes whenever the command line changes, so the editor knows
 * the server it started is out of date and offers to restart it.
 */
export function serverDefinitionVersion(command: string, args: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify([command, ...args])).digest('hex').slice(0, 16);
}
