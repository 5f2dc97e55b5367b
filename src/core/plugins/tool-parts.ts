/**
 * What every kind of plugin tool is built from, shared by build-tool.ts (handlers, aliases) and
 * build-steps.ts (steps tools), so neither imports the other.
 */
import type { SourceFiles } from '../files/source-file';
import type { HandlerProblem, HandlerTarget } from '../handlers/handler';
import type { FilePosition, JsonObjectSchema, ToolDefinition, ToolSource, ToolTag, WorkspaceFolder } from '../types';
import type { PluginToolSpec } from './plugin-types';

/** The input schema of a tool that declares none: no parameters. */
export const NO_PARAMETERS: JsonObjectSchema = { type: 'object', properties: {} };

/** A built tool, or its problems (paths relative to the tool object). */
export type BuiltTool = { readonly tool: ToolDefinition } | { readonly problems: readonly HandlerProblem[] };

/** What building needs besides the spec: where the tool is, its folder, and positions inside it. */
export interface BuildContext {
  readonly source: Extract<ToolSource, { kind: 'plugin' }>;
  readonly folder: WorkspaceFolder;
  /** The source files (code modules) the plugin file names, read with it. */
  readonly sources?: SourceFiles;
  /** The 1-based position of a JSON path relative to the tool object. */
  locate(path: readonly (string | number)[]): FilePosition;
}

/** What a handler of the tool `spec` (or of one of its steps, `toolName`) is compiled for. */
export function handlerTarget(toolName: string, inputSchema: JsonObjectSchema, spec: PluginToolSpec, context: BuildContext): HandlerTarget {
  return {
    toolName,
    inputSchema,
    folder: context.folder,
    ...(spec.tags === undefined ? {} : { tags: spec.tags }),
    ...(spec.sandbox === undefined ? {} : { sandbox: spec.sandbox }),
    ...(context.sources === undefined ? {} : { sources: context.sources }),
    ...(spec.output?.mimeType !== undefined && (spec.output.format === 'image' || spec.output.format === 'audio') ? { mediaOutput: { kind: spec.output.format, mimeType: spec.output.mimeType } } : {}),
  };
}

/** `tags` with `implied` added (in that order), without repeats. */
export function withTags(tags: readonly ToolTag[], implied: readonly ToolTag[] | undefined): readonly ToolTag[] {
  return implied === undefined || implied.every((tag) => tags.includes(tag)) ? tags : [...new Set([...tags, ...implied])];
}

/** What every kind of tool takes from its spec as it is: name, title, description, where it is. */
export function identityOf(spec: PluginToolSpec, context: BuildContext): Pick<ToolDefinition, 'name' | 'title' | 'description' | 'source' | 'task'> {
  return {
    name: spec.name,
    ...(spec.title === undefined ? {} : { title: spec.title }),
    description: spec.description ?? '',
    source: context.source,
    // How it runs as an MCP task (the MCP door, tasks/serve-tasks.ts; the call pipeline's task timeout).
    ...(spec.task === undefined ? {} : { task: { support: spec.task.support ?? 'optional', ...(spec.task.timeout === undefined ? {} : { timeoutMs: spec.task.timeout }) } }),
  };
}

