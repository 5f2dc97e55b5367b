/**
 * The History view: this workspace's tool calls, newest first, from every door (chat through the
 * language model tools and through the MCP server, Run Tool, and, when asked, declared tests). A
 * row opens the full record as a read-only document; Run Again repeats a call with the same input,
 * asking first for a tool that is not read-only. The view follows the history file, which the MCP
 * server appends to too. Test runs are left out unless "Show Test Runs" is on (shownRecords says
 * why); the choice is kept per workspace.
 */
import * as vscode from 'vscode';
import type { CallRecord } from '../../core/history/call-record';
import { hasRedactedValues } from '../../core/history/format-record';
import { hiddenTestsNote, recordDescription, recordDocument, recordTitle, shownRecords } from '../view-text/call-record-text';
import { watchForChanges } from '../../core/files/watch-paths';
import { isReadOnly } from '../../core/types';
import type { WorkspaceToolsService } from '../service';
import type { Startup } from '../startup';
import { HISTORY_SHOWS_TEST_RUNS } from '../context-keys';

export const HISTORY_VIEW_ID = 'workspaceTools.history';
const SCHEME = 'workspace-tools-history';
const SHOWN_RECORDS = 200;
/** Records read to fill the view: more than are shown, since test runs may be left out. */
const READ_RECORDS = 1000;
/** Whether the view lists test runs: kept in the workspace's state, mirrored in a context key (the title's toggle). */
const SHOW_TESTS_STATE = 'workspaceTools.history.showTestRuns';

class HistoryItem extends vscode.TreeItem {
  constructor(
    readonly record: CallRecord,
    readonly uri: vscode.Uri,
  ) {
    super(record.tool, vscode.TreeItemCollapsibleState.None);
    this.description = recordDescription(record, vscode.env.language);
    const ran = record.ran === undefined ? '' : `\nran: ${record.ran}`;
    this.tooltip = new vscode.MarkdownString().appendCodeblock(`${record.tool} · ${this.description}${ran}\ninput: ${JSON.stringify(record.input)}`, 'text');
    this.iconPath = new vscode.ThemeIcon(record.isError ? 'error' : 'pass');
    this.contextValue = 'historyRecord';
    this.command = { command: 'workspaceTools.openHistoryRecord', title: 'Open Record', arguments: [this] };
  }
}

class HistoryProvider implements vscode.TreeDataProvider<HistoryItem>, vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly documents = new Map<string, CallRecord>();
  /** Test runs left out by the latest read (the view's description says how many). */
  hiddenTests = 0;
  readonly onDidRead = new vscode.EventEmitter<void>();

  constructor(
    private readonly service: WorkspaceToolsService,
    private readonly showTests: () => boolean,
  ) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(item: HistoryItem): vscode.TreeItem {
    return item;
  }

  async getChildren(): Promise<HistoryItem[]> {
    const { records, hidden } = shownRecords(await this.service.history.read(READ_RECORDS), { showTests: this.showTests(), limit: SHOWN_RECORDS });
    this.hiddenTests = hidden;
    this.onDidRead.fire();
    return records.map((record, index) => {
      const id = `${record.time}-${record.tool}-${index}`;
      // The tab shows the path's name: the tool and its local time ("list-todos · 11:10:47 PM").
      const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${recordTitle(record, vscode.env.language)}`, query: id });
      this.documents.set(uri.toString(), record);
      return new HistoryItem(record, uri);
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const record = this.documents.get(uri.toString());
    return record === undefined ? 'This record is no longer in the history.' : recordDocument(record, vscode.env.language);
  }

  dispose(): void {
    this.changed.dispose();
    this.onDidRead.dispose();
  }
}

export function registerHistoryView(context: vscode.ExtensionContext, service: WorkspaceToolsService, log: vscode.LogOutputChannel, startup: Startup): void {
  const showTests = (): boolean => context.workspaceState.get<boolean>(SHOW_TESTS_STATE, false);
  const provider = new HistoryProvider(service, showTests);
  const view = vscode.window.createTreeView(HISTORY_VIEW_ID, { treeDataProvider: provider });
  const setShowTests = async (show: boolean): Promise<void> => {
    await context.workspaceState.update(SHOW_TESTS_STATE, show);
    await vscode.commands.executeCommand('setContext', HISTORY_SHOWS_TEST_RUNS, show);
    provider.refresh();
  };
  void vscode.commands.executeCommand('setContext', HISTORY_SHOWS_TEST_RUNS, showTests());
  const open = async (item: HistoryItem): Promise<void> => {
    const document = await vscode.workspace.openTextDocument(item.uri);
    await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    await vscode.window.showTextDocument(document, { preview: true });
  };
  // The MCP server this window starts writes to the same file. Read again once watched: the
  // view may have read it before, and a record written in between would wait for the next.
  startup.later('the history view', () => {
    context.subscriptions.push(watchForChanges({ targets: [service.history.file], debounceMs: 200, logger: log, onChange: () => provider.refresh() }));
    provider.refresh();
  });
  context.subscriptions.push(
    provider,
    view,
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider),
    provider.onDidRead.event(() => {
      view.description = showTests() ? undefined : hiddenTestsNote(provider.hiddenTests);
    }),
    vscode.commands.registerCommand('workspaceTools.refreshHistory', () => provider.refresh()),
    vscode.commands.registerCommand('workspaceTools.showTestRunsInHistory', () => setShowTests(true)),
    vscode.commands.registerCommand('workspaceTools.hideTestRunsInHistory', () => setShowTests(false)),
    // Without an item (the palette, a keybinding): the newest call.
    vscode.commands.registerCommand('workspaceTools.openHistoryRecord', async (item?: HistoryItem) => {
      const target = item ?? (await provider.getChildren())[0];
      if (target === undefined) {
        void vscode.window.showInformationMessage('No tool calls recorded in this workspace yet.');
        return;
      }
      await open(target);
    }),
    vscode.commands.registerCommand('workspaceTools.runHistoryAgain', (item: HistoryItem) => runAgain(item.record, service, provider, open)),
  );
}

async function runAgain(record: CallRecord, service: WorkspaceToolsService, provider: HistoryProvider, open: (item: HistoryItem) => Promise<void>): Promise<void> {
  if (hasRedactedValues(record.input)) {
    void vscode.window.showWarningMessage(`The recorded input of ${record.tool} had secret values, which the history does not keep. Run it from the Tools view with the values instead.`);
    return;
  }
  const tool = service.registry.get(record.tool);
  if (tool?.state !== 'active') {
    void vscode.window.showWarningMessage(`${record.tool} is not served now (its plugin file may wait for approval, or the tool was removed or turned off).`);
    return;
  }
  if (!isReadOnly(tool.definition.tags)) {
    const detail = `${record.ran === undefined ? '' : `Last time it ran:\n${record.ran}\n\n`}Input:\n${JSON.stringify(record.input, null, 2)}`;
    const choice = await vscode.window.showWarningMessage(`Run ${record.tool} again with the same input?`, { modal: true, detail }, 'Run Again');
    if (choice !== 'Run Again') {
      return;
    }
  }
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Running ${record.tool}`, cancellable: true },
    (progress, token) => service.call(record.tool, record.input, { token, door: 'run-tool', progress: (message) => progress.report({ message }) }),
  );
  await service.history.flush();
  provider.refresh();
  const [newest] = await provider.getChildren();
  if (newest !== undefined && newest.record.tool === record.tool) {
    await open(newest);
  } else if (result.isError) {
    void vscode.window.showErrorMessage(`${record.tool} failed: ${result.text.split('\n')[0] ?? ''}`);
  }
}
