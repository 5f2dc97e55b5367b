/**
 * One tool of a plugin file, from its schema-valid spec to a ToolDefinition: the handler compiled
 * once against the tool's input schema and folder, or the problems that keep it from loading.
 */
import { handlerTypeOf } from '../handlers';
import type { HandlerProblem } from '../handlers/handler';
import { hasProblems } from '../handlers/handler';
import type { JsonObjectSchema, ToolDefinition, ToolSource, WorkspaceFolder } from '../types';
import type { PluginToolSpec } from './plugin-types';

/** The input schema of a tool that declares none: no parameters. */
const NO_PARAMETERS: JsonObjectSchema = { type: 'object', properties: {} };

/** A built tool, or its problems (paths relative to the tool object). */
export type BuiltTool = { readonly tool: ToolDefinition } | { readonly problems: readonly HandlerProblem[] };

/**
 * Builds a tool that passed the schema. A handler's compile is other code that may have a bug:
 * if it throws, that becomes a problem of this tool, not a failed load of the file.
 */
export function buildTool(spec: PluginToolSpec, source: Extract<ToolSource, { kind: 'plugin' }>, folder: WorkspaceFolder): BuiltTool {
  const type = handlerTypeOf(spec.handler);
  const fixed = type.fixedInputSchema;
  if (fixed !== undefined && spec.inputSchema !== undefined) {
    const names = Object.keys(fixed.properties ?? {}).join(', ');
    return { problems: [{ path: ['inputSchema'], message: `a ${spec.handler.type} tool has a fixed input (${names}); remove "inputSchema"` }] };
  }
  const inputSchema = fixed ?? spec.inputSchema ?? NO_PARAMETERS;
  let compiled;
  try {
    compiled = type.compile(spec.handler, { toolName: spec.name, inputSchema, folder });
  } catch (error) {
    return { problems: [{ path: ['handler'], message: `the ${spec.handler.type} handler could not be compiled: ${String(error)}` }] };
  }
  if (hasProblems(compiled)) {
    return compiled;
  }
  return {
    tool: {
      name: spec.name,
      ...(spec.title === undefined ? {} : { title: spec.title }),
      description: spec.description,
      inputSchema,
      tags: spec.tags ?? type.defaultTags,
      source,
      handlerSummary: compiled.summary,
      approvalLines: compiled.approvalLines,
      run: compiled.run,
    },
  };
}
