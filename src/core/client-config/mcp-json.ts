/**
 * The JSON (JSONC) configuration files of MCP clients (`.mcp.json`, Cursor's `.cursor/mcp.json`,
 * Gemini CLI's and Zed's settings, Copilot CLI's `mcp-config.json`, VS Code's older
 * `.vscode/mcp.json`): our entry is added or updated in place. Other
 * servers, unknown keys, comments and formatting survive (jsonc-parser edits, not a rewrite), and a
 * file that does not parse is never overwritten.
 */
import { applyEdits, findNodeAtLocation, modify, parseTree } from 'jsonc-parser';
import type { FormattingOptions, JSONPath, Node } from 'jsonc-parser';
import { parseJsonc } from '../plugins/parse-jsonc';
import { LineIndex } from '../plugins/locate';

/** The file name, in the project's root folder. */
export const MCP_JSON_FILE = '.mcp.json';

/** Our server's key under `mcpServers`. */
export const MCP_SERVER_NAME = 'workspace-tools';

/** A stdio server entry as the clients read it (`type` is left out where a client has none). */
export interface McpStdioEntry {
  /** `stdio` (the MCP name); Copilot CLI's own file says `local`. */
  readonly type?: 'stdio' | 'local';
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Copilot CLI: which of the server's tools it offers (`["*"]`: all). */
  readonly tools?: readonly string[];
}

/**
 * The key the servers are listed under: `mcpServers` (most clients), `servers` (VS Code's
 * `.vscode/mcp.json`), `context_servers` (Zed).
 */
export type ServersKey = 'mcpServers' | 'servers' | 'context_servers';

/** The merged text, or why the existing file was left alone (1-based position). */
export type MergeOutcome =
  | { readonly ok: true; readonly text: string; readonly changed: boolean }
  | { readonly ok: false; readonly line: number; readonly column: number; readonly message: string };

/** Adds or updates `<root>[name]` in the text of an existing file (undefined: no file). */
export function mergeMcpJson(existing: string | undefined, name: string, entry: McpStdioEntry, root: ServersKey = 'mcpServers'): MergeOutcome {
  if (existing === undefined || existing.trim() === '') {
    return { ok: true, text: `${JSON.stringify({ [root]: { [name]: entry } }, null, 2)}\n`, changed: true };
  }
  const refusal = refusalFor(existing, root);
  if (refusal !== undefined) {
    return refusal;
  }
  const options = { formattingOptions: formattingOf(existing) };
  const tree = treeOf(existing);
  const current = tree === undefined ? undefined : findNodeAtLocation(tree, [root, name]);
  // An object entry is updated key by key, and an object in it (env) entry by entry, so settings
  // the user added (env, ...) stay beside ours.
  const edits: [JSONPath, unknown][] = current?.type === 'object' ? [...entryEdits(current, [root, name], entry), ...retiredEdits(current, [root, name])] : [[[root, name], entry]];
  let text = existing;
  for (const [path, value] of edits) {
    text = applyEdits(text, modify(text, path, value, options));
  }
  const changed = JSON.stringify(valueAt(text, [root, name])) !== JSON.stringify(valueAt(existing, [root, name]));
  return { ok: true, text: changed ? text : existing, changed };
}

/** The edits that put `entry`'s values into the object `current` (at `path`), one key deep into objects both have. */
function entryEdits(current: Node, path: JSONPath, entry: McpStdioEntry): [JSONPath, unknown][] {
  return Object.entries(entry).flatMap(([key, value]): [JSONPath, unknown][] => {
    const existing = findNodeAtLocation(current, [key]);
    if (isObject(value) && existing?.type === 'object') {
      return Object.entries(value).map(([inner, innerValue]): [JSONPath, unknown] => [[...path, key, inner], innerValue]);
    }
    return [[[...path, key], value]];
  });
}

/**
 * What earlier versions wrote and this one takes out: `NODE_OPTIONS=--disable-sigusr1` stops npm
 * and npx on a Node older than 22.14 before the server can say which Node it needs (launch.ts).
 * Only that exact value goes; anything the user set stays.
 */
const RETIRED_ENV: Readonly<Record<string, string>> = { NODE_OPTIONS: '--disable-sigusr1' };

function retiredEdits(current: Node, path: JSONPath): [JSONPath, unknown][] {
  const env = findNodeAtLocation(current, ['env']);
  if (env?.type !== 'object') {
    return [];
  }
  const keys = (env.children ?? []).map((property) => property.children?.[0]?.value as unknown);
  const retired = Object.entries(RETIRED_ENV).filter(([key, value]) => findNodeAtLocation(env, [key])?.value === value).map(([key]) => key);
  if (retired.length === 0) {
    return [];
  }
  return retired.length === keys.length ? [[[...path, 'env'], undefined]] : retired.map((key): [JSONPath, unknown] => [[...path, 'env', key], undefined]);
}

/** Why the file cannot be edited safely: a syntax error, or a shape we would have to destroy. */
function refusalFor(text: string, root: ServersKey): MergeOutcome | undefined {
  const parsed = parseJsonc(text);
  const lines = new LineIndex(text);
  if (!parsed.ok) {
    return { ok: false, ...lines.position(parsed.error.offset), message: parsed.error.message };
  }
  if (!isObject(parsed.value)) {
    return { ok: false, line: 1, column: 1, message: 'the file must hold a JSON object' };
  }
  const servers = parsed.value[root];
  if (servers !== undefined && !isObject(servers)) {
    const tree = treeOf(text);
    const node = tree === undefined ? undefined : findNodeAtLocation(tree, [root]);
    return { ok: false, ...lines.position(node?.offset ?? 0), message: `"${root}" must be an object` };
  }
  return undefined;
}

function treeOf(text: string): Node | undefined {
  return parseTree(text, [], { allowTrailingComma: true });
}

/** The value at a path of a document that parses (undefined when absent). */
function valueAt(text: string, path: JSONPath): unknown {
  const parsed = parseJsonc(text);
  let value: unknown = parsed.ok ? parsed.value : undefined;
  for (const segment of path) {
    value = isObject(value) ? value[String(segment)] : undefined;
  }
  return value;
}

/** Indentation and line ends as the file already has them, so inserted lines blend in. */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent?.startsWith('\t')) {
    return { insertSpaces: false, tabSize: 1, eol };
  }
  return { insertSpaces: true, tabSize: indent === undefined ? 2 : indent.length, eol };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
