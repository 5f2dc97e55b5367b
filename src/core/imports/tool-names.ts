/**
 * Tool names for imported tasks, and the choice of which tasks become tools: a task's name
 * slugged to the plugin tool-name rule (`^[a-zA-Z0-9_-]{1,64}$`, schemas/tool-plugin.schema.json),
 * behind a prefix per source (`task-`, `npm-`, `make-`, `just-`), filtered by `include` and
 * `exclude`, and two tasks that end with the same name refused with both places named.
 */
import type { ImportedTool, ImportResult, NotServed, SourceLocation } from './imported-tool';
import type { ImportPermissions, ImportSelection } from './import-entry';
import { permissionNames, withPermissions } from './import-permissions';

/** The longest tool name (the plugin schema's rule). */
export const MAX_TOOL_NAME_LENGTH = 64;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The slug of a task name: lower case, every run of other characters one `-`, no `-` at the ends. */
export function slugOf(taskName: string): string {
  return taskName
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The tool name of a task, or why it cannot have one. */
export function toolNameOf(prefix: string, taskName: string): { readonly name: string } | { readonly reason: string } {
  const slug = slugOf(taskName);
  if (slug === '') {
    return { reason: `its name ${JSON.stringify(taskName)} has no letter or digit to make a tool name of` };
  }
  const name = `${prefix}${slug}`;
  if (!TOOL_NAME.test(name)) {
    return name.length > MAX_TOOL_NAME_LENGTH
      ? { reason: `the tool name "${name}" would be longer than ${MAX_TOOL_NAME_LENGTH} characters; exclude it, or give the source a shorter prefix` }
      : { reason: `the prefix ${JSON.stringify(prefix)} makes "${name}", which is not a tool name (letters, digits, '_' and '-')` };
  }
  return { name };
}

/** A result filtered by a selection; `unmatched` are the names `include` or `exclude` give that the source does not declare. */
export interface SelectedImports extends ImportResult {
  readonly unmatched: readonly string[];
}

/**
 * Keeps the tasks `selection` names (tools and not-served alike), every name in `notServed` when a
 * list names nothing, each tool with the tags and sandbox block the entry gives it
 * (import-permissions.ts). A name that `include`, `exclude`, `taskTags` or `taskSandbox` gives
 * and the source does not declare is `unmatched`.
 */
export function selectImports(result: ImportResult, selection: ImportSelection & ImportPermissions): SelectedImports {
  const declared = new Set([...result.tools.map((tool) => tool.taskName), ...result.notServed.map((entry) => entry.name)]);
  const wanted = (name: string): boolean =>
    (selection.include === undefined || selection.include.includes(name)) && !(selection.exclude ?? []).includes(name);
  const unmatched = [...(selection.include ?? []), ...(selection.exclude ?? []), ...permissionNames(selection)].filter((name) => !declared.has(name));
  return {
    tools: withPermissions(result.tools.filter((tool) => wanted(tool.taskName)), selection),
    notServed: result.notServed.filter((entry) => wanted(entry.name)),
    sources: result.sources,
    unmatched: [...new Set(unmatched)],
  };
}

/** `file:line:column`, as every message names a place. */
export function placeOf(source: SourceLocation): string {
  return `${source.file}:${source.line}:${source.column}`;
}

/**
 * The tools of several results together; a tool whose name an earlier one already has is not
 * served, and both places are named (as the registry does for two tools of one name).
 */
export function refuseCollisions(results: readonly ImportResult[]): ImportResult {
  const byName = new Map<string, ImportedTool>();
  const tools: ImportedTool[] = [];
  const notServed: NotServed[] = [];
  for (const tool of results.flatMap((result) => result.tools)) {
    const earlier = byName.get(tool.name);
    if (earlier === undefined) {
      byName.set(tool.name, tool);
      tools.push(tool);
      continue;
    }
    notServed.push({
      name: tool.taskName,
      reason: `its tool name "${tool.name}" is already the name of "${earlier.taskName}" (${placeOf(earlier.source)}); this one (${placeOf(tool.source)}) is not served: exclude one of them or give a source a prefix`,
      source: tool.source,
    });
  }
  return {
    tools,
    notServed: [...results.flatMap((result) => result.notServed), ...notServed],
    sources: results.flatMap((result) => result.sources),
  };
}
