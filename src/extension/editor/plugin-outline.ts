/**
 * What the editor features of a plugin file (CodeLens, hovers) need to know about its text:
 * where each tool starts, whether it declares tests, its input properties, and every
 * `{{placeholder}}` with its place. Read from the document's current text (unsaved edits too)
 * with jsonc-parser's error-tolerant tree; no `vscode` import, so it is tested in plain Node.
 */
import type { Node } from 'jsonc-parser';
import { findNodeAtLocation, getNodeValue, parseTree } from 'jsonc-parser';

/** One `{{name}}` in a tool's strings, by offset in the file. */
export interface PlaceholderAt {
  readonly name: string;
  readonly offset: number;
  readonly length: number;
}

/** One tool of a plugin file as written. */
export interface ToolOutline {
  readonly name: string;
  /** Offset of the tool's `{`. */
  readonly offset: number;
  readonly hasTests: boolean;
  /** `inputSchema.properties` as written (undefined without an inputSchema: an alias, a file-read tool). */
  readonly properties: Readonly<Record<string, unknown>> | undefined;
  readonly required: readonly string[];
  readonly placeholders: readonly PlaceholderAt[];
}

/**
 * The placeholder syntax of src/core/templates/placeholders.ts (an input property, or an earlier
 * step's output): keep the two in step.
 */
const PLACEHOLDER = /\{\{\s*(steps\.[a-zA-Z0-9_-]+\.(?:stdout|exitCode)|[a-zA-Z0-9_-]+)\s*\}\}/g;

/** The tools of a plugin file's text, in order; tools without a string `name` are left out. */
export function outlinePluginFile(text: string): ToolOutline[] {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const tools = root === undefined ? undefined : findNodeAtLocation(root, ['tools']);
  if (tools?.type !== 'array') {
    return [];
  }
  return (tools.children ?? []).flatMap((tool) => {
    const outline = toolOutline(tool, text);
    return outline === undefined ? [] : [outline];
  });
}

function toolOutline(tool: Node, text: string): ToolOutline | undefined {
  const name = valueAt(tool, ['name']);
  if (tool.type !== 'object' || typeof name !== 'string') {
    return undefined;
  }
  const properties = valueAt(tool, ['inputSchema', 'properties']);
  const required = valueAt(tool, ['inputSchema', 'required']);
  const tests = valueAt(tool, ['tests']);
  return {
    name,
    offset: tool.offset,
    hasTests: Array.isArray(tests) && tests.length > 0,
    properties: isRecord(properties) ? properties : undefined,
    required: Array.isArray(required) ? required.filter((entry): entry is string => typeof entry === 'string') : [],
    placeholders: placeholdersIn(tool, text),
  };
}

function valueAt(node: Node, path: (string | number)[]): unknown {
  const found = findNodeAtLocation(node, path);
  return found === undefined ? undefined : (getNodeValue(found) as unknown);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every placeholder in the string values (not the keys) of the tool's handler or steps, from the raw text. */
function placeholdersIn(tool: Node, text: string): PlaceholderAt[] {
  const found: PlaceholderAt[] = [];
  const visit = (node: Node): void => {
    const isKey = node.parent?.type === 'property' && node.parent.children?.[0] === node;
    if (node.type === 'string' && !isKey) {
      collect(node, text, found);
    }
    for (const child of node.children ?? []) {
      visit(child);
    }
  };
  for (const key of ['handler', 'steps']) {
    const node = findNodeAtLocation(tool, [key]);
    if (node !== undefined) {
      visit(node);
    }
  }
  return found;
}

function collect(node: Node, text: string, into: PlaceholderAt[]): void {
  const raw = text.slice(node.offset, node.offset + node.length);
  for (const match of raw.matchAll(PLACEHOLDER)) {
    into.push({ name: match[1] ?? '', offset: node.offset + (match.index ?? 0), length: match[0].length });
  }
}

/** The tool and placeholder at `offset` (inside the braces), if there is one. */
export function placeholderAt(tools: readonly ToolOutline[], offset: number): { readonly tool: ToolOutline; readonly placeholder: PlaceholderAt } | undefined {
  for (const tool of tools) {
    const placeholder = tool.placeholders.find((candidate) => offset >= candidate.offset && offset < candidate.offset + candidate.length);
    if (placeholder !== undefined) {
      return { tool, placeholder };
    }
  }
  return undefined;
}

/**
 * The hover of a placeholder (Markdown): the input property it reads, with its type, whether it
 * is required, its default and description; or what an earlier step's value is; or that it
 * names nothing (a load error). `properties` are the tool's as written, else the loaded tool's
 * (an alias's come from its base).
 */
export function placeholderHover(name: string, properties: Readonly<Record<string, unknown>> | undefined, required: readonly string[]): string {
  const step = /^steps\.([a-zA-Z0-9_-]+)\.(stdout|exitCode)$/.exec(name);
  if (step !== null) {
    return step[2] === 'stdout'
      ? `\`{{${name}}}\`: the standard output of the earlier step \`${step[1]}\` (trailing newlines removed), as one value.`
      : `\`{{${name}}}\`: the exit code of the earlier step \`${step[1]}\`.`;
  }
  const property = properties?.[name];
  if (property === undefined) {
    const declared = Object.keys(properties ?? {});
    return `\`{{${name}}}\` names no property of \`inputSchema.properties\` (declared: ${declared.length > 0 ? declared.map((entry) => `\`${entry}\``).join(', ') : 'none'}): the tool does not load until it does.`;
  }
  const spec = isRecord(property) ? property : {};
  const type = Array.isArray(spec.type) ? spec.type.join(' | ') : typeof spec.type === 'string' ? spec.type : Array.isArray(spec.enum) ? 'enum' : 'any';
  const facts = [`*${type}*`, required.includes(name) ? 'required' : 'optional'];
  if ('default' in spec) {
    facts.push(`default \`${JSON.stringify(spec.default)}\``);
  }
  if (Array.isArray(spec.enum)) {
    facts.push(`one of ${spec.enum.map((value) => `\`${JSON.stringify(value)}\``).join(', ')}`);
  }
  const lines = [`\`{{${name}}}\` reads the input property \`${name}\`: ${facts.join(', ')}`];
  if (typeof spec.description === 'string') {
    lines.push(spec.description);
  }
  return lines.join('\n\n');
}
