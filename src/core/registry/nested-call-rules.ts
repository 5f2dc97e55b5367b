/**
 * What a tool called by another tool (callTool, a `tool` step, an alias) may not do, whatever the
 * budget of its top-level call (call-budget.ts): go deeper than MAX_CALL_DEPTH, or do what its
 * caller's tags do not allow.
 */
import type { ToolDefinition, ToolTag } from '../types';
import { isReadOnly } from '../types';

/** How deep tools may call tools: deeper is a loop that load-time checks could not see. */
const MAX_CALL_DEPTH = 8;

/** What an untagged tool may do: anything (it is confirmed like a tool with every tag). */
const EVERY_TAG: readonly ToolTag[] = ['read', 'write', 'execute', 'network'];

/**
 * Why a tool called by other tools may not run: too deep, or it needs a tag its caller does not
 * have. A caller's tags bound what it reaches: the user allowed (or was asked about) what its tags
 * say, so through another tool it may read, and do nothing its own tags do not name. A read-only
 * tool, which runs without asking, reaches only read-only tools; a tool without `execute` no tool
 * that starts programs. An untagged tool counts as having every tag.
 */
export function nestedCallRefusal(callee: ToolDefinition, callers: readonly ToolDefinition[]): string | undefined {
  const caller = callers[callers.length - 1];
  if (caller === undefined) {
    return undefined;
  }
  if (callers.length >= MAX_CALL_DEPTH) {
    return `tools called each other ${MAX_CALL_DEPTH} deep (${[...callers, callee].map((tool) => tool.name).join(' → ')}); that is a loop or too deep`;
  }
  const tagsOf = (tool: ToolDefinition): readonly ToolTag[] => (tool.tags.length === 0 ? EVERY_TAG : tool.tags);
  const missing = tagsOf(callee).filter((tag) => tag !== 'read' && !tagsOf(caller).includes(tag));
  if (missing.length === 0) {
    return undefined;
  }
  const calleeTags = callee.tags.join(', ') || 'none, so it may do anything';
  if (isReadOnly(caller.tags)) {
    return `the read-only tool "${caller.name}" cannot call "${callee.name}", which is not read-only (tags: ${calleeTags}): it ran without asking the user`;
  }
  return (
    `"${caller.name}" (tags: ${caller.tags.join(', ')}) cannot call "${callee.name}" (tags: ${calleeTags}): ` +
    `a tool reaches through other tools only what its own tags allow, and it is not tagged ${missing.map((tag) => `"${tag}"`).join(' or ')}`
  );
}
