/**
 * The editor tools, run against the editor's language services (EditorQueries): the input
 * resolved to a file and a 0-based position, the answer shaped for a model (workspace-relative
 * paths, 1-based positions, nothing outside the workspace: workspace-places.ts). The VS Code
 * window serves these to chat (lm tools) and to its bridge; only the queries are VS Code's.
 */
import { resolveFolder } from '../builtins/folder';
import { optionalString } from '../builtins/input';
import type { ContainmentDeps } from '../paths/containment';
import { hostContainment } from '../paths/containment';
import { ToolInputError } from '../tool-errors';
import type { ToolDefinition, ToolInput, ToolResult, ToolRunContext } from '../types';
import { textResult } from '../types';
import type { EditorDocumentSymbol, EditorLocation, EditorPosition, EditorQueries, EditorRange, EditorSeverity } from './editor-queries';
import type { ToolSpec } from './editor-tool-specs';
import { EDITOR_TOOL_TAGS, EDITOR_DEFINITION, EDITOR_DIAGNOSTICS, EDITOR_HOVER, EDITOR_OPEN_FILES, EDITOR_REFERENCES, EDITOR_SYMBOLS } from './editor-tool-specs';
import type { WorkspacePlace } from './workspace-places';
import { WorkspacePlaces, redactOutsidePaths } from './workspace-places';

/** The most selected text an answer carries. */
const SELECTED_TEXT_CHARS = 4000;

/** A 1-based range in a workspace file, as the tools answer it. */
interface ShapedLocation extends WorkspacePlace {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** What one call needs: the editor, the call's context, and where files are. */
interface EditorCall {
  readonly queries: EditorQueries;
  readonly context: ToolRunContext;
  readonly places: WorkspacePlaces;
}

/** The editor tools, asking `queries`; `deps` is the containment's file system (tests give their own platform). */
export function createEditorTools(queries: EditorQueries, deps: ContainmentDeps = hostContainment()): readonly ToolDefinition[] {
  const tool = (spec: ToolSpec, run: (input: ToolInput, call: EditorCall) => Promise<ToolResult>): ToolDefinition => ({
    ...spec,
    tags: EDITOR_TOOL_TAGS,
    source: { kind: 'builtin' },
    run: (input, context) => run(input, { queries, context, places: new WorkspacePlaces(context.folders, deps) }),
  });
  return [
    tool(EDITOR_DIAGNOSTICS, diagnostics),
    tool(EDITOR_DEFINITION, definition),
    tool(EDITOR_REFERENCES, references),
    tool(EDITOR_SYMBOLS, symbols),
    tool(EDITOR_HOVER, hover),
    tool(EDITOR_OPEN_FILES, openFiles),
  ];
}

const SEVERITY_ORDER: readonly EditorSeverity[] = ['error', 'warning', 'information', 'hint'];

async function diagnostics(input: ToolInput, { queries, context, places }: EditorCall): Promise<ToolResult> {
  const folder = resolveFolder(input['folder'], context.folders);
  const requested = optionalString(input, 'path');
  const file = requested === undefined ? undefined : await places.inputFile(folder, requested);
  const least = SEVERITY_ORDER.indexOf((optionalString(input, 'severity') ?? 'hint') as EditorSeverity);
  const limit = numberOf(input, 'limit') ?? 200;
  const found: Array<ShapedLocation & { severity: EditorSeverity; message: string; source?: string; code?: string }> = [];
  let outside = 0;
  for (const entry of await queries.diagnostics(file)) {
    const kept = entry.diagnostics.filter((diagnostic) => SEVERITY_ORDER.indexOf(diagnostic.severity) <= least);
    if (kept.length === 0) {
      continue;
    }
    const place = await places.placeOf(entry.file);
    if (place === undefined) {
      outside += kept.length;
      continue;
    }
    for (const diagnostic of kept) {
      found.push({
        ...shapeRange(place, diagnostic.range),
        severity: diagnostic.severity,
        message: diagnostic.message,
        ...(diagnostic.source === undefined ? {} : { source: diagnostic.source }),
        ...(diagnostic.code === undefined ? {} : { code: diagnostic.code }),
      });
    }
  }
  found.sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || compareLocations(a, b));
  // Text the editor wrote may name a file outside (a module it could not find, a rootDir):
  // redacted in what is shown, after the cut, not in every problem found.
  const shown = found.slice(0, limit).map((d) => ({ ...d, message: redactOutsidePaths(d.message, places) }));
  const where = requested === undefined ? 'the workspace' : requested;
  const lines = shown.map((d) => `${placeText(d, context)} ${d.severity}${d.code === undefined ? '' : ` ${d.source ?? ''}${d.code}`.trimEnd()}: ${d.message}${d.source === undefined ? '' : ` (${d.source})`}`);
  const header =
    found.length === 0
      ? `No problems in ${where}${requested === undefined ? '' : ' (language services report problems for the files they have checked: an unopened file may show none)'}.`
      : `${found.length} problem${found.length === 1 ? '' : 's'} in ${where}${found.length > shown.length ? ` (the first ${shown.length} shown)` : ''}:`;
  return textResult([header, ...lines, ...outsideNote(outside, 'problems')].join('\n'), { diagnostics: shown, total: found.length, outsideWorkspace: outside });
}

