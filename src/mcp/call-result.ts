/**
 * A registry result as an MCP `CallToolResult`: its content parts when it has them (images,
 * audio, embedded resources, links), else its text; a link to each large output kept whole; the
 * structured value, when it has one (a failed build's problems too).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CallResult } from '../core/registry/call-pipeline';

export function toCallToolResult(result: CallResult): CallToolResult {
  const links = (result.resources ?? []).map((resource) => ({ type: 'resource_link' as const, ...resource }));
  const parts = result.content ?? [{ type: 'text' as const, text: result.text }];
  return {
    content: [...(parts as CallToolResult['content']), ...links],
    // An error result keeps its structured value too: the problems a failed build reported (imported tasks).
    ...(result.structured === undefined ? {} : { structuredContent: result.structured }),
    isError: result.isError,
  };
}
