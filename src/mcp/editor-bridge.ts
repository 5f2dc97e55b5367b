/**
 * The editor tools of the VS Code window whose integrated terminal started this process: its
 * bridge's address and token are in the environment (core/editor-bridge). Connected once per
 * process, before the registry is built, so `serve`, `list` and `call` see the same tools. The
 * token is taken out of this process's environment before any subcommand runs (takeBridgeToken,
 * called first by main.ts): the programs the server's own tools run, whichever subcommand runs
 * them (`test` and `read` too), do not inherit it.
 */
import { version } from '../../package.json';
import type { EditorBridgeState } from '../core/editor-bridge/bridged-tools';
import { openEditorBridge } from '../core/editor-bridge/bridged-tools';
import { BRIDGE_TOKEN_VARIABLE } from '../core/editor-bridge/protocol';
import type { Logger } from '../core/types';

/** The environment this process started with, the token included (kept for connecting only). */
let started: Readonly<Record<string, string | undefined>> | undefined;

/**
 * Takes the token out of this process's environment; the first call keeps the environment as it
 * was, and every call returns that kept environment.
 */
export function takeBridgeToken(): Readonly<Record<string, string | undefined>> {
  started ??= { ...process.env };
  // Deleted, not blanked: a shell tool's child must not find an empty variable either.
  delete process.env[BRIDGE_TOKEN_VARIABLE];
  return started;
}

/** Connects to this process's window, or says why there is none (never throws). */
export async function editorBridgeOfThisProcess(command: string, logger: Logger): Promise<EditorBridgeState> {
  return openEditorBridge(takeBridgeToken(), { pid: process.pid, program: `workspace-tools-mcp ${version} (${command})` }, logger);
}
