/**
 * What an importer gives for one source of declared tasks (tasks.json, package.json scripts, a
 * Makefile, a justfile): the tools it can serve, each as a plugin tool spec the loader already
 * knows how to build (a shell handler, or steps of shell handlers), the tasks it cannot serve
 * with the reason, and the files it read (their content is what approval must cover).
 */
import type { JsonObjectSchema } from '../types';
import type { PluginToolSpec } from '../plugins/plugin-types';
import type { ProblemMatcher } from './problem-matchers';

/** Where a task is declared: a file relative to the workspace folder, 1-based line and column. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * What runs, exactly, for a person to read: a program with its argv, or a command line given to
 * a shell (with its own argv), or steps run one after the other. `{{name}}` in an argv is where
 * a parameter's value goes, as one argument; a shell command line never contains a value: it
 * reads each one from an `INPUT_<NAME>` environment variable (`"$INPUT_NAME"`), so the text that
 * was approved is the text that runs.
 */
export type ImportedRun =
  | { readonly kind: 'process'; readonly argv: readonly string[]; readonly cwd?: string }
  | { readonly kind: 'shell'; readonly shell: readonly string[]; readonly commandLine: string; readonly cwd?: string }
  | { readonly kind: 'steps'; readonly steps: readonly { readonly name: string; readonly run: ImportedRun }[]; readonly note?: string };

/** One task served as a tool. */
export interface ImportedTool {
  /** The tool name: the prefix and the slugged default name (`task-build`, `npm-test`, ...). */
  readonly name: string;
  /** The task's own name in its source (a label, a script, a target, a recipe). */
  readonly taskName: string;
  readonly description: string;
  readonly inputSchema: JsonObjectSchema;
  readonly source: SourceLocation;
  readonly run: ImportedRun;
  /** The same, as a plugin tool the loader builds (plugins/build-tool.ts buildTool). */
  readonly spec: PluginToolSpec;
  /** Turns the task's output into problems (tasks.json `problemMatcher`). */
  readonly problemMatcher?: ProblemMatcher;
  /**
   * Workspace files its runner runs besides the task file (a script a package.json script or a
   * recipe line hands to an interpreter, a `script-shell`), relative to the folder with `/`: the
   * plugin file's approval covers them as it does a shell tool's program (plugins/program-files.ts).
   */
  readonly programFiles?: readonly string[];
  /** What decides what it runs but approval cannot cover (a computed include), in words. */
  readonly notCovered?: readonly string[];
  /**
   * What the task runs as its source writes it, for the person who approves it, where `run` only
   * names it: a package.json script's text (and its pre and post scripts'), a make target's recipe
   * (and its prerequisites'). Lines of text; a body line starts with `| `.
   */
  readonly body?: readonly string[];
}

/** A task that is declared but not served, and why. */
export interface NotServed {
  readonly name: string;
  readonly reason: string;
  readonly source: SourceLocation;
}

/** A file an importer read; its content decides what the tools run. */
export interface ImportSource {
  /** Relative to the workspace folder, with `/`. */
  readonly path: string;
  /** Its text; null when the file is absent (creating it would add tools). */
  readonly content: string | null;
  /** Only whether it exists matters (a lock file that picks the package manager): content is '' when it does. */
  readonly presenceOnly?: boolean;
}

/**
 * Everything one importer found. Two tasks may slug to one tool name here: importSection
 * (index.ts) refuses the later one once the entry's include/exclude has chosen, so excluding one
 * of the two serves the other.
 */
export interface ImportResult {
  readonly tools: readonly ImportedTool[];
  readonly notServed: readonly NotServed[];
  readonly sources: readonly ImportSource[];
}

/** The empty result (a source that is absent). */
export const NOTHING_IMPORTED: ImportResult = { tools: [], notServed: [], sources: [] };
