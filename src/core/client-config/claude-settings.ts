/**
 * `.claude/settings.json`, Claude Code's project settings: our read-only tools are added to
 * `permissions.allow` so Claude Code runs them without asking. Entries already there, other
 * settings, comments and formatting survive (jsonc-parser edits), and a file that does not parse,
 * or whose `permissions.allow` is not a list, is never overwritten.
 */
import { applyEdits, findNodeAtLocation, modify, parseTree } from 'jsonc-parser';
import { parseJsonc } from '../plugins/parse-jsonc';
import type { ToolDefinition } from '../types';
import { isReadOnly } from '../types';
import { LineIndex } from '../plugins/locate';
import type { MergeOutcome } from './mcp-json';
import { formattingOf } from './mcp-json';

/** The file, relative to the project's root folder. */
export const CLAUDE_SETTINGS_FILE = '.claude/settings.json';

/** `mcp__<server>__<tool>`: how Claude Code names an MCP server's tool. */
export function claudeToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** The Claude Code names of the read-only tools among `tools`, each once, in order. */
export function readOnlyToolNames(server: string, tools: readonly Pick<ToolDefinition, 'name' | 'tags'>[]): string[] {
  return [...new Set(tools.filter((tool) => isReadOnly(tool.tags)).map((tool) => claudeToolName(server, tool.name)))];
}

/** Adds each of `names` to `permissions.allow` that is not there yet (undefined: no file). */
export function mergeAllowedTools(existing: string | undefined, names: readonly string[]): MergeOutcome {
  if (existing === undefined || existing.trim() === '') {
    return { ok: true, text: `${JSON.stringify({ permissions: { allow: [...new Set(names)] } }, null, 2)}\n`, changed: names.length > 0 };
  }
  const parsed = parseJsonc(existing);
  const lines = new LineIndex(existing);
  if (!parsed.ok) {
    return { ok: false, ...lines.position(parsed.error.offset), message: parsed.error.message };
  }
  const root = parseTree(existing, [], { allowTrailingComma: true });
  const refusal = shapeProblem(parsed.value, (path) => lines.position((root === undefined ? undefined : findNodeAtLocation(root, path))?.offset ?? 0));
  if (refusal !== undefined) {
    return refusal;
  }
  const allow = (parsed.value as { permissions?: { allow?: unknown[] } }).permissions?.allow;
  const missing = [...new Set(names)].filter((name) => !(allow ?? []).includes(name));
  if (missing.length === 0) {
    return { ok: true, text: existing, changed: false };
  }
  const options = { formattingOptions: formattingOf(existing) };
  let text = existing;
  if (allow === undefined) {
    text = applyEdits(text, modify(text, ['permissions', 'allow'], missing, options));
  } else {
    for (const name of missing) {
      text = applyEdits(text, modify(text, ['permissions', 'allow', -1], name, { ...options, isArrayInsertion: true }));
    }
  }
  return { ok: true, text, changed: missing.length > 0 };
}

/** Why the document cannot take our entries without destroying something. */
function shapeProblem(value: unknown, position: (path: string[]) => { line: number; column: number }): MergeOutcome | undefined {
  if (!isObject(value)) {
    return { ok: false, line: 1, column: 1, message: 'the file must hold a JSON object' };
  }
  const permissions = value['permissions'];
  if (permissions !== undefined && !isObject(permissions)) {
    return { ok: false, ...position(['permissions']), message: '"permissions" must be an object' };
  }
  const allow = permissions?.['allow'];
  if (allow !== undefined && !Array.isArray(allow)) {
    return { ok: false, ...position(['permissions', 'allow']), message: '"permissions.allow" must be a list' };
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
