import * as path from 'node:path';
import * as vscode from 'vscode';
import { WALKTHROUGH_ID } from '../context-keys';
import type { WorkspaceToolsService } from '../service';
import { setToolDisabled } from '../settings';
import { TOOLS_COMMANDS, TOOLS_VIEW_ID, isToolsNode } from '../tree/nodes';
import type { ToolTestRunner } from '../testing/tool-tests';
import type { ToolsTreeProvider } from '../tree/provider';
import { approveFile } from './approve-file';
import type { NewPluginFileDeps } from './new-plugin-file';
import { newPluginFile } from './new-plugin-file';
import { findImportable } from '../../core/imports/importable';
import { hostPlatform } from '../../core/platform/platform';
import { RunResults } from './run-results';
import { runTool } from './run-tool';
import { failure, registerCommand } from './command-errors';
import { filePathFrom, toolFrom } from './targets';
import { reloadedMessage } from '../view-text/status-text';
import { awaitsApproval } from '../../core/registry/snapshot';

/** How long Reload's message stays in the status bar. */
const RELOADED_MESSAGE_MS = 8000;

/** Registers the commands of the tools view (title actions, item actions, palette). */
export function registerToolsCommands(
  context: vscode.ExtensionContext,
  service: WorkspaceToolsService,
  log: vscode.LogOutputChannel,
  provider: ToolsTreeProvider,
  tests: ToolTestRunner,
): void {
  const results = new RunResults();
  context.subscriptions.push(results.register());
  const newFileDeps: NewPluginFileDeps = {
    log,
    typesFile: context.asAbsolutePath(path.join('types', 'workspace-tools.d.ts')),
    written: (file) => service.markWrittenHere(file),
    // The importers themselves, with the environment tools run in: what is offered is what loads.
    importable: (folder) => findImportable({ folder: { name: folder.name, path: folder.uri.fsPath }, platform: hostPlatform(), env: service.toolEnv, ...(vscode.workspace.isTrusted ? {} : { runsNoPrograms: true }) }),
    isTool: (name) => service.registry.get(name) !== undefined,
  };
  // Some commands resolve to a value for scripted callers (executeCommand returns it).
  const handlers: Record<string, (arg: unknown, second: unknown) => Promise<unknown> | void> = {
    [TOOLS_COMMANDS.reload]: () => reload(service, log, provider),
    [TOOLS_COMMANDS.newPluginFile]: (arg) => newPluginFile(arg, newFileDeps),
    [TOOLS_COMMANDS.importTasks]: () => newPluginFile(undefined, newFileDeps, 'import'),
    [TOOLS_COMMANDS.showLog]: () => log.show(),
    [TOOLS_COMMANDS.approveFile]: (arg) => approveFile(arg, service, log),
    [TOOLS_COMMANDS.openDefinition]: (arg) => openDefinition(arg, service),
    [TOOLS_COMMANDS.runTool]: (arg, second) => runTool(arg, second, service, results, log),
    [TOOLS_COMMANDS.enableTool]: (arg) => setEnabled(arg, true, service, log),
    [TOOLS_COMMANDS.disableTool]: (arg) => setEnabled(arg, false, service, log),
    [TOOLS_COMMANDS.copyToolName]: (arg) => copyToolName(arg, service),
    [TOOLS_COMMANDS.runTests]: (arg) => runTests(arg, service, tests),
    [TOOLS_COMMANDS.openWalkthrough]: async () => {
      await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false);
    },
  };
  for (const [id, handler] of Object.entries(handlers)) {
    context.subscriptions.push(registerCommand(id, (arg, second) => handler(arg, second), log));
  }
}

/**
 * Loads the plugin files again and says what was loaded in the status bar for a few seconds, so a
 * click is answered even when the view looks the same. A status message, not a notification: it
 * goes by itself and never stacks up over the notifications that need an answer. Resolves to the
 * message, for scripted callers.
 */
