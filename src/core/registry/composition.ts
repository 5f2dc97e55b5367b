/**
 * Tools that use other tools by name (`tool` steps, aliases) are checked once every tool is known:
 * a name that no tool has, or tools that call each other in a cycle, refuse the tools concerned
 * with a diagnostic at the reference's line:column; aliases are resolved against their base.
 */
import type { JsonObjectSchema, JsonSchema, PluginDiagnostic, ToolDefinition, ToolReference } from '../types';

/** What the check gives: aliases resolved, and the tools refused with why. */
export interface Composition {
  readonly resolved: ReadonlyMap<ToolDefinition, ToolDefinition>;
  readonly refused: ReadonlyMap<ToolDefinition, PluginDiagnostic>;
}

/** Checks the references of `tools` (unique names, registration order) and resolves aliases. */
export function checkComposition(tools: readonly ToolDefinition[]): Composition {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const refused = new Map<ToolDefinition, PluginDiagnostic>();
  refuseUnknownReferences(tools, byName, refused);
  refuseCycles(tools, byName, refused);
  const resolved = new Map<ToolDefinition, ToolDefinition>();
  for (const tool of tools) {
    if (tool.aliasOf !== undefined && !refused.has(tool)) {
      resolveAlias(tool, byName, resolved, refused);
    }
  }
  return { resolved, refused };
}

/** Until nothing changes: a reference to a missing or refused tool refuses the tool that makes it. */
function refuseUnknownReferences(tools: readonly ToolDefinition[], byName: ReadonlyMap<string, ToolDefinition>, refused: Map<ToolDefinition, PluginDiagnostic>): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const tool of tools) {
      if (refused.has(tool)) {
        continue;
      }
      const bad = (tool.calls ?? []).find((reference) => {
        const target = byName.get(reference.tool);
        return target === undefined || refused.has(target);
      });
      if (bad !== undefined) {
        const why = byName.has(bad.tool) ? `"${bad.tool}", which does not load (see its problem)` : `"${bad.tool}", but no tool has that name (built-in or plugin)`;
        refused.set(tool, diagnostic(tool, bad, `${tool.aliasOf === undefined ? 'calls' : 'is an alias of'} ${why}; this tool is not loaded`));
        changed = true;
      }
    }
  }
}

/** Tools that reach themselves through their references are refused, each naming the cycle. */
function refuseCycles(tools: readonly ToolDefinition[], byName: ReadonlyMap<string, ToolDefinition>, refused: Map<ToolDefinition, PluginDiagnostic>): void {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: ToolDefinition[] = [];
  const visit = (tool: ToolDefinition): void => {
    state.set(tool.name, 'visiting');
    path.push(tool);
    for (const reference of tool.calls ?? []) {
      const target = byName.get(reference.tool);
      if (target === undefined || refused.has(target)) {
        continue;
      }
      if (state.get(target.name) === 'visiting') {
        const cycle = path.slice(path.indexOf(target));
        const names = [...cycle, target].map((member) => member.name).join(' → ');
        for (const member of cycle) {
          const at = member.calls?.find((call) => cycle.some((other) => other.name === call.tool)) ?? reference;
          refused.set(member, diagnostic(member, at, `tools call each other in a cycle (${names}); none of them is loaded`));
        }
      } else if (state.get(target.name) === undefined) {
        visit(target);
      }
    }
    path.pop();
    state.set(tool.name, 'done');
  };
  for (const tool of tools) {
    if (state.get(tool.name) === undefined && !refused.has(tool)) {
      visit(tool);
    }
  }
}

/**
 * An alias becomes its base with other defaults: the base's input schema with each default set
 * (and no longer required), the base's tags unless the alias sets its own, and a run that calls
 * the base through the registry (so its approval and read-only rules apply).
 */
function resolveAlias(
  alias: ToolDefinition,
  byName: ReadonlyMap<string, ToolDefinition>,
  resolved: Map<ToolDefinition, ToolDefinition>,
  refused: Map<ToolDefinition, PluginDiagnostic>,
): ToolDefinition | undefined {
  const of = alias.aliasOf;
  const known = resolved.get(alias);
  if (of === undefined || known !== undefined) {
    return known ?? alias;
  }
  const rawBase = byName.get(of.base);
  const base = rawBase === undefined ? undefined : rawBase.aliasOf === undefined ? rawBase : resolveAlias(rawBase, byName, resolved, refused);
  if (base === undefined) {
    return undefined;
  }
  const properties = base.inputSchema.properties ?? {};
  const unknown = Object.keys(of.defaults).filter((key) => !(key in properties));
  if (unknown.length > 0) {
    refused.set(alias, diagnostic(alias, { tool: of.base, line: of.line, column: of.column }, `"defaults" names ${unknown.map((key) => `"${key}"`).join(', ')}, which ${unknown.length === 1 ? 'is not an input property' : 'are not input properties'} of "${base.name}" (it has: ${Object.keys(properties).join(', ') || 'none'})`));
    return undefined;
  }
  const result: ToolDefinition = {
    ...alias,
    inputSchema: withDefaults(base.inputSchema, of.defaults),
    ...(base.outputSchema === undefined ? {} : { outputSchema: base.outputSchema }),
    tags: alias.tags.length > 0 ? alias.tags : base.tags,
    handlerSummary: `alias of ${base.name}: ${base.handlerSummary}`,
    run: (input, context) => {
      if (context.callTool === undefined) {
        return Promise.reject(new Error(`the alias of "${base.name}" cannot call it here`));
      }
      return context.callTool(base.name, input);
    },
  };
  resolved.set(alias, result);
  return result;
}

/** The schema with new defaults; a property with a default is no longer required. */
export function withDefaults(schema: JsonObjectSchema, defaults: Readonly<Record<string, unknown>>): JsonObjectSchema {
  const properties: Record<string, JsonSchema> = { ...(schema.properties ?? {}) };
  for (const [key, value] of Object.entries(defaults)) {
    const property = properties[key];
    properties[key] = typeof property === 'object' ? { ...property, default: value } : { default: value };
  }
  const required = (schema.required ?? []).filter((key) => !(key in defaults));
  return { ...schema, properties, ...(schema.required === undefined ? {} : { required }) };
}

function diagnostic(tool: ToolDefinition, at: ToolReference, message: string): PluginDiagnostic {
  const file = tool.source.kind === 'plugin' ? tool.source.file : '';
  return { file, tool: tool.name, line: at.line, column: at.column, message };
}
