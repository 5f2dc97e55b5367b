/**
 * The window's editor bridge (core/editor-bridge): opened when the window is trusted, its
 * address and token given to this window's integrated terminals (environmentVariableCollection),
 * closed with the window. An agent's MCP server started in one of those terminals gets the
 * editor tools, run here through the service (so the History view records them, with the caller),
 * and the other extensions' tools the user listed, run through `vscode.lm.invokeTool`.
 * Restricted Mode opens no bridge: the terminals are told why instead (docs/editor-bridge.md).
 */
import * as vscode from 'vscode';
import type { BridgeHost, BridgeServer } from '../../core/editor-bridge/bridge-server';
import { startBridgeServer } from '../../core/editor-bridge/bridge-server';
import { descriptorOf } from '../../core/editor-bridge/bridged-tools';
import { EDITOR_TOOL_NAMES, EDITOR_TOOL_SPECS, EDITOR_TOOL_TAGS } from '../../core/editor-bridge/editor-tool-specs';
import { selectExtensionTools } from '../../core/editor-bridge/extension-tools';
import type { BridgeCaller, BridgeHello } from '../../core/editor-bridge/protocol';
import { BRIDGE_ADDRESS_VARIABLE, BRIDGE_OFF_VARIABLE, BRIDGE_TOKEN_VARIABLE } from '../../core/editor-bridge/protocol';
import { finishedCall } from '../../core/history/finished-call';
import type { ToolResult } from '../../core/types';
import { readSettings } from '../settings';
import type { WorkspaceToolsService } from '../service';
import { invokeLmTool, lmToolsNow } from './extension-tools';

/** What the terminals of an untrusted window read instead of an address. */
export const RESTRICTED_MODE_REASON = 'the workspace is in Restricted Mode: trust it (Manage Workspace Trust) and open a new terminal';

/**
 * Takes another window's bridge out of this extension host's environment: a window opened with
 * `code` from another window's terminal inherits that terminal's variables, and what this host
 * starts (Run Tool's programs, the tests view) must not reach the other window. Called first in
 * activate, before anything copies the environment.
 */
export function forgetInheritedBridge(): void {
  for (const name of [BRIDGE_ADDRESS_VARIABLE, BRIDGE_TOKEN_VARIABLE, BRIDGE_OFF_VARIABLE]) {
    delete process.env[name];
  }
}

/** Opens the bridge (now, or when the workspace is trusted); everything ends with the window. */
export function registerEditorBridge(context: vscode.ExtensionContext, service: WorkspaceToolsService, log: vscode.LogOutputChannel): void {
  const terminals = context.environmentVariableCollection;
  // A terminal restored after a reload must not keep an address that died with the last window.
  terminals.persistent = false;
  terminals.description = 'Workspace Tools: the editor tools for agents run in this terminal (docs/editor-bridge.md)';
  let bridge: BridgeServer | undefined;
  let opening: Promise<void> | undefined;
  const open = (): Promise<void> =>
    (opening ??= startBridgeServer({ host: windowHost(context, service), logger: log }).then(
      (started) => {
        bridge = started;
        terminals.clear();
        for (const [name, value] of Object.entries(started.environment)) {
          terminals.replace(name, value);
        }
      },
      (error: unknown) => {
        log.error(`[bridge] could not open the editor bridge: ${error instanceof Error ? error.message : String(error)}`);
        terminals.clear();
        terminals.replace(BRIDGE_OFF_VARIABLE, `it could not be opened (see the Workspace Tools log): ${error instanceof Error ? error.message : String(error)}`);
      },
    ));
  if (vscode.workspace.isTrusted) {
    void open();
  } else {
    terminals.replace(BRIDGE_OFF_VARIABLE, RESTRICTED_MODE_REASON);
    context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void open()));
  }
  context.subscriptions.push({
    dispose: () => {
      void bridge?.close();
    },
  });
}

/** What this window serves on its bridge, and how it runs a call. */
function windowHost(context: vscode.ExtensionContext, service: WorkspaceToolsService): BridgeHost {
  const editorTools = EDITOR_TOOL_SPECS.map((spec) => descriptorOf({ ...spec, tags: EDITOR_TOOL_TAGS }, 'editor'));
  const hello = (): BridgeHello => ({
    window: vscode.workspace.name ?? 'a window with no folder',
    tools: [...editorTools, ...selectExtensionTools(lmToolsNow(), readSettings().bridgeExtensionTools, context.extension.id)],
  });
  return {
    hello,
    call: async (name, input, caller, signal) => {
      const who = callerText(caller);
      if (EDITOR_TOOL_NAMES.includes(name)) {
        const cancel = new vscode.CancellationTokenSource();
        signal.addEventListener('abort', () => cancel.cancel(), { once: true });
        try {
          const { text, isError, structured } = await service.call(name, input, { token: cancel.token, door: 'bridge', caller: who });
          return { text, isError, ...(structured === undefined ? {} : { structured }) };
        } finally {
          cancel.dispose();
        }
      }
      // An extension's tool runs in VS Code, not through the registry: recorded here.
      const started = Date.now();
      const result: ToolResult = await invokeLmTool(name, input, signal);
      service.history.record(finishedCall(name, input, result, { door: 'bridge', caller: who, started, durationMs: Date.now() - started, workspace: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath }));
      return { text: result.text, isError: result.isError };
    },
  };
}

function callerText(caller: BridgeCaller): string {
  return `${caller.program}, pid ${caller.pid}, through the editor bridge`;
}
