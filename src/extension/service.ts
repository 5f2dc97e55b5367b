import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApprovalStore } from '../core/approval/approval-store';
import { migrateLegacyApprovals } from '../core/approval/migrate';
import { defaultApprovalStorePath } from '../core/approval/store-path';
import { watchPluginSources } from '../core/registry/watch-sources';
import { clearRegisteredLeftovers } from '../core/plugins/registered-tool-file';
import { TaskProblems } from './task-problems';
import { watchForChanges } from '../core/files/watch-paths';
import { StoredApprovalPolicy } from '../core/approval/approval-policy';
import type { ToolRegistry } from '../core/registry/tool-registry';
import type { CallResult } from '../core/registry/call-pipeline';
import type { CallOptions, WorkspaceFolder } from '../core/types';
import { HistoryFile } from '../core/history/history-file';
import { OutputStore } from '../core/output/output-store';
import { HISTORY_FILE } from '../core/history/history-path';
import { RunningCalls } from '../core/running/running-calls';
import { RUNNING_FILE } from '../core/running/running-file';
import { WORKSPACE_PLUGIN_DIRECTORY, createWorkspaceRegistry } from '../core/workspace-registry';
import { toolEnvironment } from './bundled-ripgrep';
import { limitsOf } from '../core/settings/tool-settings';
import { affects, readSettings } from './settings';
import type { Sandbox } from '../core/sandbox/sandbox';
import { createSandbox } from '../core/sandbox/sandbox-service';
import type { SandboxStatus } from '../core/sandbox/status';
import { sandboxMark } from '../core/sandbox/status';
import type { SandboxView } from '../core/sandbox/tool-sandbox-text';
import { userPlace } from '../core/sandbox/user-place';
import { createEditorTools } from '../core/editor-bridge/editor-tools';
import { vscodeEditorQueries } from './editor-bridge/vscode-queries';

const RELOAD_DEBOUNCE_MS = 200;

/** A call's options in this window: the registry's, cancelled by a VS Code token. */
export type WindowCallOptions = Omit<CallOptions, 'signal' | 'door'> & {
  readonly token: vscode.CancellationToken;
  readonly door: 'lm' | 'run-tool' | 'bridge';
};

/** How long a file written in this window counts as the person's own edit (a save reaches a reload within a second). */
const WRITTEN_HERE_MS = 10_000;

/** The workspace folders as the engine sees them. */
export function currentFolders(): WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ name: folder.name, path: folder.uri.fsPath }));
}

/**
 * Owns the extension host's tool registry and keeps it in step with VS Code: workspace
 * folders, trust, settings and plugin files on disk. When trust or the built-ins setting
 * changes, a new registry replaces the old one (calls in flight finish on the old one).
 * Everything it registers is disposed with it.
 */
export class WorkspaceToolsService implements vscode.Disposable {
  /** Made on first use (registry), not in activate(): building the built-ins takes milliseconds. */
  private current: ToolRegistry | undefined;
  private currentSubscription: vscode.Disposable | undefined;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** The problems imported tasks' results report, in the Problems panel (task-problems.ts). */
  private readonly taskProblems = new TaskProblems();
  private readonly disposables: vscode.Disposable[] = [this.changeEmitter, this.taskProblems];
  private watchers: vscode.Disposable[] = [];
  private reloadTimer: NodeJS.Timeout | undefined;
  /** Files this window wrote (editor saves, New Plugin File), with when. */
  private readonly writtenHere = new Map<string, number>();

