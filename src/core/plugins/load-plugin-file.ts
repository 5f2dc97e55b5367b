/**
 * One plugin file, from its bytes to the tools that load and the diagnostics of those that do not.
 * Pure: no I/O, so every rule is tested on text (scan-directories.ts does the reading).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { SourceFiles } from '../files/source-file';
import type { HandlerProblem } from '../handlers/handler';
import type { ToolDefinition, WorkspaceFolder } from '../types';
import { whatRunsHash } from './approval-hash';
import { buildingTool } from './build-tool';
import type { BuildContext } from './tool-parts';
import { loadPrompts, setAsidePromptProblem } from './load-prompts';
import { repairForDiagnosis, restoreProblems } from './diagnose-tool';
import { FileContext, rangeInText } from './file-context';
import { isBlankJsonc, parseJsonc } from './parse-jsonc';
import type { PluginFile } from './plugin-file';
import { pluginContentHash } from './plugin-sources';
import type { PluginFileSpec, PluginToolSpec } from './plugin-types';
import { validatePluginFile } from './schema-validation';
import { loadResources, setAsideResourceProblem } from './load-resources';
import { importsHashPart, loadImportedTools, setAsideImportProblem, type PluginImports } from './imported-tools';
import { excessiveNestingOffset, MAX_TEXT_NESTING, toolSizeProblem } from './size-limits';
import type { SchemaProblem } from './schema-validation';
import { finishInTurns, finishNow, type Pausable } from '../turns';

/** sha256 (hex) of a plugin file's bytes: what approval is keyed on. */
export function contentHashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A plugin's name when its file sets none: the file's base name without `.json`. */
export function defaultPluginName(file: string): string {
  return path.basename(file).replace(/\.json$/i, '');
}

/**
 * Loads one plugin file. `content` is the file's raw bytes (or its text): the content hash is
 * taken over exactly these bytes, and over the `sources` its code tools name (read beforehand by
 * readPluginSources; a code tool whose module is not among them does not load). A syntax error
 * or a problem outside `tools[N]` yields no tools; a problem inside a tool drops only that tool.
 * `imports` is what the file's `import` section read (readPluginImports), hashed with it too.
 * Never throws.
 */
export function loadPluginFile(file: string, content: string | Uint8Array, folder: WorkspaceFolder, sources?: SourceFiles, imports?: PluginImports): PluginFile {
  return finishNow(loadingPluginFile(file, content, folder, sources, imports));
}

/**
 * loadPluginFile, giving the event loop a turn between tools (turns.ts): a file of thousands of
 * tools or imported tasks, written by anyone who can write to the workspace, keeps the server
 * answering while it loads.
 */
export function loadPluginFileInTurns(file: string, content: string | Uint8Array, folder: WorkspaceFolder, sources?: SourceFiles, imports?: PluginImports): Promise<PluginFile> {
  return finishInTurns(loadingPluginFile(file, content, folder, sources, imports));
}

function* loadingPluginFile(file: string, content: string | Uint8Array, folder: WorkspaceFolder, sources: SourceFiles | undefined, imports: PluginImports | undefined): Pausable<PluginFile> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  try {
    return yield* loadBytes(file, bytes, folder, sources, imports);
  } catch (error) {
    // A bug of ours, or a limit we did not foresee (a stack overflow): this file loads no tools
    // and says why; the files beside it load as usual.
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return {
      file,
      folder,
      text: '',
      contentHash: pluginContentHash(contentHashOf(bytes), sources, importsHashPart(imports)),
      pluginName: defaultPluginName(file),
      tools: [],
      diagnostics: [{ file, line: 1, column: 1, message: `the file could not be loaded (${reason})` }],
    };
  }
}

