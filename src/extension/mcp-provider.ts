/**
 * Door 2: the bundled MCP server, published to VS Code for this window. It serves the plugin
 * tools of `.vscode/tools` (and the built-ins when asked), honouring the approvals the user
 * gives in the tree: both doors read the same approval store.
 *
 * One server per client: when the project's own `.mcp.json` or `.vscode/mcp.json` already starts
 * this server (`init`, Write .mcp.json, a teammate's commit), VS Code starts that one, and this
 * provider publishes none; the tools view says which one VS Code uses (McpServing).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { serverNodeFlags } from '../core/client-config/server-args';
import { MCP_SERVER_NAME } from '../core/client-config/mcp-json';
import type { ProjectServer } from '../core/client-config/project-servers';
import { PROJECT_MCP_FILES, projectFilesReadBy, projectServersIn } from '../core/client-config/project-servers';
import { windowServerLaunch } from '../core/client-config/vscode-definition';
import { writeLiveSettings } from '../core/settings/live-settings';
import { LIVE_KEYS, RESTART_KEYS, liveSettingsOf, windowServerConfig } from '../core/settings/tool-settings';
import { servesAnything } from '../core/registry/snapshot';
import { affects, readSettings } from './settings';
import type { WorkspaceToolsService } from './service';
import type { Startup } from './startup';
import type { McpServing } from './view-text/mcp-server-text';
import { PROJECT_SERVER_SERVES_BUILTINS } from './context-keys';

/** The provider id; `contributes.mcpServerDefinitionProviders` declares the same. */
export const MCP_PROVIDER_ID = 'workspaceTools.mcpServers';

/**
 * The server's name in VS Code: the name `init` and Write .mcp.json give it, so it is the same
 * server under the same name in every client. VS Code forms a prompt's slash command from it
 * (`/mcp.workspace-tools.review-change`; a label's spaces and colons became `_`), and, seeing two
 * servers of one name, keeps one (`chat.mcp.collisionBehavior`).
 */
export const SERVER_LABEL = MCP_SERVER_NAME;

/** The bundled server script that both this provider and the client-config commands start. */
export function bundledServerPath(context: vscode.ExtensionContext): string {
  return vscode.Uri.joinPath(context.extensionUri, 'dist', 'mcp-server.js').fsPath;
}

/** Which server VS Code uses for the plugin tools, and when that changes (the tools view shows it). */
export interface McpServerState {
  current(): McpServing;
  readonly onDidChange: vscode.Event<void>;
}

