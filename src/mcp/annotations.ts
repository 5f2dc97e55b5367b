import type { ToolTag } from '../core/types';
import { isReadOnly } from '../core/types';

/**
 * MCP tool annotations (hints for clients deciding whether to confirm a call), holding only the
 * hints that say something: a hint absent means the spec's default (readOnlyHint false,
 * destructiveHint true, openWorldHint true).
 */
export interface ToolAnnotationHints {
  readonly readOnlyHint?: true;
  readonly destructiveHint?: false;
  readonly openWorldHint?: false;
}

/**
 * Maps our tags to MCP hints. A tool is read-only only when every tag is `read` (no tags at
 * all is not read-only: untagged tools are confirmed). `write` and `execute` may destroy;
 * `network` reaches outside the workspace.
 *
 * A hint equal to its default is left out, and so is destructiveHint on a read-only tool (the
 * spec gives it meaning only when readOnlyHint is false): with 1,000 tools in `tools/list`
 * that is ~25 KB less for every client to parse, and nothing a client can read differently.
 */
export function annotationsFor(tags: readonly ToolTag[]): ToolAnnotationHints {
  const readOnly = isReadOnly(tags);
  const destructive = !readOnly && (tags.includes('write') || tags.includes('execute') || tags.length === 0);
  const openWorld = tags.includes('network');
  return {
    ...(readOnly ? { readOnlyHint: true } : {}),
    ...(readOnly || destructive ? {} : { destructiveHint: false }),
    ...(openWorld ? {} : { openWorldHint: false }),
  };
}
