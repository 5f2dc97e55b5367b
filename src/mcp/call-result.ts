/**
 * A registry result as an MCP `CallToolResult`: its content parts when it has them (images,
 * audio, embedded resources, links), else its text; a link to each large output kept whole; the
 * structured value, when it has one (a failed build's problems too); the folder the call ran in.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CallResult } from '../core/registry/call-pipeline';

/** The key of `_meta` that names the workspace folder a call ran in (core/registry/call-folder.ts). */
export const FOLDER_META_KEY = 'workspace-tools/folder';

export function toCallToolResult(result: CallResult): CallToolResult {
  const links = (result.resources ?? []).map((resource) => ({ type: 'resource_link' as const, ...resource }));
  const parts = result.content ?? [{ type: 'text' as const, text: result.text }];
  return {
    content: [...(parts as CallToolResult['content']), ...links],
    // An error result keeps its structured value too: the problems a failed build reported (imported tasks).
    ...(result.structured === undefined ? {} : { structuredContent: result.structured }),
    isError: result.isError,
    // Every result names the folder it ran in; one with data has it there too (as workspaceFolder).
    ...(result.folder === undefined ? {} : { _meta: { [FOLDER_META_KEY]: result.folder } }),
  };
}
