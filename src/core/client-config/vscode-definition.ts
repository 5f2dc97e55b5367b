/**
 * The server definition the VS Code extension publishes for its window, as plain values (the
 * extension turns them into a `McpStdioServerDefinition`). Static: a fixed command and arguments,
 * an explicit working folder and every workspace folder as an absolute `--workspace`, no
 * `${workspaceFolder}` or other variable, nothing read when it starts. So a copy VS Code forwards
 * elsewhere (its agent sessions, which start servers without activating the extension, and in a
 * generated folder when no `cwd` is given: microsoft/vscode#330223) starts the same server.
 */
import type { ServerConfig } from '../settings/server-config';
import { serverConfigToArgv } from '../settings/server-config';
import { serverDefinitionVersion } from './server-args';

/** What the extension knows when it publishes the definition. */
export interface WindowServerInput {
  /** The editor's own executable (Electron on the desktop: ELECTRON_RUN_AS_NODE makes it plain node). */
  readonly execPath: string;
  /** The bundled dist/mcp-server.js. */
  readonly serverPath: string;
  /** Node flags that executable accepts (server-args.ts serverNodeFlags). */
  readonly nodeFlags: readonly string[];
  /** The window's server configuration (settings/tool-settings.ts windowServerConfig). */
  readonly config: ServerConfig;
  /** The ripgrep the window's tools search with, if one was found. */
  readonly ripgrep?: string;
}

/** A stdio server definition: what runs, where, with which environment, and its version. */
export interface WindowServerLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The first workspace folder; undefined only without a folder (then no server is published). */
  readonly cwd: string | undefined;
  /** Changes whenever the command line does, so VS Code offers to restart a server that is out of date. */
  readonly version: string;
}

/** The definition for `input`. */
export function windowServerLaunch(input: WindowServerInput): WindowServerLaunch {
  const args = [...input.nodeFlags, input.serverPath, ...serverConfigToArgv(input.config)];
  const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1', ...(input.ripgrep === undefined ? {} : { WORKSPACE_TOOLS_RIPGREP: input.ripgrep }) };
  return { command: input.execPath, args, env, cwd: input.config.workspaces[0], version: serverDefinitionVersion(input.execPath, args) };
}