function* loadBytes(file: string, bytes: Uint8Array, folder: WorkspaceFolder, sources: SourceFiles | undefined, imports: PluginImports | undefined): Pausable<PluginFile> {
  const contentHash = pluginContentHash(contentHashOf(bytes), sources, importsHashPart(imports));
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').replace(/^\uFEFF/, '');
  const base = { file, folder, text, contentHash, pluginName: defaultPluginName(file), ...(sources === undefined || sources.size === 0 ? {} : { sources }), ...(imports === undefined ? {} : { importSources: imports.section.sources }) };
  const tooDeep = excessiveNestingOffset(text);
  if (tooDeep !== undefined) {
    const message = `the file nests objects and arrays more than ${MAX_TEXT_NESTING} levels deep here; it was not loaded`;
    return { ...base, tools: [], diagnostics: [{ file, ...rangeInText(text, tooDeep, 1), message }] };
  }
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    // A file just created (empty, or only comments so far) is not written yet: no tool, no problem.
    const diagnostics = isBlankJsonc(text) ? [] : [{ file, ...rangeInText(text, parsed.error.offset, parsed.error.length), rule: 'syntax', message: parsed.error.message }];
    return { ...base, tools: [], diagnostics };
  }
  const context = new FileContext(file, text);
  const spec = parsed.value as Partial<PluginFileSpec> | null;
  const pluginName = nonEmptyString(spec?.name) ?? base.pluginName;
  // Problems inside `resources[N]` or `prompts[N]` drop only that entry, as a tool's drop only that tool.
  const resourceProblems = new Map<number, SchemaProblem[]>();
  const promptProblems: SchemaProblem[] = [];
  // Problems inside `import[N]` drop only that entry, as a tool's drop only that tool.
  const importProblems = new Map<number, SchemaProblem[]>();
  const setAside = (problem: SchemaProblem): boolean =>
    setAsideResourceProblem(problem, resourceProblems) || setAsidePromptProblem(problem, promptProblems) || setAsideImportProblem(problem, importProblems);
  const { tools: ownTools, fileIsBad } = yield* loadTools(context, parsed.value, { folder, pluginName, sources }, setAside);
  const imported = yield* loadImportedTools(context, parsed.value, { folder, pluginName, tools: ownTools, serve: !fileIsBad }, imports, importProblems);
  const tools = imported.length === 0 ? ownTools : [...ownTools, ...imported];
  // A problem outside every entry (a misspelled top-level key) means the file is not what its
  // author meant: nothing of it is served.
  const resources = fileIsBad ? [] : loadResources(context, parsed.value, { folder, pluginName }, resourceProblems);
  const prompts = fileIsBad ? [] : loadPrompts(context, parsed.value, { folder, pluginName }, promptProblems);
  return {
    ...base,
    approvalHash: pluginContentHash(whatRunsHash(parsed.value), sources, importsHashPart(imports)),
    pluginName,
    ...(typeof spec?.version === 'string' ? { version: spec.version } : {}),
    ...(typeof spec?.description === 'string' ? { description: spec.description } : {}),
    tools,
    ...(resources.length === 0 ? {} : { resources }),
    ...(prompts.length === 0 ? {} : { prompts }),
    diagnostics: context.diagnostics.sort((a, b) => a.line - b.line || a.column - b.column),
  };
}

/** What every tool of a file shares. */
interface FileScope {
  readonly folder: WorkspaceFolder;
  readonly pluginName: string;
  readonly sources: SourceFiles | undefined;
}

/**
 * `setAside` takes the schema problems of another section (resources, prompts), which that
 * section reports itself: they do not make the whole file bad.
 */
function* loadTools(context: FileContext, value: unknown, scope: FileScope, setAside: (problem: SchemaProblem) => boolean): Pausable<{ tools: ToolDefinition[]; fileIsBad: boolean }> {
  const rawTools = toolList(value);
  const oversized = new Set<number>();
  // Too-big tools are reported and left out before validation, whose cost grows with their size.
  rawTools.forEach((tool, index) => {
    const problem = toolSizeProblem(tool);
    if (problem !== undefined) {
      oversized.add(index);
      context.leaveOut(index);
      context.report(toolLabel(tool, index), ['tools', index, ...problem.path], problem.message);
    }
  });
  const schemaProblems = new Map<number, SchemaProblem[]>();
  let fileIsBad = false;
  for (const problem of validatePluginFile(withoutTools(value, oversized))) {
    const index = toolIndex(problem);
    if ((index !== undefined && oversized.has(index)) || setAside(problem)) {
      continue;
    }
    if (index === undefined) {
      fileIsBad = true;
    } else {
      schemaProblems.set(index, [...(schemaProblems.get(index) ?? []), problem]);
    }
    context.report(index === undefined ? undefined : toolLabel(rawTools[index], index), problem.path, problem.message, { ...(problem.key === undefined ? {} : { key: problem.key }), rule: problem.keyword });
  }
  const duplicates = markDuplicates(context, rawTools);
  if (fileIsBad) {
    return { tools: [], fileIsBad };
  }
  const loaded: ToolDefinition[] = [];
  for (const [index, raw] of rawTools.entries()) {
    if (!oversized.has(index)) {
      const tool = yield* buildOne(context, raw, index, scope, schemaProblems.get(index));
      if (tool !== undefined && !duplicates.has(index)) {
        loaded.push(tool);
      }
      yield;
    }
  }
  return { tools: loaded, fileIsBad };
}

