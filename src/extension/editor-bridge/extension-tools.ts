/**
 * Other extensions' language model tools, as the bridge lists and runs them: which are there
 * (`vscode.lm.tools`, with each tool's extension read from the extensions' manifests, which
 * lm.tools does not give) and a call through `vscode.lm.invokeTool` with no chat request, so
 * VS Code shows the tool's own confirmation in the window. Which of them are served is core's
 * rule (core/editor-bridge/extension-tools.ts) over the user's setting.
 */
import * as vscode from 'vscode';
import type { LmToolInfo } from '../../core/editor-bridge/extension-tools';
import type { ToolResult } from '../../core/types';
import { errorResult, textResult } from '../../core/types';

/** Every lm tool VS Code knows now, with its extension when a manifest declares it. */
export function lmToolsNow(): LmToolInfo[] {
  const extensionOf = new Map<string, string>();
  for (const extension of vscode.extensions.all) {
    const declared = (extension.packageJSON as { contributes?: { languageModelTools?: Array<{ name?: unknown }> } }).contributes?.languageModelTools ?? [];
    for (const tool of declared) {
      if (typeof tool.name === 'string') {
        extensionOf.set(tool.name, extension.id);
      }
    }
  }
  return vscode.lm.tools.map((tool) => {
    const extension = extensionOf.get(tool.name);
    return { name: tool.name, description: tool.description, ...(tool.inputSchema === undefined ? {} : { inputSchema: tool.inputSchema }), ...(extension === undefined ? {} : { extension }) };
  });
}

/** Runs one through VS Code (its confirmation, if it asks for one, shows in the window). */
export async function invokeLmTool(name: string, input: unknown, signal: AbortSignal): Promise<ToolResult> {
  const cancel = new vscode.CancellationTokenSource();
  const onAbort = (): void => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await vscode.lm.invokeTool(name, { input: input ?? {}, toolInvocationToken: undefined }, cancel.token);
    const text = result.content.map(partText).join('\n');
    return { ...textResult(text), details: { ran: `vscode.lm.invokeTool("${name}")` } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...errorResult(`The VS Code tool "${name}" did not run to the end: ${message}`), details: { ran: `vscode.lm.invokeTool("${name}")` } };
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancel.dispose();
  }
}

/** A result part as text: text parts as they are, anything else described. */
function partText(part: unknown): string {
  if (part instanceof vscode.LanguageModelTextPart) {
    return part.value;
  }
  const { mimeType, data } = part as { mimeType?: unknown; data?: unknown };
  if (typeof mimeType === 'string' && data instanceof Uint8Array) {
    return mimeType.startsWith('text/') || mimeType === 'application/json' ? new TextDecoder().decode(data) : `[${mimeType}, ${data.byteLength} bytes]`;
  }
  const { value } = part as { value?: unknown };
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}
