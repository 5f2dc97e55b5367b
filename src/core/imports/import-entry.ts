/**
 * What a plugin file's `import` section says, as types only: the plugin file's types name it
 * (plugins/plugin-types.ts) and the importers read it, so it sits below both and imports nothing
 * of either; an import circle through the two folders' index modules is not possible.
 */

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

/** One entry of the `import` section. */
export interface ImportEntry extends ImportSelection {
  readonly from: ImportFrom;
}
