/**
 * Quick fixes in a plugin file, worked out from its text (pure: no `vscode` import):
 * - an unknown property with a likely intended name ("commnd") is renamed to it ("command");
 * - a string `command` with a shell operator (a pipe, `&&`, `>`) becomes a `script`, whose
 *   declared `{{name}}` placeholders become the `"$INPUT_NAME"` variables a script gets its
 *   values from (an undeclared one stays, so it is still reported);
 * - a `{{name}}` that names no input property is declared as one (placeholders.ts);
 * - a handler `type` that is not one ("bash", "shel", "fetch") becomes the type most likely meant.
 * The allowed names come from the plugin file schema, the same file the loader validates with.
 */
import type { Node } from 'jsonc-parser';
import { findNodeAtLocation, findNodeAtOffset, getNodePath, parseTree } from 'jsonc-parser';
import schema from '../../../schemas/tool-plugin.schema.json';
import { splitCommandLine } from '../../core/handlers/shell/command-line';
import { inputEnvName } from '../../core/handlers/shell/values';
import { closestName, likelyValue } from '../../core/plugins/likely-value';
import type { QuickFix } from './fix-edits';
import { declaredNames } from './fix-edits';
import { placeholderFixes } from './placeholder-fixes';

export type { QuickFix, TextEdit } from './fix-edits';

interface SchemaObject {
  readonly properties?: Readonly<Record<string, unknown>>;
}
const DEFINITIONS = (schema as { definitions: Readonly<Record<string, SchemaObject>> }).definitions;
const namesOf = (definition: SchemaObject | undefined): string[] => Object.keys(definition?.properties ?? {});
/** The handler types (`shell`, `http`, ...), as the schema lists them. */
const HANDLER_TYPES = ((DEFINITIONS['handler']?.properties?.['type'] as { enum?: unknown } | undefined)?.enum ?? []) as readonly string[];
const HANDLER_KEYS: Readonly<Record<string, readonly string[]>> = {
  shell: namesOf(DEFINITIONS['shellHandler']),
  http: namesOf(DEFINITIONS['httpHandler']),
  'file-read': namesOf(DEFINITIONS['fileReadHandler']),
};

/** The quick fixes at `offset`: for the property there (its name or its value) and the placeholder there. */
export function quickFixesAt(text: string, offset: number): QuickFix[] {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const node = root === undefined ? undefined : findNodeAtOffset(root, offset, true);
  if (root === undefined) {
    return [];
  }
  const property = propertyOf(node);
  const propertyFixes = property === undefined ? [] : [...renameFix(property), ...scriptFix(property), ...handlerTypeFix(property)];
  return [...propertyFixes, ...placeholderFixes(text, root, offset)];
}

/** The property a node belongs to (the node is its name, its value, or the property). */
function propertyOf(node: Node | undefined): Node | undefined {
  if (node?.type === 'property') {
    return node;
  }
  return node?.parent?.type === 'property' ? node.parent : undefined;
}

/** The names allowed in the object holding `property`, when the file's structure says which. */
function allowedNames(object: Node): readonly string[] | undefined {
  const path = getNodePath(object);
  const last = path.at(-1);
  if (path.length === 0) {
    return namesOf(schema);
  }
  if (path[0] !== 'tools') {
    return undefined;
  }
  if (path.length === 2) {
    return namesOf(DEFINITIONS['tool']);
  }
  if (path.length === 4 && path[2] === 'steps') {
    return namesOf(DEFINITIONS['step']);
  }
  if (last === 'handler') {
    const type = findNodeAtLocation(object, ['type']);
    return typeof type?.value === 'string' ? HANDLER_KEYS[type.value] : undefined;
  }
  return undefined;
}

function renameFix(property: Node): QuickFix[] {
  const key = property.children?.[0];
  const object = property.parent;
  if (key?.type !== 'string' || typeof key.value !== 'string' || object?.type !== 'object') {
    return [];
  }
  const allowed = allowedNames(object);
  if (allowed === undefined || allowed.includes(key.value)) {
    return [];
  }
  const guess = closestName(key.value, allowed);
  return guess === undefined ? [] : [{ title: `Change "${key.value}" to "${guess}"`, edits: [{ offset: key.offset, length: key.length, newText: JSON.stringify(guess) }] }];
}

/** `"type": "bash"` in a handler: the handler type it most likely means ("shell"). */
function handlerTypeFix(property: Node): QuickFix[] {
  const [key, value] = property.children ?? [];
  const handler = property.parent;
  if (key?.value !== 'type' || value?.type !== 'string' || typeof value.value !== 'string' || handler === undefined || HANDLER_TYPES.includes(value.value)) {
    return [];
  }
  const path = getNodePath(value);
  const guess = likelyValue(path, value.value, HANDLER_TYPES);
  if (path.at(-2) !== 'handler' || guess === undefined) {
    return [];
  }
  return [{ title: `Change "${value.value}" to "${guess}"`, edits: [{ offset: value.offset, length: value.length, newText: JSON.stringify(guess) }] }];
}

function scriptFix(property: Node): QuickFix[] {
  const [key, value] = property.children ?? [];
  const handler = property.parent;
  if (key?.value !== 'command' || value?.type !== 'string' || typeof value.value !== 'string' || handler === undefined || getNodePath(handler).at(-1) !== 'handler') {
    return [];
  }
  const type = findNodeAtLocation(handler, ['type']);
  const split = splitCommandLine(value.value);
  if (type?.value !== 'shell' || split.ok || !split.message.includes('shell operator') || findNodeAtLocation(handler, ['script']) !== undefined) {
    return [];
  }
  const declared = declaredNames(handler);
  // An undeclared placeholder stays as it is: "$INPUT_X" would hide it (empty at run time).
  const script = value.value.replace(/\{\{\s*([a-zA-Z0-9_-]+)\s*\}\}/g, (match, name: string) => (declared.includes(name) ? `"$${inputEnvName(name)}"` : match));
  return [
    {
      title: 'Convert to "script" (run by a shell; values become $INPUT_ variables)',
      edits: [{ offset: key.offset, length: value.offset + value.length - key.offset, newText: `"script": ${JSON.stringify(script)}` }],
    },
  ];
}
