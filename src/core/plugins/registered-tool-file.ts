/**
 * Tools that another VS Code extension registers through the extension API: the definitions
 * are plugin-file tools, written as one plugin file per registration into a directory the
 * extension host and the MCP server it starts both load (an extra plugin directory). So they
 * are checked by the same loader, run by the same handlers, listed by both doors, and approved
 * like any plugin file. This module is the pure part: the file's name and text.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { WorkspaceFolder } from '../types';
import { formatDiagnostic } from '../types';
import { loadPluginFile } from './load-plugin-file';

/** What a caller gives besides the definitions. */
export interface RegisterToolsOptions {
  /** The calling extension's id (publisher.name): the file is named after it. */
  readonly extensionId: string;
  /** The collection name shown in the tools view; default: the extension's display name. */
  readonly name?: string;
  readonly description?: string;
}

/** An extension id or collection name as a file name part: letters, digits, `.`, `_`, `-`. */
function slug(text: string): string {
  return text.replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 100) || 'tools';
}

/**
 * The file of one registration: `<extension id>.json`, or `<extension id>.<name>.json` for a
 * named collection. Stable across sessions, so an approval of the same content still holds.
 */
export function registeredFileName(options: RegisterToolsOptions): string {
  return options.name === undefined ? `${slug(options.extensionId)}.json` : `${slug(options.extensionId)}.${slug(options.name)}.json`;
}

/**
 * The plugin file text for `definitions` (an array of plugin-file tools), checked by the loader
 * that will load it: the text, or every problem (the registration is refused whole, so a caller
 * never has half its tools).
 */
export function registeredFileText(
  definitions: unknown,
  collectionName: string,
  description: string | undefined,
  file: string,
  folder: WorkspaceFolder,
): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problems: readonly string[] } {
  if (!Array.isArray(definitions) || definitions.length === 0) {
    return { ok: false, problems: ['registerTools takes a non-empty array of tool definitions (the "tools" of a plugin file).'] };
  }
  const text = `${JSON.stringify({ name: collectionName, ...(description === undefined ? {} : { description }), tools: definitions }, null, 2)}\n`;
  const loaded = loadPluginFile(file, text, folder);
  if (loaded.diagnostics.length > 0) {
    const base = path.basename(file);
    return { ok: false, problems: loaded.diagnostics.map((diagnostic) => formatDiagnostic({ ...diagnostic, file: base })) };
  }
  return { ok: true, text };
}

/**
 * Empties the registered-tools directory of what a past session left (registrations last one
 * session), creating it if absent. Only files and links go, a link itself and never what it
 * points to; anything else (a folder someone put there) stays, rather than failing the load
 * that follows.
 */
export function clearRegisteredLeftovers(directory: string): void {
  mkdirSync(directory, { recursive: true });
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.isFile() || entry.isSymbolicLink()) {
      rmSync(path.join(directory, entry.name), { force: true });
    }
  }
}