  /** Fires when the tools, their states or their diagnostics change. */
  readonly onDidChange = this.changeEmitter.event;
  /**
   * The per-user approval store, shared with the MCP server this window starts and with every
   * standalone server and terminal command: what the user approves anywhere is served here.
   */
  readonly approvalStorePath = defaultApprovalStorePath(process.env);
  private environment: NodeJS.ProcessEnv | undefined;
  /** Where 0.1 kept this workspace's approvals; carried over once before the first load. */
  private readonly legacyStorePath: string;
  /**
   * This workspace's call history (JSON lines), written by this window's doors and by the MCP
   * server it starts (--history), read by the History view.
   */
  readonly history: HistoryFile;
  /**
   * Where the tools other extensions register (`registerTools`) are written as plugin files: an
   * extra plugin directory of this window's registry and of the MCP server it starts.
   */
  readonly registeredToolsDirectory: string;
  /** The calls in progress in this extension host (lm tools, Run Tool, the editor bridge): the tools view's Running rows. */
  readonly running = new RunningCalls();
  /**
   * Where the MCP server this window starts publishes its calls and tasks in progress
   * (`--running-file`, core/running/running-file.ts): in this extension's storage, not the workspace.
   */
  readonly runningFile: string;
  /** Whole outputs of large Run Tool results, kept while the window lives (output-documents.ts). */
  readonly outputs = new OutputStore();
  private windowSandbox: Sandbox | undefined;
  private started = false;
  private disposed = false;
  private leftoversCleared = false;
  /** The editor tools over VS Code's language services: served to chat and to the editor bridge (editor-bridge/). */
  private readonly editorTools = createEditorTools(vscodeEditorQueries());