/** One tool built, or undefined with its problems reported; a tool with schema problems does not load, what building it would say is reported with them. */
function* buildOne(context: FileContext, raw: unknown, index: number, scope: FileScope, problems: readonly SchemaProblem[] | undefined): Pausable<ToolDefinition | undefined> {
  const repaired = problems === undefined ? { spec: raw, originalPath: (path: readonly (string | number)[]) => path } : repairForDiagnosis(raw, problems.map((problem) => ({ ...problem, path: problem.path.slice(2) })));
  if (repaired === undefined) {
    return undefined;
  }
  const built = yield* buildingTool(repaired.spec as PluginToolSpec, buildContext(context, index, scope));
  if ('problems' in built) {
    reportBuildProblems(context, index, toolLabel(raw, index), restoreProblems(built.problems, repaired));
    return undefined;
  }
  return problems === undefined ? built.tool : undefined;
}

function buildContext(context: FileContext, index: number, scope: FileScope): BuildContext {
  const { line, column } = context.toolPosition(index);
  return {
    source: { kind: 'plugin', pluginName: scope.pluginName, file: context.file, line, column },
    folder: scope.folder,
    ...(scope.sources === undefined ? {} : { sources: scope.sources }),
    locate: (path) => context.position(['tools', index, ...path]),
  };
}

function reportBuildProblems(context: FileContext, index: number, tool: string, problems: readonly HandlerProblem[]): void {
  for (const problem of problems) {
    context.report(tool, ['tools', index, ...problem.path], problem.message, problem.span === undefined ? {} : { span: problem.span });
  }
}

/**
 * Within one file the first tool of a name wins (as across files) and each later one is an error
 * that names both lines. Returns the indexes of the later ones.
 */
function markDuplicates(context: FileContext, rawTools: readonly unknown[]): Set<number> {
  const first = new Map<string, number>();
  const duplicates = new Set<number>();
  rawTools.forEach((tool, index) => {
    const name = nonEmptyString((tool as { name?: unknown } | null)?.name);
    if (name === undefined) {
      return;
    }
    const firstIndex = first.get(name);
    if (firstIndex === undefined) {
      first.set(name, index);
      return;
    }
    duplicates.add(index);
    const firstLine = context.position(['tools', firstIndex, 'name']).line;
    const line = context.position(['tools', index, 'name']).line;
    const message = `duplicate tool name "${name}": first defined at line ${firstLine}, again at line ${line}; the one at line ${line} is ignored`;
    context.report(name, ['tools', index, 'name'], message);
  });
  return duplicates;
}

/** The file's value with the tools at `indexes` replaced by an empty object (indexes stay put). */
function withoutTools(value: unknown, indexes: ReadonlySet<number>): unknown {
  if (indexes.size === 0) {
    return value;
  }
  const tools = toolList(value).map((tool, index) => (indexes.has(index) ? {} : tool));
  return { ...(value as object), tools };
}

function toolList(value: unknown): readonly unknown[] {
  const tools = (value as { tools?: unknown } | null)?.tools;
  return Array.isArray(tools) ? tools : [];
}

/** The index N of a problem inside `tools[N]`, else undefined (a problem of the whole file). */
function toolIndex(problem: SchemaProblem): number | undefined {
  const [first, second] = problem.path;
  return first === 'tools' && typeof second === 'number' ? second : undefined;
}

/** How diagnostics name a tool: its `name` when it has one, else `tools[N]`. */
function toolLabel(tool: unknown, index: number): string {
  return nonEmptyString((tool as { name?: unknown } | null)?.name) ?? `tools[${index}]`;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