async function reload(service: WorkspaceToolsService, log: vscode.LogOutputChannel, provider: ToolsTreeProvider): Promise<string> {
  log.info('[tree] reload requested');
  try {
    await vscode.window.withProgress({ location: { viewId: TOOLS_VIEW_ID } }, () => service.reload());
  } catch (error) {
    throw failure('Reloading the tools failed', error);
  } finally {
    provider.refresh();
  }
  const registry = service.registry;
  const files = registry.files();
  const problems = registry.diagnostics().length;
  const message = reloadedMessage({
    files: files.length,
    activeTools: registry.all().filter((tool) => tool.state === 'active').length,
    pendingFiles: files.filter(awaitsApproval).length,
    problems,
    pluginsAllowed: service.pluginsAllowed,
  });
  log.info(`[tree] ${message}`);
  vscode.window.setStatusBarMessage(`$(refresh) ${message}`, RELOADED_MESSAGE_MS);
  return message;
}

/** Opens a plugin tool's definition (or a plugin file) at the tool's line and column. */
async function openDefinition(arg: unknown, service: WorkspaceToolsService): Promise<void> {
  const source = toolFrom(arg, service)?.definition.source;
  if (source?.kind === 'plugin') {
    const position = new vscode.Position(source.line - 1, source.column - 1);
    await vscode.window.showTextDocument(vscode.Uri.file(source.file), { selection: new vscode.Range(position, position), preview: false });
    return;
  }
  const file = isToolsNode(arg) ? filePathFrom(arg) : undefined;
  if (file !== undefined) {
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
  }
}

async function setEnabled(arg: unknown, enabled: boolean, service: WorkspaceToolsService, log: vscode.LogOutputChannel): Promise<void> {
  const tool = toolFrom(arg, service);
  if (tool === undefined) {
    return;
  }
  const name = tool.definition.name;
  await setToolDisabled(name, !enabled).catch((error: unknown) => {
    throw failure(`Could not ${enabled ? 'enable' : 'disable'} ${name}`, error);
  });
  log.info(`[tree] ${enabled ? 'enabled' : 'disabled'} ${name}`);
}

async function copyToolName(arg: unknown, service: WorkspaceToolsService): Promise<void> {
  const tool = toolFrom(arg, service);
  if (tool !== undefined) {
    await vscode.env.clipboard.writeText(tool.definition.name);
    vscode.window.setStatusBarMessage(`Copied "${tool.definition.name}"`, 3000);
  }
}

/**
 * Runs the declared tests of a tool (a tree node or a name), or of every tool without one. The
 * Testing view shows the run; the tree shows the counts; scripted callers get the outcomes.
 */
async function runTests(arg: unknown, service: WorkspaceToolsService, tests: ToolTestRunner): Promise<unknown> {
  const tool = arg === undefined ? undefined : toolFrom(arg, service)?.definition.name;
  if (arg !== undefined && tool === undefined) {
    throw new Error(`No tool ${typeof arg === 'string' ? `"${arg}" ` : ''}to run the tests of.`);
  }
  const outcomes = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Running the tests${tool === undefined ? '' : ` of ${tool}`}`, cancellable: true },
    (_progress, token) => tests.run(tool === undefined ? undefined : [tool], token),
  );
  const failed = outcomes.filter((outcome) => !outcome.passed);
  const summary = `${outcomes.length - failed.length} passed, ${failed.length} failed`;
  if (failed.length > 0) {
    void vscode.window.showWarningMessage(`Tests${tool === undefined ? '' : ` of ${tool}`}: ${summary}. ${failed[0]?.testCase.test.name ?? ''}: ${failed[0]?.message ?? ''}`, 'Show in Testing View').then((choice) => {
      if (choice !== undefined) {
        void vscode.commands.executeCommand('workbench.view.testing.focus');
      }
    });
  } else {
    vscode.window.setStatusBarMessage(`Tests${tool === undefined ? '' : ` of ${tool}`}: ${outcomes.length === 0 ? 'none ran (is the file approved?)' : summary}`, 5000);
  }
  return outcomes.map((outcome) => ({ tool: outcome.testCase.tool, test: outcome.testCase.test.name, passed: outcome.passed, message: outcome.message }));
}