  constructor(
    private readonly log: vscode.LogOutputChannel,
    storageDirectory: string,
  ) {
    this.legacyStorePath = path.join(storageDirectory, 'approvals.json');
    this.history = new HistoryFile(path.join(storageDirectory, HISTORY_FILE), log);
    this.registeredToolsDirectory = path.join(storageDirectory, 'registered-tools');
    this.runningFile = path.join(storageDirectory, RUNNING_FILE);
    this.disposables.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.replaceRegistry('workspace trust granted')),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        if (this.started) {
          this.watchPluginFiles();
        }
        // A registry loaded before start() (a view asked) reloads too.
        this.scheduleReload();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => this.onConfigurationChanged(event)),
      // Noted before the save reaches the disk, not after: the file watcher's reload can finish
      // before onDidSaveTextDocument arrives (seen in code-server), and would announce the
      // person's own save as an outside change.
      vscode.workspace.onWillSaveTextDocument((event) => this.markWrittenHere(event.document.uri.fsPath)),
      vscode.workspace.onDidSaveTextDocument((document) => this.markWrittenHere(document.uri.fsPath)),
    );
  }

  get registry(): ToolRegistry {
    if (this.current === undefined) {
      this.clearRegisteredLeftovers();
      this.current = this.createRegistry();
      this.currentSubscription = this.current.onDidChange(() => this.changeEmitter.fire());
    }
    return this.current;
  }

  /** The OS sandbox this window's shell and imported tools run in (Run Tool, the Testing view); made on first use. */
  private get sandbox(): Sandbox {
    return (this.windowSandbox ??= this.createSandbox());
  }

  /**
   * Registrations (registerTools) last one session: the files a session that ended without
   * cleaning up left go, once, before the first registry reads the directory or the first
   * registration writes to it, whichever comes first.
   */
  clearRegisteredLeftovers(): void {
    if (this.leftoversCleared) {
      return;
    }
    this.leftoversCleared = true;
    clearRegisteredLeftovers(this.registeredToolsDirectory);
  }

  /** The environment tools run in, with VS Code's own ripgrep for search-text (looked up once, on first use). */
  get toolEnv(): NodeJS.ProcessEnv {
    return (this.environment ??= toolEnvironment());
  }

  /**
   * Watches what a reload follows (plugin files, the approval store, code modules and imported
   * sources) and starts the first load: the window's work, begun once activate() has returned.
   */
  start(): void {
    if (this.started || this.disposed) {
      return;
    }
    this.started = true;
    this.watchPluginFiles();
    this.disposables.push(
      // An approval given in a terminal or another window reaches this one within a moment.
      watchForChanges({ targets: [this.approvalStorePath], debounceMs: RELOAD_DEBOUNCE_MS, logger: this.log, onChange: () => this.scheduleReload() }),
      // A code module or an imported source (tasks.json, package.json, a Makefile) changed: its file waits for approval again.
      watchPluginSources({ files: () => this.registry.files(), onDidChange: this.onDidChange }, { debounceMs: RELOAD_DEBOUNCE_MS, logger: this.log, onChange: () => this.scheduleReload() }),
    );
    this.loadInBackground();
  }

  /** Whether this window's shell and imported tools run sandboxed (`checking` until a tool needed the probe). */
  get sandboxStatus(): SandboxStatus {
    return this.sandbox.status();
  }

  /** Notes that this window wrote `file` (New Plugin File does; editor saves are noted by themselves). */
  markWrittenHere(file: string): void {
    this.writtenHere.set(file, Date.now());
  }

  /**
   * Whether `file` was written from this window a moment ago: the person's own edit, as opposed to
   * one by an agent's file tools, a terminal or a git pull.
   */
  wasWrittenHere(file: string): boolean {
    const at = this.writtenHere.get(file);
    return at !== undefined && Date.now() - at < WRITTEN_HERE_MS;
  }

  /**
   * What the tools view and the approval dialog need to word each tool's sandbox: the place of
   * this window's policies (its approval store and history, hidden from every tool) and, when
   * shell and imported tools run without the OS sandbox, the engine's "not sandboxed" mark.
   */
  sandboxView(): SandboxView {
    const mark = sandboxMark(this.sandbox.status(), this.sandbox.setting);
    return { place: this.sandbox.user, ...(mark === undefined ? {} : { notSandboxed: mark }) };
  }

  /** Plugin tools are loaded only in a trusted workspace (Restricted Mode runs none). */
  get pluginsAllowed(): boolean {
    return vscode.workspace.isTrusted;
  }

  /**
   * Starts the registry's first load, unless something already did, and fires onDidChange when
   * it is done even if it changed nothing: the view's header waits for that, and a replaced
   * registry that loads to nothing still differs from the one it replaced.
   */
  private loadInBackground(): void {
    const registry = this.registry;
    const migrated = migrateLegacyApprovals(this.legacyStorePath, new ApprovalStore(this.approvalStorePath), this.log).catch(
      (error: unknown) => this.log.warn(`[approval] could not move the old approvals: ${String(error)}`),
    );
    migrated.then(() => registry.initialize()).then(
      () => {
        if (registry === this.current) {
          this.changeEmitter.fire();
          this.probeSandbox(registry);
        }
      },
      (error: unknown) => this.log.error(`[service] loading tools failed: ${String(error)}`),
    );
  }

  /** Loads plugin files again now (Reload command, tree button). */
  async reload(): Promise<void> {
    const registry = this.registry;
    await registry.initialize();
    await registry.reload();
  }

  /**
   * Runs a tool through the registry's call pipeline: a tool that is not served comes back as a
   * refusal (CallResult.refusal). The options are the registry's (door, progress, outputs) with
   * VS Code's cancellation token in place of the abort signal.
   */
  async call(name: string, input: unknown, options: WindowCallOptions): Promise<CallResult> {
    const { token, ...rest } = options;
    const controller = new AbortController();
    const listener = token.onCancellationRequested(() => controller.abort());
    if (token.isCancellationRequested) {
      controller.abort();
    }
    // Listed in the tools view while it runs; its Cancel aborts the call as the token does.
    const listed = this.running.begin({ tool: name, door: options.door, ...(options.caller === undefined ? {} : { caller: options.caller }), cancel: () => controller.abort() });
    const progress = (message: string): void => {
      listed.report(message);
      rest.progress?.(message);
    };
    try {
      const result = await this.registry.call(name, input, { ...rest, progress, signal: controller.signal });
      this.taskProblems.report(name, result);
      return result;
    } finally {
      listed.end();
      listener.dispose();
    }
  }

  /** Approves the content of a plugin file that the user was shown (by its hash). */
  async approve(file: string, shownContentHash: string): Promise<void> {
    const registry = this.registry;
    await registry.initialize();
    await registry.approve(file, shownContentHash);
    this.log.info(`[approval] approved ${file}`);
  }

  dispose(): void {
    this.disposed = true;
    if (this.reloadTimer !== undefined) {
      clearTimeout(this.reloadTimer);
    }
    vscode.Disposable.from(...this.watchers, ...this.disposables).dispose();
    this.currentSubscription?.dispose();
    this.current?.dispose();
    this.outputs.dispose();
    this.windowSandbox?.dispose();
  }

  /**
   * The window's sandbox (workspaceTools.sandbox): its state hidden from tools, and the one notice
   * of its absence in the output (the MCP server says it on its own stderr); the view's header
   * shows it on the next change.
   */
  private createSandbox(): Sandbox {
    const settings = readSettings();
    const user = userPlace({ approvalStorePath: this.approvalStorePath, historyPath: this.history.file, extraDenyRead: settings.sandboxDenyRead });
    return createSandbox({ setting: settings.sandbox, user, env: this.toolEnv, logger: this.log, onUnavailable: () => this.changeEmitter.fire() });
  }

  /**
   * Once tools that run programs are served, finds out in the background whether they run
   * sandboxed (one broker, then kept for Run Tool), so the view can say so before any call.
   */
  private probeSandbox(registry: ToolRegistry): void {
    const needing = registry.files().find((file) => file.tools.some((tool) => tool.definition.sandbox?.kind === 'os'));
    if (needing !== undefined) {
      void this.sandbox.ready(needing.loaded.folder.path);
    }
  }

  private createRegistry(): ToolRegistry {
    const settings = readSettings();
    return createWorkspaceRegistry({
      folders: currentFolders,
      extraPluginDirectories: () => [...readSettings().pluginDirectories, this.registeredToolsDirectory],
      includeBuiltins: settings.builtinsEnabled,
      extraTools: this.editorTools,
      includePlugins: this.pluginsAllowed,
      approval: new StoredApprovalPolicy(this.approvalStorePath, this.log),
      limits: () => limitsOf(readSettings()),
      env: this.toolEnv,
      logger: this.log,
      disabledTools: settings.disabledTools,
      history: this.history,
      sandbox: this.sandbox,
    });
  }

  private replaceRegistry(reason: string): void {
    this.log.info(`[service] rebuilding the tool registry: ${reason}`);
    this.currentSubscription?.dispose();
    const previous = this.current;
    this.current = undefined;
    previous?.dispose();
    // Before start(), the first load will build the registry with the new settings.
    if (this.started) {
      this.loadInBackground();
    }
  }

  /**
   * One edit of settings.json can change several settings at once, so each is handled on its
   * own. A new registry reads every setting afresh, which covers the other two.
   */
  private onConfigurationChanged(event: vscode.ConfigurationChangeEvent): void {
    const directoriesChanged = affects(event, 'pluginDirectories');
    if (directoriesChanged && this.started) {
      this.watchPluginFiles();
    }
    if (affects(event, 'builtins.enabled')) {
      this.replaceRegistry('built-in tools setting changed');
      return;
    }
    if (affects(event, 'sandbox') || affects(event, 'sandboxDenyRead')) {
      this.windowSandbox?.dispose();
      this.windowSandbox = undefined;
      this.replaceRegistry('sandbox setting changed');
      return;
    }
    if (affects(event, 'disabledTools')) {
      this.current?.setDisabledTools(readSettings().disabledTools);
    }
    if (directoriesChanged) {
      this.scheduleReload();
    }
  }

  /** One watcher per plugin directory: each folder's .vscode/tools and the extra ones. */
  private watchPluginFiles(): void {
    vscode.Disposable.from(...this.watchers).dispose();
    const patterns = [
      ...(vscode.workspace.workspaceFolders ?? []).map(
        (folder) => new vscode.RelativePattern(folder, `${WORKSPACE_PLUGIN_DIRECTORY.split(path.sep).join('/')}/*.json`),
      ),
      ...readSettings().pluginDirectories
        .filter((directory) => path.isAbsolute(directory))
        .map((directory) => new vscode.RelativePattern(vscode.Uri.file(directory), '*.json')),
    ];
    this.watchers = patterns.flatMap((pattern) => {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      return [watcher, watcher.onDidCreate(() => this.scheduleReload()), watcher.onDidChange(() => this.scheduleReload()), watcher.onDidDelete(() => this.scheduleReload())];
    });
  }

  /** Editors save in bursts; one reload per burst. */
  private scheduleReload(): void {
    if (this.reloadTimer !== undefined) {
      clearTimeout(this.reloadTimer);
    }
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      this.reload().catch((error: unknown) => this.log.error(`[service] reload failed: ${String(error)}`));
    }, RELOAD_DEBOUNCE_MS);
  }
}
