/**
 * The `import` section of a plugin file: the tasks a workspace already declares (tasks.json,
 * package.json scripts, a Makefile, a justfile) as tools of the file. Reading the sources is I/O
 * (readPluginImports, called beside the file's bytes, as readPluginSources is for code modules);
 * turning what was read into tools and diagnostics is pure (loadImportedTools, called by the
 * loader). What the sources hold is part of what the file's approval covers (importsHashPart).
 */
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { importSection, IMPORT_SOURCES, type ImportedSection, type ImportedTool, type ImportEntry, type ImportFrom, type ImportSource } from '../imports';
import { TASKS_FILE } from '../imports/import-tasks';
import { PACKAGE_FILE } from '../imports/import-npm';
import { MAKEFILE_NAMES } from '../imports/import-make';
import { JUSTFILE_NAMES } from '../imports/import-just';
import { matchProblemsInTurns, withProblems } from '../imports/match-problems';
import { readImportSource } from '../imports/import-source';
import type { ShimFiles } from '../platform/batch-shim';
import { hostPlatform, type Platform } from '../platform/platform';
import { StaleToolError } from '../tool-errors';
import type { Pausable } from '../turns';
import type { DeclaredSandbox, ToolDefinition, ToolResult, WorkspaceFolder } from '../types';
import { buildingTool } from './build-tool';
import type { FileContext } from './file-context';
import { parseJsonc } from './parse-jsonc';
import type { SchemaProblem } from './schema-validation';
import { validatePluginFile } from './schema-validation';
import { sandboxBlockProblems } from './declared-sandbox';

/** The host values importing reads: `${env:X}` and program look-up, the platform's rules, which just. */
export interface ImportHost {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform?: Platform;
  readonly home?: string;
  readonly justProgram?: string;
  /** How programs are looked at on disk (default the real file system). */
  readonly files?: ShimFiles;
  /** Restricted Mode: list nothing that needs a program to run (just's recipes). */
  readonly runsNoPrograms?: boolean;
}

/** What the `import` section of one plugin file read: the section's result, and which entry of the file each imported entry is. */
export interface PluginImports {
  readonly section: ImportedSection;
  /** For each entry given to importSection, its index in the file's `import` array. */
  readonly entryIndexes: readonly number[];
  /** Why the section could not be imported at all (a bug of ours), if it could not. */
  readonly failure?: string;
}

/** The file's `import` array, or undefined when it has none. */
function importArrayOf(value: unknown): readonly unknown[] | undefined {
  const section = (value as { import?: unknown } | null)?.import;
  return Array.isArray(section) ? section : undefined;
}

/** An entry the schema accepts, checked by the schema itself (an invalid one is reported by the loader and imports nothing). */
function isValidEntry(entry: unknown): entry is ImportEntry {
  return validatePluginFile({ import: [entry] }).length === 0;
}

/**
 * Reads the sources the plugin file's `import` section names (the I/O half). Undefined when the
 * file has no `import` section. Nothing of the workspace runs here (see src/core/imports).
 */
