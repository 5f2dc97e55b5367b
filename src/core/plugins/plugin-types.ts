/**
 * The plugin file format as it is after schema validation (schemas/tool-plugin.schema.json is
 * the authority; these types mirror it). Each handler type owns its spec (src/core/handlers).
 */
import type { HandlerSpec } from '../handlers';
import type { JsonObjectSchema, ToolTag } from '../types';

/** One entry of `tools`. */
export interface PluginToolSpec {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema?: JsonObjectSchema;
  readonly tags?: readonly ToolTag[];
  readonly handler: HandlerSpec;
}

/** A whole plugin file. */
export interface PluginFileSpec {
  readonly $schema?: string;
  readonly name?: string;
  readonly version?: string;
  readonly description?: string;
  readonly tools: readonly PluginToolSpec[];
}
