/**
 * Door 2: the bundled MCP server, published to VS Code for this window. It serves the plugin
 * tools of `.vscode/tools` (and the built-ins when asked), honouring the approvals the user
 * gives in the tree: both doors read the same approval store.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { serverDefinitionVersion, serverNodeFlags } from '../core/client-config/server-args';
import { writeLiveSettings } from '../core/settings/live-settings';
import { offersAnything } from '../core/registry/snapshot';
import { serverConfigToArgv } from '../core/settings/server-config';
import { LIVE_KEYS, RESTART_KEYS, liveSettingsOf, windowServerConfig } from '../core/settings/tool-settings';
import { affects, readSettings } from './settings';
import type { WorkspaceToolsService } from './service';

/** The provider id; `contributes.mcpServerDefinitionProviders` declares the same. */
export const MCP_PROVIDER_ID = 'workspaceTools.mcpServers';

/**
 * The server's name in chat's tool picker. Not the extension's own name: the built-in tools are
 * listed under that already, and two groups of one name read as a mistake.
 */
const SERVER_LABEL = 'Workspace Tools: plugin tools';

/** The bundled server script that both this provider and the client-config commands start. */
export function bundledServerPath(context: vscode.ExtensionContext): string {
  return vscode.Uri.joinPath(context.extensionUri, 'dist', 'mcp-server.js').fsPath;
}

/** Registers the provider; it and its listeners end in context.subscriptions. */
export function registerMcpServerProvider(
  context: vscode.ExtensionContext,
  service: WorkspaceToolsService,
  log: vscode.LogOutputChannel,
): void {
  const changed = new vscode.EventEmitter<void>();
  const serverPath = bundledServerPath(context);
  const settingsFile = path.join((context.storageUri ?? context.globalStorageUri).fsPath, 'mcp-live-settings.json');
  const writeLive = (): void => {
    writeLiveSettings(settingsFile, liveSettingsOf(readSettings())).catch((error: unknown) => log.error(`[mcp-provider] could not write ${settingsFile}: ${String(error)}`));
  };
  writeLive();
  const fire = (reason: string): void => {
    log.debug(`[mcp-provider] server definition may have changed: ${reason}`);
    changed.fire();
  };
  let serving = hasSomethingToServe(service);
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const definition = hasSomethingToServe(service) ? serverDefinition(serverPath, settingsFile, service) : undefined;
      log.info(definition === undefined ? '[mcp-provider] no MCP server for this window (untrusted, disabled, no folder or no approved plugin file)' : `[mcp-provider] MCP server definition ${definition.version ?? ''}`);
      return definition === undefined ? [] : [definition];
    },
    // Trust can be revoked (or the setting turned off) between listing and starting.
    resolveMcpServerDefinition: (server) => (serverAllowed() ? server : undefined),
  };
  context.subscriptions.push(
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidChangeWorkspaceFolders(() => fire('workspace folders')),
    vscode.workspace.onDidGrantWorkspaceTrust(() => fire('workspace trust granted')),
    service.onDidChange(() => {
      const now = hasSomethingToServe(service);
      if (now !== serving) {
        serving = now;
        fire(now ? 'a plugin file is approved' : 'no approved plugin file left');
      }
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // A restart setting changes the server's command line (or whether there is one); a live
      // one is written to the file the running server watches (core/settings/tool-settings.ts).
      if (RESTART_KEYS.some((key) => affects(event, key))) {
        fire('settings');
      }
      if (LIVE_KEYS.some((key) => affects(event, key))) {
        writeLive();
      }
    }),
  );
}

/**
 * Whether the server would serve anything: an approved plugin file with tools (the tools of files
 * waiting for approval are not served), or the built-ins when it is asked to serve them. Until
 * then chat's tool picker shows no empty group for it. A disabled tool does not count: turning it
 * back on must not need a new server.
 */
function hasSomethingToServe(service: WorkspaceToolsService): boolean {
  const settings = readSettings();
  return (settings.mcpIncludeBuiltins && settings.builtinsEnabled) || service.registry.files().some((file) => file.approved && offersAnything(file));
}

/** Whether this window may start the server at all. */
function serverAllowed(): boolean {
  return vscode.workspace.isTrusted && readSettings().mcpEnabled && (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
}

/**
 * The server for this window, or undefined when none may run: in Restricted Mode no workspace
 * plugin tool is served, so there is nothing to start.
 */
function serverDefinition(serverPath: string, settingsFile: string, service: WorkspaceToolsService): vscode.McpStdioServerDefinition | undefined {
  if (!serverAllowed()) {
    return undefined;
  }
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  // The editor's own executable runs the server, so its flags are the ones to ask about.
  const config = windowServerConfig(readSettings(), {
    folders,
    approvalsFile: service.approvalStorePath,
    settingsFile,
    registeredToolsDirectory: service.registeredToolsDirectory,
    historyFile: service.history.file,
  });
  const args = [...serverNodeFlags(), serverPath, ...serverConfigToArgv(config)];
  const command = process.execPath;
  // Under desktop Electron, execPath is the editor binary: this makes it behave as plain node.
  // The server searches with the ripgrep the window's tools use (VS Code's own), looked up once.
  const rg = service.toolEnv['WORKSPACE_TOOLS_RIPGREP'];
  const env = { ELECTRON_RUN_AS_NODE: '1', ...(rg === undefined ? {} : { WORKSPACE_TOOLS_RIPGREP: rg }) };
  const definition = new vscode.McpStdioServerDefinition(SERVER_LABEL, command, args, env, serverDefinitionVersion(command, args));
  const first = folders[0];
  if (first !== undefined) {
    definition.cwd = vscode.Uri.file(first);
  }
  return definition;
}
