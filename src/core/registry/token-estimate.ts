import type { ToolDefinition } from '../types';

/**
 * Rough count of the context tokens a tool costs the model on every request: its name,
 * description and input schema as the model sees them. About four characters per token is
 * the usual estimate for English text and JSON; it is shown to users, not billed.
 */
export function estimateToolTokens(tool: Pick<ToolDefinition, 'name' | 'description' | 'inputSchema'>): number {
  const characters = tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema).length;
  return Math.ceil(characters / 4);
}
