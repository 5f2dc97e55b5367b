/**
 * A plugin file as loading leaves it: one value per file, built from its bytes and reused while
 * they are unchanged. Its tools are finished ToolDefinitions (handlers compiled); its text and
 * hash are what approval shows and keys on, so nobody reads or hashes the file again.
 */
import type { SourceFiles } from '../files/source-file';
import type { ImportSource } from '../imports';
import type { PluginResource } from '../resources/plugin-resource';
import type { PromptDefinition } from '../prompts';
import type { PluginDiagnostic, ToolDefinition, WorkspaceFolder } from '../types';

/** One workspace file a tool runs, as it was when the plugin file loaded. */
export interface ProgramFile {
  /** Relative to the workspace folder, with `/`. */
  readonly path: string;
  /** What approval keys on: `sha256 <hex>`, `absent`, or `unusable: <why>`. */
  readonly state: string;
  /** Its first lines (a text file), for the approval view. */
  readonly head?: readonly string[];
}

/** The hash approval records for `file`: what it runs, or its bytes when that is unknown. */
export function approvalHashOf(file: Pick<PluginFile, 'approvalHash' | 'contentHash'>): string {
  return file.approvalHash ?? file.contentHash;
}

/** A directory of plugin files (`.vscode/tools`) and the workspace folder its tools work in. */
export interface PluginDirectory {
  /** Absolute path of the directory; a missing directory simply has no plugin files. */
  readonly path: string;
  readonly folder: WorkspaceFolder;
}

/** One plugin file, loaded. A file never throws: its problems are diagnostics. */
export interface PluginFile {
  /** Absolute path of the file (as found in its directory; approval resolves symlinks). */
  readonly file: string;
  readonly folder: WorkspaceFolder;
  /** The file's `name`, or its base name without `.json`. */
  readonly pluginName: string;
  readonly version?: string;
  readonly description?: string;
  /** The text that was parsed (a BOM removed); empty when the file could not be read. */
  readonly text: string;
  /**
   * sha256 (hex) of the file's raw bytes, and of its code modules when it names any (see
   * pluginContentHash); empty when it could not be read (nothing to approve).
   */
  readonly contentHash: string;
  /**
   * What approval keys the file on: a hash of what it runs (approval-hash.ts), with its code
   * modules like `contentHash`. Absent when the file did not parse (it has no tools): then the
   * content hash stands in.
   */
  readonly approvalHash?: string;
  /** The source files (code modules) its tools name, as read with it; absent when there are none. */
  readonly sources?: SourceFiles;
  /** The files its `import` section read (relative to the folder), absent when it has none: approval covers them, watchers watch them. */
  readonly importSources?: readonly ImportSource[];
  /**
   * The workspace files its tools run besides its text (a program written as a path, a script an
   * interpreter is handed), as read after it loaded; absent when there are none. Its hashes
   * cover them (plugins/program-files.ts), watchers watch them.
   */
  readonly programFiles?: readonly ProgramFile[];
  /** The tools that loaded, in file order, ready to run. A bad tool is left out; its siblings load. */
  readonly tools: readonly ToolDefinition[];
  /** The resources that loaded (src/core/resources), in file order; absent when it has none. */
  readonly resources?: readonly PluginResource[];
  /** The prompts that loaded (`prompts`), in file order; absent when it has none. A bad prompt is left out. */
  readonly prompts?: readonly PromptDefinition[];
  /** Every problem found, in file order. */
  readonly diagnostics: readonly PluginDiagnostic[];
}
