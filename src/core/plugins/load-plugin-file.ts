/**
 * One plugin file, from its bytes to the tools that load and the diagnostics of those that do not.
 * Pure: no I/O, so every rule is tested on text (scan-directories.ts does the reading).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { Node } from 'jsonc-parser';
import type { SourceFiles } from '../handlers/handler';
import type { PluginDiagnostic, ToolDefinition, WorkspaceFolder } from '../types';
import { buildTool } from './build-tool';
import { LineIndex, nodeAt, propertyKeyAt, scanToolOffsets } from './locate';
import type { JsonPath, Position } from './locate';
import { parseJsonc, parseJsoncTree } from './parse-jsonc';
import type { PluginFile } from './plugin-file';
import { pluginContentHash } from './plugin-sources';
import type { PluginFileSpec, PluginToolSpec } from './plugin-types';
import { validatePluginFile } from './schema-validation';
import { excessiveNestingOffset, MAX_TEXT_NESTING, toolSizeProblem } from './size-limits';
import type { SchemaProblem } from './schema-validation';

/** Positions and diagnostics inside one parsed file; the syntax tree is built on first need. */
class FileContext {
  readonly diagnostics: PluginDiagnostic[] = [];
  private readonly lines: LineIndex;
  private tree: Node | undefined;
  private toolOffsets: number[] | undefined;

  constructor(
    readonly file: string,
    private readonly text: string,
  ) {
    this.lines = new LineIndex(text);
  }

  /** Position of the node at `path`, or of property `key`'s name in the object there. */
  position(at: JsonPath, key?: string): Position {
    this.tree ??= parseJsoncTree(this.text);
    const keyNode = key === undefined ? undefined : propertyKeyAt(this.tree, at, key);
    return this.lines.position((keyNode ?? nodeAt(this.tree, at)).offset);
  }

  /** Position of `tools[index]`'s object: by the cheap scan unless the tree exists anyway. */
  toolPosition(index: number): Position {
    if (this.tree === undefined) {
      this.toolOffsets ??= scanToolOffsets(this.text);
      const offset = this.toolOffsets[index];
      if (offset !== undefined) {
        return this.lines.position(offset);
      }
    }
    return this.position(['tools', index]);
  }

  report(tool: string | undefined, at: JsonPath, message: string, key?: string): void {
    const { line, column } = this.position(at, key);
    this.diagnostics.push({ file: this.file, ...(tool === undefined ? {} : { tool }), line, column, message });
  }
}

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
 * Never throws.
 */
export function loadPluginFile(file: string, content: string | Uint8Array, folder: WorkspaceFolder, sources?: SourceFiles): PluginFile {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  try {
    return loadBytes(file, bytes, folder, sources);
  } catch (error) {
    // A bug of ours, or a limit we did not foresee (a stack overflow): this file loads no tools
    // and says why; the files beside it load as usual.
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return {
      file,
      folder,
      text: '',
      contentHash: pluginContentHash(contentHashOf(bytes), sources),
      pluginName: defaultPluginName(file),
      tools: [],
      diagnostics: [{ file, line: 1, column: 1, message: `the file could not be loaded (${reason})` }],
    };
  }
}

function loadBytes(file: string, bytes: Uint8Array, folder: WorkspaceFolder, sources: SourceFiles | undefined): PluginFile {
  const contentHash = pluginContentHash(contentHashOf(bytes), sources);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').replace(/^\uFEFF/, '');
  const base = { file, folder, text, contentHash, pluginName: defaultPluginName(file), ...(sources === undefined || sources.size === 0 ? {} : { sources }) };
  const tooDeep = excessiveNestingOffset(text);
  if (tooDeep !== undefined) {
    const { line, column } = new LineIndex(text).position(tooDeep);
    const message = `the file nests objects and arrays more than ${MAX_TEXT_NESTING} levels deep here; it was not loaded`;
    return { ...base, tools: [], diagnostics: [{ file, line, column, message }] };
  }
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    const { line, column } = new LineIndex(text).position(parsed.error.offset);
    return { ...base, tools: [], diagnostics: [{ file, line, column, message: parsed.error.message }] };
  }
  const context = new FileContext(file, text);
  const spec = parsed.value as Partial<PluginFileSpec> | null;
  const pluginName = nonEmptyString(spec?.name) ?? base.pluginName;
  const tools = loadTools(context, parsed.value, { folder, pluginName, sources });
  return {
    ...base,
    pluginName,
    ...(typeof spec?.version === 'string' ? { version: spec.version } : {}),
    ...(typeof spec?.description === 'string' ? { description: spec.description } : {}),
    tools,
    diagnostics: context.diagnostics.sort((a, b) => a.line - b.line || a.column - b.column),
  };
}

/** What every tool of a file shares. */
interface FileScope {
  readonly folder: WorkspaceFolder;
  readonly pluginName: string;
  readonly sources: SourceFiles | undefined;
}

function loadTools(context: FileContext, value: unknown, scope: FileScope): ToolDefinition[] {
  const rawTools = toolList(value);
  const badTools = new Set<number>();
  // Too-big tools are reported and left out before validation, whose cost grows with their size.
  rawTools.forEach((tool, index) => {
    const problem = toolSizeProblem(tool);
    if (problem !== undefined) {
      badTools.add(index);
      context.report(toolLabel(tool, index), ['tools', index, ...problem.path], problem.message);
    }
  });
  const oversized = new Set(badTools);
  let fileIsBad = false;
  for (const problem of validatePluginFile(withoutTools(value, oversized))) {
    const index = toolIndex(problem);
    if (index !== undefined && oversized.has(index)) {
      continue;
    }
    if (index === undefined) {
      fileIsBad = true;
    } else {
      badTools.add(index);
    }
    reportSchemaProblem(context, problem, index === undefined ? undefined : toolLabel(rawTools[index], index));
  }
  markDuplicates(context, rawTools, badTools);
  if (fileIsBad) {
    return [];
  }
  const loaded: ToolDefinition[] = [];
  (rawTools as PluginToolSpec[]).forEach((spec, index) => {
    if (badTools.has(index)) {
      return;
    }
    const { line, column } = context.toolPosition(index);
    const built = buildTool(spec, {
      source: { kind: 'plugin', pluginName: scope.pluginName, file: context.file, line, column },
      folder: scope.folder,
      ...(scope.sources === undefined ? {} : { sources: scope.sources }),
      locate: (path) => context.position(['tools', index, ...path]),
    });
    if ('tool' in built) {
      loaded.push(built.tool);
      return;
    }
    for (const problem of built.problems) {
      context.report(spec.name, ['tools', index, ...problem.path], problem.message);
    }
  });
  return loaded;
}

function reportSchemaProblem(context: FileContext, problem: SchemaProblem, tool: string | undefined): void {
  context.report(tool, problem.path, problem.message, problem.key);
}

/**
 * Within one file the first tool of a name wins (as across files) and each later one is an error
 * that names both lines.
 */
function markDuplicates(context: FileContext, rawTools: readonly unknown[], badTools: Set<number>): void {
  const first = new Map<string, number>();
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
    badTools.add(index);
    const firstLine = context.position(['tools', firstIndex, 'name']).line;
    const line = context.position(['tools', index, 'name']).line;
    const message = `duplicate tool name "${name}": first defined at line ${firstLine}, again at line ${line}; the one at line ${line} is ignored`;
    context.report(name, ['tools', index, 'name'], message);
  });
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
