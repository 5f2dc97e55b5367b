/**
 * Text the tools view writes or pre-fills for the user: the "New Plugin File" template, and the
 * sample input of "Run Tool". Pure, so the template is tested to load without a problem.
 */
import type { ImportEntry } from '../../core/imports/import-entry';
import type { JsonObjectSchema, JsonSchema } from '../../core/types';

/** What a new plugin file may be called: its name becomes `.vscode/tools/<name>.json`. */
export const PLUGIN_FILE_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

/** Long enough for any sensible name, short enough that `<name>-todos` is a valid tool name. */
const MAX_FILE_NAME_LENGTH = 48;

/** Why `name` cannot name a new plugin file, or undefined when it can. */
export function validatePluginFileName(name: string): string | undefined {
  if (name.length === 0) {
    return 'Enter a name for the plugin file.';
  }
  if (!PLUGIN_FILE_NAME_PATTERN.test(name)) {
    return 'Use only letters, digits, "-" and "_" (the file becomes .vscode/tools/<name>.json).';
  }
  if (name.length > MAX_FILE_NAME_LENGTH) {
    return `Use at most ${MAX_FILE_NAME_LENGTH} characters.`;
  }
  return undefined;
}

/**
 * A new plugin file: JSON with comments that explain the format, and one working read-only
 * tool. No `$schema` property: the extension's `jsonValidation` already applies the schema to
 * `.vscode/tools/*.json`, and a path into the installed extension would break on every update
 * and leak a local path into the team's repository.
 */
export function pluginFileTemplate(name: string): string {
  return `// Tools for AI chat in this workspace (Workspace Tools extension).
// Chat (Copilot agent mode) and MCP clients can use these tools once you approve this file in
// the Workspace Tools view; an edit that changes what they run (not a comment or a description)
// waits for your approval again.
// The editor checks this file as you type: press Ctrl+Space for suggestions.
{
  "name": ${JSON.stringify(name)},
  "version": "1.0.0",
  "tools": [
    {
      // Unique across all tools: letters, digits, "-" and "_".
      "name": ${JSON.stringify(`${name}-todos`)},
      // Written for the AI model: what the tool does and what it returns.
      "description": "Find TODO comments in the workspace's files. Returns one 'file:line: text' line per match.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "pattern": { "type": "string", "description": "Text to search for", "default": "TODO" },
          "path": { "type": "string", "description": "File or folder to search, relative to the workspace folder", "default": "." }
        }
      },
      // read | write | execute | network: tools not tagged "read" ask before they run.
      "tags": ["read"],
      "handler": {
        "type": "shell",
        // An argv array, run without a shell: a {{placeholder}} is always exactly one argument.
        "command": ["git", "grep", "-n", "-I", "-e", "{{pattern}}", "--", "{{path}}"],
        "timeout": 10000,
        "exitCodes": [0, 1] // git grep exits with 1 when nothing matches
      }
    }
  ]
}
`;
}

/**
 * A new plugin file that serves tasks the workspace already declares (New Plugin File's "Import
 * tasks/scripts"): its `import` section, one entry per source, with comments that say what each
 * key does and what approving it means. Pure, so it is tested to load the chosen tasks and nothing else.
 */
export function importPluginFileTemplate(name: string, entries: readonly ImportEntry[]): string {
  const entry = (value: ImportEntry): string => {
    const parts = [`"from": ${JSON.stringify(value.from)}`, ...(value.include === undefined ? [] : [`"include": [${value.include.map((task) => JSON.stringify(task)).join(', ')}]`])];
    return `    { ${parts.join(', ')} }`;
  };
  return `// Tasks this workspace already declares, served as tools for AI chat (Workspace Tools extension).
// Each "import" entry reads one source: "tasks" (.vscode/tasks.json), "npm-scripts" (package.json),
// "make" (the Makefile), "just" (the justfile). "include" picks tasks by their names, "exclude"
// leaves some out, "prefix" replaces the tool names' prefix (task-, npm-, make-, just-).
// Chat and MCP clients can use these tools once you approve this file in the Workspace Tools view.
// Approving it approves what the sources run: an edit of one of them waits for your approval again.
{
  "name": ${JSON.stringify(name)},
  "import": [
${entries.map(entry).join(',\n')}
  ]
}
`;
}

/**
 * A starting input for "Run Tool": each property's default, else an empty value of its type
 * for required properties; optional properties without a default are left out.
 */
export function sampleInput(schema: JsonObjectSchema): Record<string, unknown> {
  const required = new Set(schema.required ?? []);
  const sample: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = sampleValue(property, required.has(name));
    if (value !== undefined) {
      sample[name] = value;
    }
  }
  return sample;
}

function sampleValue(property: JsonSchema, required: boolean): unknown {
  if (typeof property !== 'object') {
    return required ? '' : undefined;
  }
  if ('default' in property) {
    return property.default;
  }
  if (!required) {
    return undefined;
  }
  if (Array.isArray(property.enum) && property.enum.length > 0) {
    return property.enum[0] as unknown;
  }
  return emptyValueOf(Array.isArray(property.type) ? (property.type[0] as unknown) : property.type);
}

function emptyValueOf(type: unknown): unknown {
  switch (type) {
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    case 'null':
      return null;
    default:
      return '';
  }
}

/** Input typed by the user for "Run Tool": a JSON object, or a message that says what to fix. */
export type ParsedToolInput =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

/** Parses the "Run Tool" input box's text. Empty text means no arguments. */
export function parseToolInput(text: string): ParsedToolInput {
  if (text.trim() === '') {
    return { ok: true, value: {} };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `Not valid JSON (${reason}). Write an object such as {"name": "value"}.` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'The input must be a JSON object such as {"name": "value"}.' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
