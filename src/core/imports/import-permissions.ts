/**
 * What an `import` entry lets its tools do: their tags (the entry's `tags`, a task's own
 * `taskTags`, else DEFAULT_IMPORT_TAGS) and their sandbox's widening (`sandbox`, a task's own
 * `taskSandbox`), written onto each tool's spec, which plugins/build-tool.ts builds as it builds a
 * tool of the file: the tags choose the OS sandbox (sandbox/policy.ts) and the block widens it.
 * The entry is part of the plugin file, so its approval covers all of it.
 */
import type { ImportedTool } from './imported-tool';
import { DEFAULT_IMPORT_TAGS, type ImportPermissions } from './import-entry';

/** The tools with the entry's tags and sandbox block on their specs. */
export function withPermissions(tools: readonly ImportedTool[], entry: ImportPermissions): ImportedTool[] {
  return tools.map((tool) => {
    const tags = ownValue(entry.taskTags, tool.taskName) ?? entry.tags ?? DEFAULT_IMPORT_TAGS;
    const sandbox = ownValue(entry.taskSandbox, tool.taskName) ?? entry.sandbox;
    return { ...tool, spec: { ...tool.spec, tags, ...(sandbox === undefined ? {} : { sandbox }), ...(isBuildOrTest(tool.taskName) ? { task: { support: 'preferred' } } : {}) } };
  });
}

/**
 * Whether a task's name says it builds, tests or checks (`build`, `test:unit`, `npm: compile`,
 * `e2e`, `lint`, `typecheck`, `deploy`): the long runs, which run as MCP tasks wherever the
 * client supports them (`task.support` "preferred", src/mcp/tasks/serve-tasks.ts).
 */
export function isBuildOrTest(taskName: string): boolean {
  return /(^|[^a-z])(build|builds|test|tests|compile|check|typecheck|lint|e2e|ci|deploy|release|bundle|package)([^a-z]|$)/i.test(taskName);
}

/** The names `taskTags` and `taskSandbox` give, for the check that the source declares each. */
export function permissionNames(entry: ImportPermissions): string[] {
  return [...Object.keys(entry.taskTags ?? {}), ...Object.keys(entry.taskSandbox ?? {})];
}

/** `map[name]` when it is the map's own key (a task named "constructor" or "__proto__" reads nothing else). */
function ownValue<T>(map: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return map !== undefined && Object.hasOwn(map, name) ? map[name] : undefined;
}
