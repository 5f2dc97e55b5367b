/**
 * A window for the bridge's tests: a real bridge server (a socket in a private temp folder)
 * whose host runs the editor tools against a scripted editor over a real folder, as the
 * extension runs them against VS Code, plus one tool standing for another extension's.
 */
import { descriptorOf } from '../../../src/core/editor-bridge/bridged-tools';
import type { BridgeServer } from '../../../src/core/editor-bridge/bridge-server';
import { startBridgeServer } from '../../../src/core/editor-bridge/bridge-server';
import { createEditorTools } from '../../../src/core/editor-bridge/editor-tools';
import type { BridgeCaller } from '../../../src/core/editor-bridge/protocol';
import type { ToolDefinition, WorkspaceFolder } from '../../../src/core/types';
import { textResult } from '../../../src/core/types';
import { toolContext } from '../helpers/git-repo';
import type { ScriptedEditor } from './scripted-editor';

export interface TestWindow {
  readonly bridge: BridgeServer;
  /** Every call the window ran: tool name and caller. */
  readonly calls: Array<{ name: string; caller: BridgeCaller }>;
  close(): Promise<void>;
}

/** An extension tool the user listed: it answers with its input, or waits until cancelled. */
export const EXTENSION_TOOL: ToolDefinition = {
  name: 'acme_status',
  description: 'The status of the Acme service (a tool another extension contributes).',
  inputSchema: { type: 'object', properties: { wait: { type: 'boolean' } } },
  tags: [],
  source: { kind: 'builtin' },
  handlerSummary: 'vscode.lm.invokeTool(acme_status)',
  run: async (input, context) => {
    if (input['wait'] === true) {
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
      return textResult('cancelled');
    }
    return textResult(`acme ok ${JSON.stringify(input)}`);
  },
};

/**
 * A window's bridge serving the editor tools of `editor` and `extensionTools` (other extensions'
 * lm tools, listed under `extensionId`; by default EXTENSION_TOOL of acme.tools).
 */
export async function openTestWindow(
  editor: ScriptedEditor,
  folders: readonly WorkspaceFolder[],
  parent?: string,
  extensionTools: readonly ToolDefinition[] = [EXTENSION_TOOL],
  extensionId = 'acme.tools',
): Promise<TestWindow> {
  const editorTools = createEditorTools(editor);
  const calls: Array<{ name: string; caller: BridgeCaller }> = [];
  const ignore = (): void => undefined;
  const bridge = await startBridgeServer({
    logger: { trace: ignore, debug: ignore, info: ignore, warn: ignore, error: ignore },
    ...(parent === undefined ? {} : { parent }),
    host: {
      hello: () => ({ window: 'app', tools: [...editorTools.map((tool) => descriptorOf(tool, 'editor')), ...extensionTools.map((tool) => descriptorOf(tool, 'extension', extensionId))] }),
      call: async (name, input, caller, signal) => {
        calls.push({ name, caller });
        // The window runs an editor tool by its name first (window-bridge.ts), as here.
        const tool = [...editorTools, ...extensionTools].find((candidate) => candidate.name === name);
        if (tool === undefined) {
          throw new Error(`not listed: ${name}`);
        }
        return tool.run(input as Record<string, unknown>, toolContext(folders, { signal }));
      },
    },
  });
  return { bridge, calls, close: () => bridge.close() };
}
