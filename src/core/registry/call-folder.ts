/**
 * Which workspace folder a call ran in, named in its result, so a client (and a person reading
 * its log) can tell which checkout answered: a session in a linked worktree gets the worktree's
 * answers, and the result says so. One place for every tool, built-in or plugin: the pipeline
 * (call-pipeline.ts) puts it on every result that ran; a result with data also has it in its
 * data, as `workspaceFolder`, and every tool's advertised output schema allows that key.
 *
 * Text-only results do not get data for it: Claude Code and VS Code show a model a result's data
 * instead of its text when it has data (anthropics/claude-code#54450, #79944), so a result that
 * had only text would lose it. The MCP door names their folder in the result's `_meta`.
 */
import * as path from 'node:path';
import { resolveFolder } from '../builtins/folder';
import type { JsonObjectSchema, ToolDefinition, ToolInput, ToolResult, WorkspaceFolder } from '../types';

/** The key of the folder in a result's data. */
export const FOLDER_KEY = 'workspaceFolder';

/**
 * The absolute path of the folder a call of `definition` with `input` runs in: a built-in's
 * `folder` input (the first folder by default); a plugin tool's own folder, the workspace folder
 * that holds its plugin file (the first folder for a file of an extra plugin directory).
 * Undefined when it cannot be told (a folder input that names none: the tool says so itself).
 */
export function folderOfCall(definition: Pick<ToolDefinition, 'source'>, input: ToolInput, folders: readonly WorkspaceFolder[]): string | undefined {
  if (definition.source.kind === 'builtin') {
    try {
      return resolveFolder(input['folder'], folders).path;
    } catch {
      return undefined;
    }
  }
  const file = definition.source.file;
  const holding = folders
    .filter((folder) => isInside(file, folder.path))
    .sort((a, b) => b.path.length - a.path.length)[0];
  return (holding ?? folders[0])?.path;
}

/** `result` with its folder: on the result, and in its data when it has data (a key the tool set itself is kept). */
export function withFolder<T extends ToolResult>(result: T, folder: string | undefined): T & { readonly folder?: string } {
  if (folder === undefined) {
    return result;
  }
  const structured = result.structured === undefined || FOLDER_KEY in result.structured ? result.structured : { ...result.structured, [FOLDER_KEY]: folder };
  return { ...result, folder, ...(structured === undefined ? {} : { structured }) };
}

/** A tool's output schema that also allows the folder key (a schema closed with `additionalProperties: false` included). */
export function withFolderProperty(schema: JsonObjectSchema): JsonObjectSchema {
  if (schema.properties?.[FOLDER_KEY] !== undefined) {
    return schema;
  }
  return { ...schema, properties: { ...schema.properties, [FOLDER_KEY]: { type: 'string', description: 'The workspace folder the tool ran in (absolute path).' } } };
}

function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
