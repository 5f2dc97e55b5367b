/**
 * What the schema cannot check about one tool (the handler's own rules, a fixed input schema
 * declared twice), and the runnable tool built from a spec that passed.
 */
import { handlerStrategy } from '../handlers';
import type { HandlerProblem } from '../handlers/handler-types';
import type { JsonObjectSchema, ToolDefinition, ToolSource, ToolTag, WorkspaceFolder } from '../types';
import type { LoadedPluginTool } from './loaded-plugin';
import type { HandlerSpec, PluginToolSpec } from './plugin-types';

/** The input schema of a tool that declares none: no parameters. */
const NO_PARAMETERS: JsonObjectSchema = { type: 'object', properties: {} };

/** Tags of a tool that declares none, by what its handler can do. */
const DEFAULT_TAGS: Readonly<Record<HandlerSpec['type'], readonly ToolTag[]>> = {
  shell: ['execute'],
  http: ['network'],
  'file-read': ['read'],
};

/** A schema-valid tool after the semantic checks: its problems (paths relative to the tool). */
export interface CheckedTool {
  readonly problems: readonly HandlerProblem[];
  readonly inputSchema: JsonObjectSchema;
}

/**
 * Runs the checks the JSON Schema cannot express. A handler's `check` is other code that may
 * have a bug: if it throws, that becomes a problem of this tool, not a failed load of the file.
 */
export function checkTool(spec: PluginToolSpec): CheckedTool {
  const strategy = handlerStrategy(spec.handler);
  const fixed = strategy.fixedInputSchema;
  const problems: HandlerProblem[] = [];
  if (fixed !== undefined && spec.inputSchema !== undefined) {
    const names = Object.keys(fixed.properties ?? {}).join(', ');
    problems.push({
      path: ['inputSchema'],
      message: `a ${spec.handler.type} tool has a fixed input (${names}); remove "inputSchema"`,
    });
  }
  const inputSchema = fixed ?? spec.inputSchema ?? NO_PARAMETERS;
  try {
    problems.push(...strategy.check(spec.handler, inputSchema));
  } catch (error) {
    problems.push({ path: ['handler'], message: `the ${spec.handler.type} handler check failed: ${String(error)}` });
  }
  return { problems, inputSchema };
}

/** Builds the loaded form of a tool that passed every check. */
export function loadedTool(
  spec: PluginToolSpec,
  inputSchema: JsonObjectSchema,
  source: Extract<ToolSource, { kind: 'plugin' }>,
  folder: WorkspaceFolder,
): LoadedPluginTool {
  const strategy = handlerStrategy(spec.handler);
  const tags = spec.tags ?? DEFAULT_TAGS[spec.handler.type];
  const handlerSummary = summarize(spec.handler);
  return {
    spec,
    source,
    inputSchema,
    tags,
    handlerSummary,
    toToolDefinition(): ToolDefinition {
      const run = strategy.create(spec.handler, { toolName: spec.name, inputSchema, folder });
      return { name: spec.name, title: spec.title, description: spec.description, inputSchema, tags, source, handlerSummary, run };
    },
  };
}

/** The handler's one-line summary; a throwing summarize must not cost the tool. */
function summarize(spec: HandlerSpec): string {
  try {
    return handlerStrategy(spec).summarize(spec);
  } catch {
    return spec.type;
  }
}