/** Registers the provider; it and its listeners end in context.subscriptions. */
export function registerMcpServerProvider(
  context: vscode.ExtensionContext,
  service: WorkspaceToolsService,
  log: vscode.LogOutputChannel,
  startup: Startup,
): McpServerState {
  const changed = new vscode.EventEmitter<void>();
  const servingChanged = new vscode.EventEmitter<void>();
  const serverPath = bundledServerPath(context);
  const settingsFile = path.join((context.storageUri ?? context.globalStorageUri).fsPath, 'mcp-live-settings.json');
  const writeLive = (): void => {
    writeLiveSettings(settingsFile, liveSettingsOf(readSettings())).catch((error: unknown) => log.error(`[mcp-provider] could not write ${settingsFile}: ${String(error)}`));
  };
  const project = new ProjectServers(log);
  const serving = (): McpServing => servingNow(service, project.found);
  // Unknown until the first scan or load settles (startup.ts): the first change tells the view.
  let shown: string | undefined;
  // The built-ins' lm tools step aside while a project file's server serves them (each tool once in chat).
  const hideBuiltins = (now: McpServing): void => {
    const hidden = now.kind === 'project' && now.server.servesBuiltins;
    vscode.commands.executeCommand('setContext', PROJECT_SERVER_SERVES_BUILTINS, hidden).then(undefined, (error: unknown) => log.warn(`[mcp-provider] could not set ${PROJECT_SERVER_SERVES_BUILTINS}: ${String(error)}`));
  };
  // A change of what VS Code should run: the definitions (fired always, VS Code asks again) and,
  // when the answer changed, the tools view.
  const fire = (reason: string): void => {
    log.debug(`[mcp-provider] server definition may have changed: ${reason}`);
    changed.fire();
    const now = serving();
    if (servingKey(now) !== shown) {
      shown = servingKey(now);
      hideBuiltins(now);
      if (now.kind === 'project' && now.server.servesBuiltins) {
        log.info(`[mcp-provider] the built-in tools come from "${now.server.name}" too: their language model tools are hidden, so chat has each once`);
      }
      servingChanged.fire();
    }
  };
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: async () => {
      // Not before the project files are read: a definition published and then withdrawn could start.
      await project.ready;
      const now = serving();
      if (now.kind !== 'extension') {
        log.info(now.kind === 'project'
          ? `[mcp-provider] no MCP server definition of our own: ${now.server.file} starts "${now.server.name}" (${now.server.commandLine}), which VS Code uses`
          : '[mcp-provider] no MCP server for this window (untrusted, disabled, no folder or no approved plugin file)');
        return [];
      }
      const definition = serverDefinition(serverPath, settingsFile, service);
      log.info(`[mcp-provider] MCP server definition ${definition.version ?? ''}`);
      return [definition];
    },
    // Trust can be revoked (or the setting turned off, or a project file added) between listing and starting.
    resolveMcpServerDefinition: (server) => (serving().kind === 'extension' ? server : undefined),
  };
  const rescan = (reason: string): void => {
    project.scan().then(() => fire(reason), (error: unknown) => log.warn(`[mcp-provider] could not read the project's MCP files: ${String(error)}`));
  };
  const watchers = new WatchedProjectFiles(() => rescan('a project MCP file changed'));
  context.subscriptions.push(
    changed,
    servingChanged,
    watchers,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      watchers.update();
      rescan('workspace folders');
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => fire('workspace trust granted')),
    service.onDidChange(() => {
      if (servingKey(serving()) !== shown) {
        fire('what there is to serve changed');
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
  // The scan first: provideMcpServerDefinitions waits for it.
  startup.later('the MCP provider', () => {
    rescan('activation');
    writeLive();
    watchers.update();
  });
  return { current: serving, onDidChange: servingChanged.event };
}

/** What serves the plugin tools now (see McpServing). */
function servingNow(service: WorkspaceToolsService, project: ProjectServers['found']): McpServing {
  const first = vscode.workspace.workspaceFolders?.[0];
  // Restricted Mode: VS Code starts no workspace server, ours or the project's.
  if (!vscode.workspace.isTrusted || first === undefined) {
    return { kind: 'none' };
  }
  if (project !== undefined) {
    const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.fsPath === project.folder) ?? first;
    return { kind: 'project', server: project.server, absoluteFile: path.join(folder.uri.fsPath, ...project.server.file.split('/')) };
  }
  return readSettings().mcpEnabled && hasSomethingToServe(service) ? { kind: 'extension', label: SERVER_LABEL } : { kind: 'none' };
}

function servingKey(serving: McpServing): string {
  return serving.kind === 'project' ? `project:${serving.absoluteFile}:${serving.server.name}` : serving.kind;
}

/**
 * Whether the server would serve anything: an approved plugin file with tools (the tools of files
 * waiting for approval are not served), or the built-ins when it is asked to serve them. Until
 * then chat's tool picker shows no empty group for it. A disabled tool does not count: turning it
 * back on must not need a new server.
 */
function hasSomethingToServe(service: WorkspaceToolsService): boolean {
  const settings = readSettings();
  return (settings.mcpIncludeBuiltins && settings.builtinsEnabled) || service.registry.files().some((file) => file.approved && servesAnything(file));
}

/**
 * The server for this window (serverAllowed checked by the caller): a static definition, built in
 * core/client-config/vscode-definition.ts, with the editor's own executable running it.
 */
function serverDefinition(serverPath: string, settingsFile: string, service: WorkspaceToolsService): vscode.McpStdioServerDefinition {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const config = windowServerConfig(readSettings(), {
    folders,
    approvalsFile: service.approvalStorePath,
    settingsFile,
    registeredToolsDirectory: service.registeredToolsDirectory,
    historyFile: service.history.file,
    runningFile: service.runningFile,
  });
  // The editor's own executable runs the server, so its flags are the ones to ask about. The server
  // searches with the ripgrep the window's tools use (VS Code's own), looked up once.
  const rg = service.toolEnv['WORKSPACE_TOOLS_RIPGREP'];
  const launch = windowServerLaunch({ execPath: process.execPath, serverPath, nodeFlags: serverNodeFlags(), config, ...(rg === undefined ? {} : { ripgrep: rg }) });
  const definition = new vscode.McpStdioServerDefinition(SERVER_LABEL, launch.command, [...launch.args], { ...launch.env }, launch.version);
  if (launch.cwd !== undefined) {
    definition.cwd = vscode.Uri.file(launch.cwd);
  }
  return definition;
}

/** The first project file entry (of any folder) that starts this server, read with VS Code's file system. */
class ProjectServers {
  found: { readonly folder: string; readonly server: ProjectServer } | undefined;
  /** Settles when the first scan is done. */
  readonly ready: Promise<void>;
  private settle: () => void = () => undefined;
  private generation = 0;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.ready = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /** Settles `ready` even when it fails: the provider waits for it and must not wait forever. */
  async scan(): Promise<void> {
    try {
      await this.scanOnce();
    } finally {
      this.settle();
    }
  }

  private async scanOnce(): Promise<void> {
    const generation = ++this.generation;
    const files = projectFilesReadBy(vscode.version);
    let found: ProjectServers['found'];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      for (const file of files) {
        const text = await readText(vscode.Uri.joinPath(folder.uri, ...file.file.split('/')));
        const [server] = text === undefined ? [] : projectServersIn(file, text);
        if (server !== undefined && found === undefined) {
          found = { folder: folder.uri.fsPath, server };
        }
      }
    }
    // A later scan started meanwhile: its answer is the current one.
    if (generation === this.generation) {
      if (found?.server.name !== this.found?.server.name || found?.folder !== this.found?.folder || found?.server.file !== this.found?.server.file) {
        this.log.info(found === undefined ? '[mcp-provider] no project MCP file starts this server' : `[mcp-provider] ${found.server.file} starts this server as "${found.server.name}"`);
      }
      this.found = found;
    }
  }
}

/** The text of a file, or undefined when it cannot be read (absent, a folder, ...). */
async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** File watchers on each folder's project MCP files (created, changed, deleted). */
class WatchedProjectFiles implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];

  constructor(private readonly onChange: () => void) {}

  update(): void {
    vscode.Disposable.from(...this.watchers).dispose();
    const names = PROJECT_MCP_FILES.map((file) => file.file).join(',');
    this.watchers = (vscode.workspace.workspaceFolders ?? []).flatMap((folder) => {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, `{${names}}`));
      return [watcher, watcher.onDidCreate(this.onChange), watcher.onDidChange(this.onChange), watcher.onDidDelete(this.onChange)];
    });
  }

  dispose(): void {
    vscode.Disposable.from(...this.watchers).dispose();
  }
}