async function definition(input: ToolInput, call: EditorCall): Promise<ToolResult> {
  const target = await targetOf(input, call);
  const { kept, outside } = await shapeLocations(await call.queries.definition(target.file, target.position), call.places);
  const lines = kept.map((location) => `  ${placeText(location, call.context)}`);
  const header = kept.length === 0 ? `No definition found in the workspace for ${target.text}.` : `Definition${kept.length === 1 ? '' : 's'} of ${target.text}:`;
  return textResult([header, ...lines, ...outsideNote(outside, 'definitions')].join('\n'), { target: target.place, definitions: kept, outsideWorkspace: outside });
}

async function references(input: ToolInput, call: EditorCall): Promise<ToolResult> {
  const target = await targetOf(input, call);
  const limit = numberOf(input, 'limit') ?? 200;
  const { kept, outside } = await shapeLocations(await call.queries.references(target.file, target.position), call.places);
  const shown = kept.slice(0, limit);
  const lines = shown.map((location) => `  ${placeText(location, call.context)}`);
  const header =
    kept.length === 0
      ? `No references found in the workspace for ${target.text}.`
      : `${kept.length} reference${kept.length === 1 ? '' : 's'} to ${target.text}${kept.length > shown.length ? ` (the first ${shown.length} shown)` : ''}:`;
  return textResult([header, ...lines, ...outsideNote(outside, 'references')].join('\n'), { target: target.place, references: shown, total: kept.length, outsideWorkspace: outside });
}

async function symbols(input: ToolInput, call: EditorCall): Promise<ToolResult> {
  const query = optionalString(input, 'query');
  const requested = optionalString(input, 'path');
  const limit = numberOf(input, 'limit') ?? 100;
  if ((query === undefined) === (requested === undefined)) {
    throw new ToolInputError('Give either "query" (search the workspace for symbols) or "path" (the outline of one file), not both and not neither.');
  }
  const found: Array<ShapedLocation & { name: string; kind: string; container?: string }> = [];
  let outside = 0;
  if (query !== undefined) {
    for (const symbol of await call.queries.workspaceSymbols(query)) {
      const place = await call.places.placeOf(symbol.location.file);
      if (place === undefined) {
        outside += 1;
        continue;
      }
      const container = symbol.containerName === undefined || symbol.containerName === '' ? {} : { container: symbol.containerName };
      found.push({ name: symbol.name, kind: symbol.kind, ...container, ...shapeRange(place, symbol.location.range) });
    }
  } else {
    const folder = resolveFolder(input['folder'], call.context.folders);
    const file = await call.places.inputFile(folder, requested ?? '');
    const place = await call.places.placeOf(file);
    if (place !== undefined) {
      for (const { symbol, container } of flattenOutline(await call.queries.documentSymbols(file))) {
        found.push({ name: symbol.name, kind: symbol.kind, ...(container === undefined ? {} : { container }), ...shapeRange(place, symbol.selectionRange) });
      }
    }
  }
  // A module's symbol is named by its path (`"/home/me/other/x"`): text the editor wrote,
  // redacted in what is shown, after the cut.
  const shown = found.slice(0, limit).map(({ container, ...symbol }) => ({
    ...symbol,
    name: redactOutsidePaths(symbol.name, call.places),
    ...(container === undefined ? {} : { container: redactOutsidePaths(container, call.places) }),
  }));
  const what = query === undefined ? `in the outline of ${requested ?? ''}` : `matching "${query}"`;
  const header = found.length === 0 ? `No symbols ${what}.` : `${found.length} symbol${found.length === 1 ? '' : 's'} ${what}${found.length > shown.length ? ` (the first ${shown.length} shown)` : ''}:`;
  const lines = shown.map((s) => `  ${s.kind} ${s.container === undefined ? '' : `${s.container}.`}${s.name}  ${placeText(s, call.context)}`);
  return textResult([header, ...lines, ...outsideNote(outside, 'symbols')].join('\n'), { symbols: shown, total: found.length, outsideWorkspace: outside });
}

