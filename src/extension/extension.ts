import * as vscode from 'vscode';
import type { WorkspaceToolsApi } from './api';
import { createApi } from './api';
import { ignoreInspectorSignal } from '../core/process/inspector-signal';
import { registerPluginEditor } from './editor/plugin-editor';
import { registerClientConfigCommands } from './client-config-commands';
import { registerLanguageModelTools } from './lm-tools';
import { forgetInheritedBridge, registerEditorBridge } from './editor-bridge/window-bridge';
import { registerMcpServerProvider } from './mcp-provider';
import { registerHistoryView } from './history/history-view';
import { registerOutputDocuments } from './output-documents';
import { registerPluginProblems } from './problems';
import { RegisteredTools } from './register-tools';
import { WorkspaceToolsService } from './service';
import { Startup } from './startup';
import { registerStatusBar } from './status-bar';
import { registerToolTests } from './testing/tool-tests';
import { registerPluginFilesView } from './tree/plugin-files-view';
import { registerToolsView } from './tree/view';

/**
 * Wires the services and registers each feature; nothing else happens here. What the features
 * start with (watchers, files, the editor bridge, the first load of plugin files) is queued on
 * `startup` and begins once activate() has returned (startup.ts).
 */
export function activate(context: vscode.ExtensionContext): WorkspaceToolsApi {
  const started = performance.now();
  forgetInheritedBridge();
  const log = vscode.window.createOutputChannel('Workspace Tools', { log: true });
  // This host starts code tools' sandboxes: SIGUSR1 must not open its inspector (docs/code-tools.md#no-inspector-to-open).
  ignoreInspectorSignal(() => log.warn('[activate] ignored SIGUSR1: it would have opened the inspector of the extension host'));
  const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
  const startup = new Startup(log);
  const service = new WorkspaceToolsService(log, storage);
  const registered = new RegisteredTools(service, log);
  startup.later('the tool registry', () => service.start());
  // The queue first: steps still waiting when the extension deactivates never run.
  context.subscriptions.push(startup, log, service, registered);
  registerLanguageModelTools(context, service, log);
  // Nothing VS Code looks up at activation: registered in a turn of their own.
  startup.later('the editor bridge', () => registerEditorBridge(context, service, log));
  const mcpServer = registerMcpServerProvider(context, service, log, startup);
  registerClientConfigCommands(context, service, log);
  const tests = registerToolTests(context, service, log);
  const toolsView = registerToolsView(context, service, log, tests, mcpServer, startup);
  registerStatusBar(context, service, log, (file) => toolsView.revealFile(file));
  registerPluginFilesView(context, service, log);
  startup.later('the plugin file editor', () => registerPluginEditor(context, service));
  startup.later('the Problems panel', () => registerPluginProblems(context, service));
  registerHistoryView(context, service, log, startup);
  registerOutputDocuments(context, service);

  const activationMs = performance.now() - started;
  log.info(`[activate] activated in ${activationMs.toFixed(1)} ms`);
  startup.begin();
  return createApi(service, tests, registered, () => activationMs);
}

/** Nothing to release here: everything is disposed through context.subscriptions. */
export function deactivate(): void {
  // Intentionally empty.
}
