/**
 * Quick fixes on a `{{name}}` placeholder (pure: no `vscode` import):
 * - one that names no input property: declare it, as a required string in the tool's
 *   `inputSchema` (created when the tool has none);
 * - one in a `script` (whose text never receives values): read it as `"$INPUT_NAME"`, declaring
 *   it first when it is undeclared.
 */
import type { Node } from 'jsonc-parser';
import { applyEdits, findNodeAtLocation, findNodeAtOffset, getNodePath, getNodeValue, modify, parseTree } from 'jsonc-parser';
import { inputEnvName } from '../../core/handlers/shell/values';
import type { QuickFix } from './fix-edits';
import { declaredNames, singleEdit } from './fix-edits';

/** The placeholder syntax for input properties (steps.X.stdout is not declared: no fix). */
const PLACEHOLDER = /\{\{\s*([a-zA-Z0-9_-]+)\s*\}\}/g;

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** Handler types whose input schema is their own (file-read): nothing to declare. */
const FIXED_INPUT = new Set(['file-read']);

/** The quick fixes for the placeholder at `offset`, if the offset is inside one. */
export function placeholderFixes(text: string, root: Node, offset: number): QuickFix[] {
  const node = findNodeAtOffset(root, offset, true);
  const found = node?.type === 'string' ? placeholderIn(text, node, offset) : undefined;
  const path = node === undefined ? [] : getNodePath(node);
  if (node === undefined || found === undefined || path[0] !== 'tools' || typeof path[1] !== 'number' || !inHandlerOrSteps(path)) {
    return [];
  }
  const toolPath = path.slice(0, 2);
  const tool = findNodeAtLocation(root, toolPath);
  if (tool === undefined || findNodeAtLocation(tool, ['alias']) !== undefined || FIXED_INPUT.has(String(valueAt(tool, ['handler', 'type'])))) {
    return [];
  }
  const declared = declaredNames(node).includes(found);
  const inScript = path.at(-1) === 'script';
  const fixes: QuickFix[] = [];
  if (!declared) {
    const after = declare(text, toolPath, tool, found);
    const toolName = valueAt(tool, ['name']);
    fixes.push({ title: `Declare "${found}" as a parameter of ${typeof toolName === 'string' ? toolName : 'this tool'}`, edits: [singleEdit(text, inScript ? readAsVariable(after, path, found) : after)] });
  } else if (inScript) {
    fixes.push({ title: `Read {{${found}}} as "$${inputEnvName(found)}"`, edits: [singleEdit(text, readAsVariable(text, path, found))] });
  }
  return fixes;
}

/** The name of the placeholder whose text (in the string `node`) holds `offset`. */
function placeholderIn(text: string, node: Node, offset: number): string | undefined {
  const raw = text.slice(node.offset, node.offset + node.length);
  for (const match of raw.matchAll(PLACEHOLDER)) {
    const start = node.offset + (match.index ?? 0);
    if (offset >= start && offset < start + match[0].length) {
      return match[1];
    }
  }
  return undefined;
}

/** Placeholders count in a tool's handler and its steps (tests and descriptions are other text). */
function inHandlerOrSteps(path: readonly (string | number)[]): boolean {
  return path[2] === 'handler' || path[2] === 'steps';
}

function valueAt(node: Node, path: (string | number)[]): unknown {
  const found = findNodeAtLocation(node, path);
  return found === undefined ? undefined : (getNodeValue(found) as unknown);
}

/**
 * `text` with `name` declared as a required string input property of the tool at `toolPath`:
 * written beside what is there, in its layout, leaving the rest of the file as it was.
 */
function declare(text: string, toolPath: (string | number)[], tool: Node, name: string): string {
  const property = `${JSON.stringify(name)}: { "type": "string", "description": "" }`;
  const schema = findNodeAtLocation(tool, ['inputSchema']);
  if (schema === undefined) {
    // where a person writes it: before the tags and the handler (or the steps)
    const before = (keys: string[]): number => {
      const at = keys.findIndex((key) => key === 'handler' || key === 'steps' || key === 'tags');
      return at === -1 ? keys.length : at;
    };
    const value = { type: 'object', properties: { [name]: { type: 'string', description: '' } }, required: [name] };
    return applyEdits(text, modify(text, [...toolPath, 'inputSchema'], value, { ...FORMAT, getInsertionIndex: before }));
  }
  const properties = findNodeAtLocation(schema, ['properties']);
  const last = properties?.type === 'object' ? properties.children?.at(-1) : undefined;
  let result = last === undefined ? applyEdits(text, modify(text, [...toolPath, 'inputSchema', 'properties', name], { type: 'string', description: '' }, FORMAT)) : insertAfter(text, last, property);
  const root = parseTree(result, [], { allowTrailingComma: true, disallowComments: false });
  const required = root === undefined ? undefined : findNodeAtLocation(root, [...toolPath, 'inputSchema', 'required']);
  const entries = required?.type === 'array' ? (required.children ?? []) : undefined;
  const lastEntry = entries?.at(-1);
  if (entries?.some((entry) => entry.value === name) === true) {
    return result;
  }
  if (lastEntry !== undefined) {
    return insertAfter(result, lastEntry, JSON.stringify(name));
  }
  const propertiesAfter = root === undefined ? undefined : findNodeAtLocation(root, [...toolPath, 'inputSchema', 'properties'])?.parent;
  result = required === undefined && propertiesAfter !== undefined
    ? insertAfter(result, propertiesAfter, `"required": [${JSON.stringify(name)}]`)
    : applyEdits(result, modify(result, [...toolPath, 'inputSchema', 'required'], [name], FORMAT));
  return result;
}

/**
 * `text` with `entry` written after the node `after` (a property or an array element), as its
 * siblings are: on the same line when they share one, else on a new line at the same indentation.
 */
function insertAfter(text: string, after: Node, entry: string): string {
  const lineStart = text.lastIndexOf('\n', after.offset - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
  const parentStart = after.parent?.type === 'property' ? (after.parent.parent?.offset ?? 0) : (after.parent?.offset ?? 0);
  const sameLine = !text.slice(parentStart, after.offset).includes('\n');
  const end = after.offset + after.length;
  return `${text.slice(0, end)}${sameLine ? ', ' : `,\n${indent}`}${entry}${text.slice(end)}`;
}

/** `text` with every `{{name}}` of the script at `path` read as `"$INPUT_NAME"` instead. */
function readAsVariable(text: string, path: (string | number)[], name: string): string {
  // The text as it is after the declaration: parsed again to find the script where it now is.
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const parsed = root === undefined ? undefined : findNodeAtLocation(root, path);
  const script = parsed === undefined ? undefined : (getNodeValue(parsed) as unknown);
  if (typeof script !== 'string') {
    return text;
  }
  const replaced = script.replace(PLACEHOLDER, (match, found: string) => (found === name ? `"$${inputEnvName(name)}"` : match));
  return applyEdits(text, modify(text, path, replaced, FORMAT));
}