async function hover(input: ToolInput, call: EditorCall): Promise<ToolResult> {
  const target = await targetOf(input, call);
  const parts = await call.queries.hover(target.file, target.position);
  const text = redactOutsidePaths(parts.filter((part) => part.trim() !== '').join('\n\n---\n\n'), call.places);
  return textResult(text === '' ? `No hover information at ${target.text}.` : `Hover at ${target.text}:\n\n${text}`, { target: target.place, hover: text });
}

async function openFiles(_input: ToolInput, { queries, context, places }: EditorCall): Promise<ToolResult> {
  const editors = await queries.openFiles();
  let outside = 0;
  const open: Array<WorkspacePlace & { languageId?: string; dirty: boolean }> = [];
  for (const file of editors.open) {
    const place = await places.placeOf(file.file);
    if (place === undefined) {
      outside += 1;
      continue;
    }
    open.push({ ...place, ...(file.languageId === undefined ? {} : { languageId: file.languageId }), dirty: file.dirty });
  }
  const activePlace = editors.active === undefined ? undefined : await places.placeOf(editors.active.file);
  const active =
    editors.active === undefined || activePlace === undefined
      ? undefined
      : {
          ...activePlace,
          selection: oneBased(editors.active.selection),
          selectedText: editors.active.selectedText.slice(0, SELECTED_TEXT_CHARS),
        };
  const lines = open.map((file) => `  ${pathText(file, context)}${file.dirty ? ' (unsaved changes)' : ''}`);
  const activeLines =
    active === undefined
      ? [editors.active === undefined ? 'No active editor.' : 'The active editor shows a file outside the workspace.']
      : [
          `Active: ${pathText(active, context)}, selection ${active.selection.line}:${active.selection.column}-${active.selection.endLine}:${active.selection.endColumn}`,
          ...(active.selectedText === '' ? [] : ['Selected text:', active.selectedText]),
        ];
  const header = open.length === 0 ? 'No workspace files are open.' : `${open.length} open file${open.length === 1 ? '' : 's'}:`;
  return textResult([...activeLines, header, ...lines, ...outsideNote(outside, 'open files')].join('\n'), {
    ...(active === undefined ? {} : { active }),
    open,
    outsideWorkspace: outside,
  });
}

/** The file and 0-based position a call points at, its place for the answer, and how to name it. */
interface Target {
  readonly file: string;
  readonly position: EditorPosition;
  readonly place: WorkspacePlace & { readonly line: number; readonly column: number };
  readonly text: string;
}

async function targetOf(input: ToolInput, call: EditorCall): Promise<Target> {
  const folder = resolveFolder(input['folder'], call.context.folders);
  const requested = optionalString(input, 'path');
  const line = numberOf(input, 'line');
  const column = numberOf(input, 'column');
  const symbol = optionalString(input, 'symbol');
  if (line !== undefined || column !== undefined) {
    if (requested === undefined || line === undefined) {
      throw new ToolInputError('A position needs "path" and "line" (1-based; "column" defaults to 1), or give "symbol" instead.');
    }
    if (symbol !== undefined) {
      throw new ToolInputError('Give a position ("path", "line", "column") or a "symbol" name, not both.');
    }
    const file = await call.places.inputFile(folder, requested);
    const position = { line: line - 1, character: (column ?? 1) - 1 };
    return targetAt(file, position, call, `${requested}:${line}:${column ?? 1}`);
  }
  if (symbol === undefined) {
    throw new ToolInputError('Give a position ("path", "line" and "column", 1-based) or a "symbol" name.');
  }
  const found = requested === undefined ? await symbolInWorkspace(symbol, call) : await symbolInFile(symbol, await call.places.inputFile(folder, requested), call);
  return targetAt(found.file, found.position, call, `"${symbol}"`);
}

async function targetAt(file: string, position: EditorPosition, call: EditorCall, text: string): Promise<Target> {
  const place = await call.places.placeOf(file);
  if (place === undefined) {
    throw new ToolInputError(`${text} is outside the workspace folders.`);
  }
  return { file, position, place: { ...place, line: position.line + 1, column: position.character + 1 }, text };
}

