/**
 * The importers of declared tasks, behind one entry point for the plugin file's `import`
 * section: each entry names a source (`from`) and optionally which of its tasks (`include`,
 * `exclude`) under which name prefix; the tools of every entry together, a name taken twice
 * refused with both places named.
 */
import type { ImportResult } from './imported-tool';
import type { ImportOptions } from './import-options';
import { importJustRecipes } from './import-just';
import { importMakeTargets } from './import-make';
import { importNpmScripts } from './import-npm';
import { importVsCodeTasks } from './import-tasks';
import { refuseCollisions, selectImports } from './tool-names';
import type { ImportEntry } from './import-entry';

export type { ImportedRun, ImportedTool, ImportResult, ImportSource, NotServed, SourceLocation } from './imported-tool';
export type { ImportOptions } from './import-options';
export type { MatchedProblem, ProblemMatcher } from './problem-matchers';
export type { ImportSelection } from './import-entry';

export { IMPORT_SOURCES } from './import-entry';
export type { ImportEntry, ImportFrom } from './import-entry';

/** What importing the whole section found; `unmatched` are include/exclude names, by entry index, that their source does not declare. */
export interface ImportedSection extends ImportResult {
  readonly unmatched: ReadonlyArray<{ readonly entry: number; readonly names: readonly string[] }>;
}

/** Everything the importers need; `justProgram` pins the just to run (default `just` on PATH). */
export interface SectionOptions extends Omit<ImportOptions, 'prefix'> {
  readonly justProgram?: string;
  /** Restricted Mode: list nothing that needs a program to run (just's recipes). */
  readonly runsNoPrograms?: boolean;
}

/** Imports one source. */
export function importFrom(entry: ImportEntry, options: SectionOptions): Promise<ImportResult> {
  const withPrefix = { ...options, ...(entry.prefix === undefined ? {} : { prefix: entry.prefix }) };
  switch (entry.from) {
    case 'tasks':
      return importVsCodeTasks(withPrefix);
    case 'npm-scripts':
      return importNpmScripts(withPrefix);
    case 'make':
      return importMakeTargets(withPrefix);
    case 'just':
      return importJustRecipes(withPrefix);
  }
}

/** Imports every entry, keeps what each selects, and refuses a tool name taken twice across them. */
export async function importSection(entries: readonly ImportEntry[], options: SectionOptions): Promise<ImportedSection> {
  const selected = await Promise.all(entries.map(async (entry) => selectImports(await importFrom(entry, options), entry)));
  const combined = refuseCollisions(selected);
  return {
    ...combined,
    // One source named by two entries is one source to approve.
    sources: combined.sources.filter((source, index, all) => all.findIndex((other) => other.path === source.path) === index),
    unmatched: selected.flatMap((result, entry) => (result.unmatched.length > 0 ? [{ entry, names: result.unmatched }] : [])),
  };
}
