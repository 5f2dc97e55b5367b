/** What a ToolRegistry is built from: each host (the extension, the server) fills it in. */
import type { PluginFile } from '../plugins/plugin-file';
import type { ExecutionLimits, Logger, ToolDefinition, WorkspaceFolder } from '../types';
import type { ApprovalPolicy } from '../approval/approval-policy';
import type { CallHistory } from '../history/history-file';
import type { Sandbox } from '../sandbox/sandbox';

/** Loads every plugin file from the directories the caller currently cares about. */
export type PluginLoader = () => Promise<readonly PluginFile[]>;

/** What a registry serves and runs with. */
export interface RegistryOptions {
  /** Built-in tools, registered first; empty for `--no-builtins`. */
  readonly builtins: readonly ToolDefinition[];
  /** Absent when plugins are off (`--no-plugins`, Restricted Mode). */
  readonly loadPlugins?: PluginLoader;
  readonly approval: ApprovalPolicy;
  /** The current workspace folders (read on every call: folders can change). */
  readonly folders: () => readonly WorkspaceFolder[];
  readonly limits: () => ExecutionLimits;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  readonly disabledTools?: Iterable<string>;
  /** Where each call is recorded, after its result was returned (none: not recorded). */
  readonly history?: CallHistory;
  /**
   * The OS sandbox shell and imported tools run in (none: they run as they are). Under
   * `required`, a load waits for its probe, and when it is unavailable those tools are not served.
   */
  readonly sandbox?: Sandbox;
}
