/**
 * What a plugin file's `import` section says, as types (and the default tags): the plugin file's
 * types name it (plugins/plugin-types.ts) and the importers read it, so it sits below both and
 * imports nothing of either (only the vocabulary, types.ts); an import circle through the two
 * folders' index modules is not possible.
 */
import type { DeclaredSandbox, ToolTag } from '../types';

/** The sources an `import` entry can name. */
export const IMPORT_SOURCES = ['tasks', 'npm-scripts', 'make', 'just'] as const;
export type ImportFrom = (typeof IMPORT_SOURCES)[number];

/** Which tasks of one source to serve, and under which prefix. */
export interface ImportSelection {
  /** Only these task names (as the source writes them); default every task. */
  readonly include?: readonly string[];
  /** Never these task names. */
  readonly exclude?: readonly string[];
  /** Replaces the source's default prefix (`task-`, `npm-`, `make-`, `just-`); may be empty. */
  readonly prefix?: string;
}

/**
 * The tags an imported tool has when its entry sets none: what a build or a test needs (it runs
 * programs and writes inside the workspace folder: `dist/`, caches, coverage), and no network, so
 * an install or a publish says it needs `network` (`taskTags`). The tags choose its OS sandbox.
 */
export const DEFAULT_IMPORT_TAGS: readonly ToolTag[] = ['execute', 'write'];

/** What the entry's tools may do: their tags (so their OS sandbox) and their sandbox's widening, for all of them and per task. */
export interface ImportPermissions {
  /** The tags of every tool of the entry; default DEFAULT_IMPORT_TAGS. */
  readonly tags?: readonly ToolTag[];
  /** Tags of single tasks, by task name; each replaces `tags` for its task. */
  readonly taskTags?: Readonly<Record<string, readonly ToolTag[]>>;
  /** A sandbox block for every tool of the entry. */
  readonly sandbox?: DeclaredSandbox;
  /** Sandbox blocks of single tasks, by task name; each replaces `sandbox` for its task. */
  readonly taskSandbox?: Readonly<Record<string, DeclaredSandbox>>;
}

/** One entry of the `import` section. */
export interface ImportEntry extends ImportSelection, ImportPermissions {
  readonly from: ImportFrom;
}
