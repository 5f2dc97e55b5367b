/**
 * The tools of a window's bridge as the MCP server serves them: one ToolDefinition per tool the
 * window listed, whose run forwards the (already validated) input to the window. The server
 * lists them beside its own; a call after the window has gone fails with why.
 */
import type { Logger, ToolDefinition } from '../types';
import type { BridgeConnection } from './bridge-client';
import { BridgeUnavailableError, bridgeAddressOf, connectBridge } from './bridge-client';
import type { BridgeCaller, BridgeToolDescriptor } from './protocol';

/** What the server got from its environment's bridge: the tools, and one line for `list` and the log. */
export interface EditorBridgeState {
  readonly tools: readonly ToolDefinition[];
  /** "connected to the VS Code window "app": 6 editor tools, 1 extension tool", or why there are none. */
  readonly status: string;
  readonly connection?: BridgeConnection;
}

/** A bridge tool as the server's registry holds it. */
export function bridgedTool(descriptor: BridgeToolDescriptor, connection: BridgeConnection): ToolDefinition {
  return {
    name: descriptor.name,
    ...(descriptor.title === undefined ? {} : { title: descriptor.title }),
    description: descriptor.description,
    inputSchema: descriptor.inputSchema,
    ...(descriptor.outputSchema === undefined ? {} : { outputSchema: descriptor.outputSchema }),
    tags: descriptor.tags,
    source: { kind: 'builtin' },
    handlerSummary: `VS Code window "${connection.hello.window}": ${descriptor.handlerSummary}`,
    run: (input, context) => connection.call(descriptor.name, input, context.signal),
  };
}

/**
 * Connects to the bridge `env` names (a terminal of a VS Code window), or says why there is
 * none. Never throws: a server without a window serves its other tools.
 */
export async function openEditorBridge(env: Readonly<Record<string, string | undefined>>, caller: BridgeCaller, logger: Logger): Promise<EditorBridgeState> {
  const where = bridgeAddressOf(env);
  if ('none' in where) {
    return { tools: [], status: `no editor tools: ${where.none}` };
  }
  try {
    const connection = await connectBridge(where.address, where.token, caller);
    const tools = connection.hello.tools.map((descriptor) => bridgedTool(descriptor, connection));
    const editor = connection.hello.tools.filter((tool) => tool.kind === 'editor').length;
    const extension = tools.length - editor;
    const status = `editor tools from the VS Code window "${connection.hello.window}": ${editor} editor tool${editor === 1 ? '' : 's'}, ${extension} extension tool${extension === 1 ? '' : 's'}`;
    logger.info(`[bridge] ${status}`);
    return { tools, status, connection };
  } catch (error) {
    const message = error instanceof BridgeUnavailableError ? error.message : `Cannot use the VS Code window's bridge: ${error instanceof Error ? error.message : String(error)}`;
    logger.warn(`[bridge] ${message}`);
    return { tools: [], status: `no editor tools: ${message}` };
  }
}

/** How the window lists one of its tools on the bridge. */
export function descriptorOf(definition: Pick<ToolDefinition, 'name' | 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'tags' | 'handlerSummary'>, kind: BridgeToolDescriptor['kind'], extension?: string): BridgeToolDescriptor {
  return {
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    inputSchema: definition.inputSchema,
    ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
    tags: definition.tags,
    kind,
    ...(extension === undefined ? {} : { extension }),
    handlerSummary: definition.handlerSummary,
  };
}
