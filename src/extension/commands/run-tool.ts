import * as vscode from 'vscode';
import { formatRunResult } from '../../core/plugins/describe-file';
import { parseToolInput, sampleInput } from '../../core/plugins/scaffold';
import type { RegisteredTool } from '../../core/registry/snapshot';
import type { ToolResult } from '../../core/types';
import type { WorkspaceToolsService } from '../service';
import { pickTool, showErrorWithLog, toolFrom } from './targets';

/**
 * Runs a tool by hand: asks for its input (pre-filled from the schema), runs it with a
 * cancellable progress notification, and opens the result in an untitled Markdown editor.
 */
export async function runTool(arg: unknown, service: WorkspaceToolsService, log: vscode.LogOutputChannel): Promise<void> {
  await service.registry.initialize();
  const active = service.registry.all().filter((tool) => tool.state === 'active');
  const tool = arg === undefined ? await pickTool(active, 'Tool to run') : toolFrom(arg, service);
  if (tool === undefined) {
    return;
  }
  if (tool.state !== 'active') {
    const why = tool.state === 'disabled' ? 'is disabled: enable it first' : 'awaits approval of its plugin file: approve the file first';
    void vscode.window.showWarningMessage(`"${tool.definition.name}" ${why}.`);
    return;
  }
  const input = await askInput(tool);
  if (input === undefined) {
    return;
  }
  const name = tool.definition.name;
  const started = performance.now();
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Running ${name}…`, cancellable: true },
    (_progress, token) => callWithToken(service, name, input, token),
  );
  const elapsed = performance.now() - started;
  log.info(`[run] ${name} ${result.isError ? 'returned an error' : 'succeeded'} in ${elapsed.toFixed(0)} ms`);
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: formatRunResult(name, input, result, elapsed) });
  await vscode.window.showTextDocument(document, { preview: true });
  if (result.isError) {
    log.warn(`[run] ${name}: ${result.text}`);
    void showErrorWithLog(`${name} returned an error: ${result.text.split('\n')[0] ?? ''}`, log);
  }
}

/** The tool's input from an input box; no box for a tool without parameters. */
async function askInput(tool: RegisteredTool): Promise<Record<string, unknown> | undefined> {
  const schema = tool.definition.inputSchema;
  if (Object.keys(schema.properties ?? {}).length === 0) {
    return {};
  }
  const text = await vscode.window.showInputBox({
    title: `Run ${tool.definition.name}`,
    prompt: 'Input as a JSON object (pre-filled with the defaults; required values may need editing)',
    value: JSON.stringify(sampleInput(schema)),
    ignoreFocusOut: true,
    validateInput: (value) => {
      const parsed = parseToolInput(value);
      return parsed.ok ? undefined : { message: parsed.message, severity: vscode.InputBoxValidationSeverity.Error };
    },
  });
  if (text === undefined) {
    return undefined;
  }
  const parsed = parseToolInput(text);
  return parsed.ok ? parsed.value : undefined;
}

async function callWithToken(service: WorkspaceToolsService, name: string, input: unknown, token: vscode.CancellationToken): Promise<ToolResult> {
  const controller = new AbortController();
  const subscription = token.onCancellationRequested(() => controller.abort());
  try {
    return await service.registry.call(name, input, controller.signal);
  } finally {
    subscription.dispose();
  }
}
