/**
 * What plugin loading hands to the registry and the tree: per file, the tools that passed every
 * check and the diagnostics of everything that did not.
 */
import type {
  JsonObjectSchema,
  PluginDiagnostic,
  ToolDefinition,
  ToolSource,
  ToolTag,
  WorkspaceFolder,
} from '../types';
import type { PluginToolSpec } from './plugin-types';

/** A directory of plugin files (`.vscode/tools`) and the workspace folder its tools work in. */
export interface PluginDirectory {
  /** Absolute path of the directory; a missing directory simply has no plugin files. */
  readonly path: string;
  readonly folder: WorkspaceFolder;
}

/** One tool that passed the schema and the semantic checks. */
export interface LoadedPluginTool {
  /** The tool as written in the file (after schema validation). */
  readonly spec: PluginToolSpec;
  /** Where the tool is defined: file, plugin name and the 1-based position of its object. */
  readonly source: Extract<ToolSource, { kind: 'plugin' }>;
  /** The effective input schema: the handler's fixed one, the file's, or an empty object schema. */
  readonly inputSchema: JsonObjectSchema;
  /** The effective tags: the file's, or the handler type's default (shell: execute, ...). */
  readonly tags: readonly ToolTag[];
  /** One line saying what runs (the handler's summary). */
  readonly handlerSummary: string;
  /** A fresh, runnable ToolDefinition bound to the plugin's workspace folder. */
  toToolDefinition(): ToolDefinition;
}

/** The outcome of loading one plugin file. A file never throws: problems become diagnostics. */
export interface LoadedPluginFile {
  /** Absolute path of the file. */
  readonly file: string;
  readonly folder: WorkspaceFolder;
  /** The file's `name`, or its base name without `.json`. */
  readonly pluginName: string;
  readonly version?: string;
  readonly description?: string;
  /**
   * sha256 (hex) of the file's raw bytes: what the approval store keys on. Empty when the file
   * could not be read (it then has no tools, so there is nothing to approve).
   */
  readonly contentHash: string;
  /** The tools that loaded, in file order. A bad tool is left out; its siblings still load. */
  readonly tools: readonly LoadedPluginTool[];
  /** Every problem found, in file order. */
  readonly diagnostics: readonly PluginDiagnostic[];
}