/** A symbol of a file's outline by name (exact, else ignoring case): the start of its name. */
async function symbolInFile(name: string, file: string, call: EditorCall): Promise<{ file: string; position: EditorPosition }> {
  const outline = flattenOutline(await call.queries.documentSymbols(file)).map((entry) => entry.symbol);
  const match = outline.find((symbol) => symbol.name === name) ?? outline.find((symbol) => symbol.name.toLowerCase() === name.toLowerCase());
  if (match === undefined) {
    const some = outline.slice(0, 20).map((symbol) => symbol.name);
    throw new ToolInputError(`No symbol named "${name}" in the outline of that file${some.length === 0 ? ' (the editor gives it no outline)' : `; it has: ${some.join(', ')}`}.`);
  }
  return { file, position: match.selectionRange.start };
}

/**
 * A symbol by name from the workspace symbol search (an exact name inside the workspace), at its
 * name: a workspace symbol's range may start at `export`, so the file's outline gives the name's
 * own place when it has the same symbol there.
 */
async function symbolInWorkspace(name: string, call: EditorCall): Promise<{ file: string; position: EditorPosition }> {
  const candidates = await call.queries.workspaceSymbols(name);
  let match: EditorLocation | undefined;
  for (const symbol of candidates) {
    if (bareName(symbol.name) === name && (await call.places.placeOf(symbol.location.file)) !== undefined) {
      match = symbol.location;
      break;
    }
  }
  if (match === undefined) {
    const similar = [...new Set(candidates.map((symbol) => symbol.name))].slice(0, 10);
    throw new ToolInputError(
      `No symbol named "${name}" found in the workspace by the editor's symbol search${similar.length === 0 ? '' : ` (similar: ${similar.join(', ')})`}. Give "path" to look in one file's outline, or a position.`,
    );
  }
  const { file, range } = match;
  const inOutline = flattenOutline(await call.queries.documentSymbols(file))
    .map((entry) => entry.symbol)
    .find((symbol) => bareName(symbol.name) === name && contains(symbol.range, range.start));
  return { file, position: inOutline?.selectionRange.start ?? range.start };
}

/**
 * A symbol's name without the parameter list some language services add in a workspace search
 * (TypeScript lists a function as `greet()`), for matching the name a model gives.
 */
function bareName(name: string): string {
  return name.replace(/\(.*\)$/, '');
}

function flattenOutline(symbols: readonly EditorDocumentSymbol[], container?: string): Array<{ symbol: EditorDocumentSymbol; container: string | undefined }> {
  return symbols.flatMap((symbol) => [{ symbol, container }, ...flattenOutline(symbol.children, container === undefined ? symbol.name : `${container}.${symbol.name}`)]);
}

function contains(range: EditorRange, position: EditorPosition): boolean {
  const after = (a: EditorPosition, b: EditorPosition): boolean => a.line > b.line || (a.line === b.line && a.character >= b.character);
  return after(position, range.start) && after(range.end, position);
}

async function shapeLocations(locations: readonly EditorLocation[], places: WorkspacePlaces): Promise<{ kept: ShapedLocation[]; outside: number }> {
  const kept: ShapedLocation[] = [];
  let outside = 0;
  for (const location of locations) {
    const place = await places.placeOf(location.file);
    if (place === undefined) {
      outside += 1;
    } else {
      kept.push(shapeRange(place, location.range));
    }
  }
  kept.sort(compareLocations);
  return { kept, outside };
}

function shapeRange(place: WorkspacePlace, range: EditorRange): ShapedLocation {
  return { folder: place.folder, path: place.path, ...oneBased(range) };
}

function oneBased(range: EditorRange): { line: number; column: number; endLine: number; endColumn: number } {
  return { line: range.start.line + 1, column: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

function compareLocations(a: ShapedLocation, b: ShapedLocation): number {
  return a.folder.localeCompare(b.folder) || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column;
}

/** `src/a.ts:3:7`, with the folder's name first in a multi-root workspace. */
function placeText(location: ShapedLocation, context: ToolRunContext): string {
  return `${pathText(location, context)}:${location.line}:${location.column}`;
}

function pathText(place: WorkspacePlace, context: ToolRunContext): string {
  return context.folders.length > 1 ? `${place.folder}/${place.path}` : place.path;
}

function outsideNote(count: number, what: string): string[] {
  return count === 0 ? [] : [`(${count} ${what} outside the workspace folders left out)`];
}

function numberOf(input: ToolInput, key: string): number | undefined {
  const value = input[key];
  return typeof value === 'number' ? value : undefined;
}
