/**
 * Which other extensions' language model tools the bridge serves: those the user listed in
 * `workspaceTools.bridge.extensionTools` (machine scope: a workspace cannot list any), by tool
 * name or by extension id. None by default, never this extension's own (its tools are the
 * built-ins and the editor tools, served as they are). A tool that declares no object schema takes any object.
 */
import type { JsonObjectSchema } from '../types';
import type { BridgeToolDescriptor } from './protocol';

/** An lm tool as VS Code lists it (`vscode.lm.tools`), with the extension that contributes it when known. */
export interface LmToolInfo {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object;
  /** The contributing extension's id, from the extensions' manifests (lm.tools does not say). */
  readonly extension?: string;
}

/** The listed tools, as the bridge describes them. */
export function selectExtensionTools(tools: readonly LmToolInfo[], listed: readonly string[], ownExtension: string): BridgeToolDescriptor[] {
  const wanted = new Set(listed.map((entry) => entry.trim().toLowerCase()).filter((entry) => entry !== ''));
  const own = ownExtension.toLowerCase();
  return tools
    .filter((tool) => tool.extension?.toLowerCase() !== own)
    .filter((tool) => wanted.has(tool.name.toLowerCase()) || (tool.extension !== undefined && wanted.has(tool.extension.toLowerCase())))
    .map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: objectSchemaOf(tool.inputSchema),
      // Not known to be read-only: MCP clients are told so, and the window asks the user as the tool says.
      tags: [],
      kind: 'extension' as const,
      ...(tool.extension === undefined ? {} : { extension: tool.extension }),
      handlerSummary: `vscode.lm.invokeTool("${tool.name}")${tool.extension === undefined ? '' : ` of the extension ${tool.extension}`}`,
    }));
}

/** A tool's declared schema when it is an object schema; any input object otherwise (VS Code allows none). */
function objectSchemaOf(schema: object | undefined): JsonObjectSchema {
  return schema !== undefined && (schema as { type?: unknown }).type === 'object' ? (schema as JsonObjectSchema) : { type: 'object' };
}