export async function readPluginImports(text: string, folder: WorkspaceFolder, host: ImportHost): Promise<PluginImports | undefined> {
  // Most plugin files import nothing: no second parse for them.
  if (!text.includes('"import"')) {
    return undefined;
  }
  const parsed = parseJsonc(text.replace(/^\uFEFF/, ''));
  const entries = parsed.ok ? importArrayOf(parsed.value) : undefined;
  if (entries === undefined) {
    return undefined;
  }
  const valid = entries.flatMap((entry, index) => (isValidEntry(entry) ? [{ entry, index }] : []));
  const options = {
    folder,
    platform: host.platform ?? hostPlatform(),
    env: host.env,
    ...(host.home === undefined ? {} : { home: host.home }),
    ...(host.justProgram === undefined ? {} : { justProgram: host.justProgram }),
    ...(host.files === undefined ? {} : { files: host.files }),
    ...(host.runsNoPrograms === true ? { runsNoPrograms: true } : {}),
  };
  const entryIndexes = valid.map((item) => item.index);
  try {
    return { section: await importSection(valid.map((item) => item.entry), options), entryIndexes };
  } catch (error) {
    return { section: { tools: [], notServed: [], sources: [], unmatched: [] }, entryIndexes, failure: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * What the approval and content hashes of a file with an `import` section take in besides the
 * file: each source read, by path, with its content (or that it is absent, or only present).
 */
export function importsHashPart(imports: PluginImports | undefined): string {
  if (imports === undefined) {
    return '';
  }
  const sources = [...imports.section.sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return JSON.stringify(sources.map((source) => [source.path, source.content === null ? null : source.presenceOnly === true ? 'present' : source.content]));
}

/** Takes a schema problem inside `import[N]` into `problems` (by N); false for any other. */
export function setAsideImportProblem(problem: SchemaProblem, problems: Map<number, SchemaProblem[]>): boolean {
  const [section, index] = problem.path;
  if (section !== 'import' || typeof index !== 'number') {
    return false;
  }
  problems.set(index, [...(problems.get(index) ?? []), problem]);
  return true;
}

/** What the imported tools of a file share with its other tools. */
export interface ImportScope {
  readonly folder: WorkspaceFolder;
  readonly pluginName: string;
  /** The file's own tools (`tools`): an imported tool may not take one of their names. */
  readonly tools: readonly ToolDefinition[];
  /** False when a problem of the whole file keeps all its tools from loading: only the entries' own problems are reported. */
  readonly serve: boolean;
}

/**
 * The imported tools of one file, each built as a tool of the file is, and a diagnostic for each
 * task not served (at its place in the source file), each include/exclude name its source does
 * not declare (at that name), each schema problem of an entry, and each imported name that a
 * tool of the file already has (naming both places).
 */
export function* loadImportedTools(
  context: FileContext,
  value: unknown,
  scope: ImportScope,
  imports: PluginImports | undefined,
  schemaProblems: ReadonlyMap<number, readonly SchemaProblem[]>,
): Pausable<ToolDefinition[]> {
  const entries = importArrayOf(value);
  if (entries === undefined) {
    return [];
  }
  for (const [index, problems] of schemaProblems) {
    for (const problem of problems) {
      context.report(`import[${index}]`, problem.path, problem.message, { ...(problem.key === undefined ? {} : { key: problem.key }), rule: problem.keyword });
    }
  }
  if (!scope.serve) {
    return [];
  }
  if (imports === undefined || imports.failure !== undefined) {
    const why = imports?.failure === undefined ? 'its sources were not read with the file' : imports.failure;
    context.report(undefined, ['import'], `the import section could not be loaded (${why}); it serves no tools`);
    return [];
  }
  const { section, entryIndexes } = imports;
  reportNotServed(context, scope.folder, section);
  for (const { entry, names } of section.unmatched) {
    const index = entryIndexes[entry] ?? 0;
    for (const name of names) {
      context.report(`import[${index}]`, placeOfName(entries[index], index, name), `"${name}" is not declared by ${sourceWords(entries[index])}; it selects nothing`);
    }
  }
  const badBlocks = reportSandboxBlocks(context, entries, entryIndexes, scope.folder.path);
  const taken = new Map(scope.tools.map((tool) => [tool.name, tool]));
  // A file that is already a source of the section is checked as one, not again as a program file.
  const sourcePaths = new Set(section.sources.map((source) => source.path));
  const loaded: ToolDefinition[] = [];
  for (const tool of section.tools) {
    // A turn for the event loop may come between two tools (turns.ts): a tasks.json of thousands.
    yield;
    const index = entryOf(tool, entries, entryIndexes);
    if (badBlocks.has(sandboxBlockKey(entries[index], index, tool.taskName))) {
      // Its sandbox block's problem is reported at the block, which says its tools are not served.
      continue;
    }
    const entryPlace = context.position(['import', index]);
    const declared = { file: path.join(scope.folder.path, tool.source.file), line: tool.source.line, column: tool.source.column };
    const where = `${tool.source.file}:${tool.source.line}:${tool.source.column}`;
    const own = taken.get(tool.name);
    if (own !== undefined && own.source.kind === 'plugin') {
      const message = `tool name "${tool.name}" of the imported task "${tool.taskName}" (${where}) is already the name of the tool at line ${own.source.line}; the imported one is not served: rename that tool, exclude the task or give the entry a prefix`;
      context.report(tool.name, ['import', index], message);
      continue;
    }
    const built = yield* buildingTool(tool.spec, {
      source: { kind: 'plugin', pluginName: scope.pluginName, file: context.file, ...entryPlace, declared },
      folder: scope.folder,
      locate: () => entryPlace,
    });
    if ('problems' in built) {
      // The importer made a spec the loader refuses: a bug of ours, said where the task is.
      context.report(tool.name, ['import', index], `the imported task "${tool.taskName}" (${where}) could not be built: ${built.problems.map((problem) => problem.message).join('; ')}`);
      continue;
    }
    taken.set(tool.name, built.tool);
    loaded.push(asImported(built.tool, tool, (signal) => changedSource(scope.folder, section.sources, signal), sourcePaths));
  }
  return loaded;
}

/**
 * The problems of each entry's sandbox blocks (`sandbox`, `taskSandbox`), at their fields; the
 * blocks that have any, by sandboxBlockKey: the tools a bad block applies to are not served.
 */
function reportSandboxBlocks(context: FileContext, entries: readonly unknown[], entryIndexes: readonly number[], folder: string): Set<string> {
  const bad = new Set<string>();
  for (const index of entryIndexes) {
    const entry = entries[index] as ImportEntry;
    const blocks: [string, DeclaredSandbox, (string | number)[]][] = [
      ...(entry.sandbox === undefined ? [] : [[`${index}`, entry.sandbox, ['import', index, 'sandbox']] as [string, DeclaredSandbox, (string | number)[]]]),
      ...Object.entries(entry.taskSandbox ?? {}).map(([task, block]): [string, DeclaredSandbox, (string | number)[]] => [`${index}/${task}`, block, ['import', index, 'taskSandbox', task]]),
    ];
    for (const [key, block, at] of blocks) {
      const problems = sandboxBlockProblems(block, folder, at);
      for (const problem of problems) {
        context.report(`import[${index}]`, problem.path, `${problem.message} The tools this block applies to are not served.`);
      }
      if (problems.length > 0) {
        bad.add(key);
      }
    }
  }
  return bad;
}

/** Which sandbox block applies to a task of an entry: its own (`taskSandbox`), else the entry's. */
function sandboxBlockKey(entry: unknown, index: number, task: string): string {
  const own = (entry as ImportEntry).taskSandbox;
  return own !== undefined && Object.hasOwn(own, task) ? `${index}/${task}` : `${index}`;
}

/** Each task declared but not served, as a diagnostic at its place in its own file. */
function reportNotServed(context: FileContext, folder: WorkspaceFolder, section: ImportedSection): void {
  for (const entry of section.notServed) {
    context.diagnostics.push({
      file: path.join(folder.path, entry.source.file),
      tool: entry.name,
      line: entry.source.line,
      column: entry.source.column,
      rule: 'import',
      // The subject (`tool "name"`) already names it: the message does not say it twice.
      message: `not served: ${entry.reason}`,
    });
  }
}

/**
 * The built tool with what approval shows (where the task is, exactly what runs), a check before
 * each run that its sources are still what was loaded (npm, make and just read theirs again when
 * they run: an edit not yet reloaded must not run unapproved), and, with a problem matcher, the
 * problems of its output as `structured.problems`.
 */
function asImported(definition: ToolDefinition, tool: ImportedTool, changed: (signal: AbortSignal) => Promise<string | undefined>, sourcePaths: ReadonlySet<string>): ToolDefinition {
  const origin = `imports "${tool.taskName}" from ${tool.source.file}:${tool.source.line}:${tool.source.column}`;
  const matcher = tool.problemMatcher;
  const programFiles = [...new Set([...(definition.programFiles ?? []), ...(tool.programFiles ?? [])])].filter((file) => !sourcePaths.has(file));
  const notCovered = (tool.notCovered ?? []).map((why) => `not covered by approval: ${why}`);
  return {
    ...definition,
    // Always set: the built handler's own list (spread above) may name only sources.
    programFiles,
    // Where the task is, what the built handler runs (shown once: the handler's lines already
    // say the argv or the whole shell line), then what that names as its source writes it (a
    // script's text, a target's recipe).
    approvalLines: [
      origin,
      ...(tool.run.kind === 'steps' && tool.run.note !== undefined ? [`note: ${tool.run.note}`] : []),
      ...(definition.approvalLines ?? [definition.handlerSummary]),
      ...(tool.body ?? []),
      ...(matcher === undefined ? [] : [`reads problems with ${matcher.describe}`]),
      ...notCovered,
    ],
    run: async (input, context): Promise<ToolResult> => {
      const edited = await changed(context.signal);
      if (edited !== undefined) {
        throw new StaleToolError(`${edited} changed since it was loaded; the tool waits for the new content to be approved`);
      }
      const result = await definition.run(input, context);
      return matcher === undefined ? result : withProblems(result, await matchProblemsInTurns(matcher, result.text));
    },
  };
}

/** '' when the file exists (as importers record a lock file), null when it does not. */
function presence(file: string): Promise<'' | null> {
  return lstat(file).then(
    () => '' as const,
    () => null,
  );
}

/** The file's text, null when absent, undefined when it cannot be read. */
async function contentOf(folder: WorkspaceFolder, name: string): Promise<string | null | undefined> {
  const read = await readImportSource(folder, name);
  return 'absent' in read ? null : 'text' in read ? read.text : undefined;
}

/** The first source (relative path) whose content or presence is not what was loaded, else undefined. */
async function changedSource(folder: WorkspaceFolder, sources: readonly ImportSource[], signal: AbortSignal): Promise<string | undefined> {
  for (const source of sources) {
    signal.throwIfAborted();
    const now = source.presenceOnly === true ? await presence(path.join(folder.path, source.path)) : await contentOf(folder, source.path);
    if (now !== source.content) {
      return source.path;
    }
  }
  return undefined;
}

/** The index in the file's `import` array of the entry that imported `tool`: the first of its source that selects it. */
function entryOf(tool: ImportedTool, entries: readonly unknown[], entryIndexes: readonly number[]): number {
  const from = fromOfFile(tool.source.file);
  const selecting = entryIndexes.find((index) => {
    const entry = entries[index] as ImportEntry;
    return entry.from === from && (entry.include === undefined || entry.include.includes(tool.taskName)) && !(entry.exclude ?? []).includes(tool.taskName);
  });
  return selecting ?? entryIndexes[0] ?? 0;
}

/** Which source a file (relative to the folder) is. */
function fromOfFile(file: string): ImportFrom | undefined {
  if (file === TASKS_FILE) {
    return 'tasks';
  }
  if (file === PACKAGE_FILE) {
    return 'npm-scripts';
  }
  if ((MAKEFILE_NAMES as readonly string[]).includes(file)) {
    return 'make';
  }
  return (JUSTFILE_NAMES as readonly string[]).includes(file) ? 'just' : undefined;
}

/** The JSON path of `name` in the entry's include list, else its exclude list, else its key in taskTags or taskSandbox. */
function placeOfName(entry: unknown, index: number, name: string): (string | number)[] {
  const { include, exclude, taskTags, taskSandbox } = entry as ImportEntry;
  const inInclude = include?.indexOf(name) ?? -1;
  if (inInclude >= 0) {
    return ['import', index, 'include', inInclude];
  }
  const inExclude = exclude?.indexOf(name) ?? -1;
  if (inExclude >= 0) {
    return ['import', index, 'exclude', inExclude];
  }
  const map = taskTags !== undefined && Object.hasOwn(taskTags, name) ? 'taskTags' : taskSandbox !== undefined && Object.hasOwn(taskSandbox, name) ? 'taskSandbox' : undefined;
  return map === undefined ? ['import', index] : ['import', index, map, name];
}

/** "the tasks of .vscode/tasks.json", and so on. */
function sourceWords(entry: unknown): string {
  const from = (entry as ImportEntry).from;
  const words: Record<ImportFrom, string> = {
    tasks: `${TASKS_FILE}`,
    'npm-scripts': `the scripts of ${PACKAGE_FILE}`,
    make: 'the Makefile',
    just: 'the justfile',
  };
  return IMPORT_SOURCES.includes(from) ? words[from] : 'its source';
}
