import type { ToolTag } from '../core/types';

/** MCP tool annotations (hints for clients deciding whether to confirm a call). */
export interface ToolAnnotationHints {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly openWorldHint: boolean;
}

/**
 * Maps our tags to MCP hints. A tool is read-only only when every tag is `read` (no tags at
 * all is not read-only: untagged tools are confirmed). `write` and `execute` may destroy;
 * `network` reaches outside the workspace.
 */
export function annotationsFor(tags: readonly ToolTag[]): ToolAnnotationHints {
  const readOnly = tags.length > 0 && tags.every((tag) => tag === 'read');
  return {
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && (tags.includes('write') || tags.includes('execute') || tags.length === 0),
    openWorldHint: tags.includes('network'),
  };
}
