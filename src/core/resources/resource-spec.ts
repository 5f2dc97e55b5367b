/**
 * The `resources` section of a plugin file as it is after schema validation
 * (schemas/tool-plugin.schema.json is the authority; these types mirror it).
 */

/** How a client completes a template variable: the values it may take, or where they come from. */
export type VariableCompletion = { readonly files: string } | { readonly command: readonly string[] };

/** One `{var}` of a `uriTemplate`, described like a prompt argument. */
export interface ResourceVariableSpec {
  readonly description?: string;
  /** The only values the variable takes (a read with another value is refused). */
  readonly enum?: readonly string[];
  /** Where completions come from (completion/complete). */
  readonly complete?: VariableCompletion;
}

/** One entry of `resources`: exactly one of `file`, `files` or `command`. */
export interface PluginResourceSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** The resource's URI; default: workspace-tools://file/... for a file, workspace-tools://resource/... for a command. */
  readonly uri?: string;
  /** An RFC 6570 level 1 template (`{var}`): the resource is a template, read for each URI it matches. */
  readonly uriTemplate?: string;
  readonly variables?: Readonly<Record<string, ResourceVariableSpec>>;
  /** A workspace file (relative to the folder); with a `uriTemplate` it may name `{{var}}`. */
  readonly file?: string;
  /** A glob of workspace files: one resource each. */
  readonly files?: string;
  /** A program and its arguments (no shell); with a `uriTemplate` they may name `{{var}}`. */
  readonly command?: readonly string[];
  /** Command resources: milliseconds before the program is stopped. */
  readonly timeout?: number;
  /** Largest content served, in bytes (a file's size, a command's output). */
  readonly maxSize?: number;
}
