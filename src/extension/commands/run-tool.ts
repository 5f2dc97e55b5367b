import * as vscode from 'vscode';
import { cancelledMessage, failureMessage, formatRunResult } from '../view-text/run-result';
import type { RegisteredTool } from '../../core/registry/snapshot';
import type { ToolResult } from '../../core/types';
import { isReadOnly } from '../../core/types';
import type { WorkspaceToolsService } from '../service';
import { isToolsNode } from '../tree/nodes';
import { raiseWalkthroughEvent } from '../walkthrough-events';
import { askToolInput } from './ask-tool-input';
import { throttleProgress } from '../../core/progress-throttle';
import { OUTPUT_SCHEME } from '../output-documents';
import type { RunResults } from './run-results';
import { pickTool, toolFrom } from './targets';

/** The confirm button for scripted runs of tools that may change things. */
export const RUN_LABEL = 'Run';

/** A run with its input given by the caller: no input box. */
interface ScriptedRun {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isToolsNode(value) && !(value instanceof vscode.Uri);
}

/**
 * The scripted forms of the arguments, as keybindings and other extensions pass them:
 * `{ name, input? }`, or a tool name followed by its input. A string alone is not scripted
 * (it still asks for the input, as before), and neither is a tree node: menus pass the
 * clicked node first and the selected nodes (an array) second.
 */
function scriptedRunFrom(arg: unknown, second: unknown): ScriptedRun | string | undefined {
  if (isPlainObject(arg) && typeof arg.name === 'string') {
    if (arg.input !== undefined && !isPlainObject(arg.input)) {
      return `The input of "${arg.name}" must be a JSON object.`;
    }
    return { name: arg.name, input: arg.input ?? {} };
  }
  if (typeof arg === 'string' && second !== undefined) {
    return isPlainObject(second) ? { name: arg, input: second } : `The input of "${arg}" must be a JSON object.`;
  }
  return undefined;
}

/**
 * Runs a tool by hand: asks for its input one parameter at a time (ask-tool-input.ts), runs it
 * with a cancellable progress notification, and opens the result in a read-only document.
 * Scripted calls (`{ name, input? }` or name + input) skip the questions, nothing else: the tool
 * must still be active (file approved, not disabled), and a tool that is not read-only asks
 * before it runs.
 * Resolves to the result, or undefined when nothing ran.
 */
export async function runTool(arg: unknown, second: unknown, service: WorkspaceToolsService, results: RunResults, log: vscode.LogOutputChannel): Promise<ToolResult | undefined> {
  await service.registry.initialize();
  const scripted = scriptedRunFrom(arg, second);
  if (typeof scripted === 'string') {
    void vscode.window.showWarningMessage(scripted);
    return undefined;
  }
  const tool = await targetTool(scripted?.name ?? arg, service);
  if (tool === undefined || !isRunnable(tool)) {
    return undefined;
  }
  const input = scripted?.input ?? (await askToolInput(tool));
  if (input === undefined || (scripted !== undefined && !(await confirmScriptedRun(tool, input, service)))) {
    return undefined;
  }
  return runAndShow(tool, input, service, results, log);
}

/**
 * A scripted run of a tool that is not read-only asks first, as chat does before such a call:
 * the caller may be a command an agent runs, not the user. Typing the input into the box is
 * the user's own go-ahead, so that path does not ask twice.
 */
async function confirmScriptedRun(tool: RegisteredTool, input: Record<string, unknown>, service: WorkspaceToolsService): Promise<boolean> {
  const { definition } = tool;
  if (isReadOnly(definition.tags)) {
    return true;
  }
  // The exact command this input makes (each argument on its own line), not only the template.
  const preview = service.registry.previewCall(definition.name, input);
  const runs = preview === undefined ? definition.handlerSummary : 'lines' in preview ? `It will run:\n${preview.lines.join('\n')}` : `The input would be refused:\n${preview.error}`;
  const detail = `${runs}\n\nInput:\n${JSON.stringify(input, null, 2)}`;
  const choice = await vscode.window.showWarningMessage(`Run "${definition.name}"?`, { modal: true, detail }, RUN_LABEL);
  return choice === RUN_LABEL;
}

/** The tool a command argument names; a pick among the active tools when there is none. */
async function targetTool(arg: unknown, service: WorkspaceToolsService): Promise<RegisteredTool | undefined> {
  if (arg === undefined) {
    return pickTool(service.registry.all().filter((tool) => tool.state === 'active'), 'Tool to run');
  }
  const tool = toolFrom(arg, service);
  if (tool === undefined && typeof arg === 'string') {
    void vscode.window.showWarningMessage(`No tool is named "${arg}".`);
  }
  return tool;
}

/** Only active tools run: one awaiting approval or disabled is refused, whoever asks. */
function isRunnable(tool: RegisteredTool): boolean {
  if (tool.state === 'active') {
    return true;
  }
  const why = tool.state === 'disabled' ? 'is disabled: enable it first' : 'awaits approval of its plugin file: approve the file first';
  void vscode.window.showWarningMessage(`"${tool.definition.name}" ${why}.`);
  return false;
}

async function runAndShow(tool: RegisteredTool, input: Record<string, unknown>, service: WorkspaceToolsService, results: RunResults, log: vscode.LogOutputChannel): Promise<ToolResult> {
  const { name, handlerSummary } = tool.definition;
  const startedAt = new Date();
  const started = performance.now();
  let cancelled = false;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Running ${name}…`, cancellable: true },
    async (progress, token) => {
      const latest = throttleProgress((message) => progress.report({ message }));
      try {
        return await service.call(name, input, { token, door: 'run-tool', progress: (message) => latest.report(message), outputs: service.outputs });
      } finally {
        latest.close();
        cancelled = token.isCancellationRequested;
      }
    },
  );
  const elapsedMs = performance.now() - started;
  log.info(`[run] ${name} ${cancelled ? 'was cancelled' : result.isError ? 'returned an error' : 'succeeded'} after ${elapsedMs.toFixed(0)} ms`);
  const text = formatRunResult({ name, runs: handlerSummary, input, result, elapsedMs, startedAt, cancelled, locale: vscode.env.language });
  await showResultDocument(results.add(name, text, startedAt));
  const whole = result.resources?.[0];
  if (whole !== undefined) {
    // Past the large-output threshold the result shows head and tail: the whole output opens beside it.
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(whole.uri.replace(/^workspace-tools:/, `${OUTPUT_SCHEME}:`)));
    await vscode.window.showTextDocument(document, { preview: false, viewColumn: vscode.ViewColumn.Beside });
  }
  if (cancelled) {
    void vscode.window.showInformationMessage(cancelledMessage(name, elapsedMs));
  } else if (result.isError) {
    log.warn(`[run] ${name}: ${result.text}`);
    // No button: an error notification with one stays until it is closed, long after the file
    // was fixed. The result document has the whole output.
    void vscode.window.showErrorMessage(failureMessage(name, result, elapsedMs));
  } else {
    // The walkthrough's "Run it" step completes on a successful run.
    void raiseWalkthroughEvent('toolRan');
  }
  return result;
}

/** Opens a result document as Markdown (its name carries no extension: the tab shows the tool and the time). */
async function showResultDocument(uri: vscode.Uri): Promise<void> {
  const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), 'markdown');
  await vscode.window.showTextDocument(document, { preview: true });
}
