import * as path from 'node:path';
import { ToolInputError } from '../tool-errors';
import type { WorkspaceFolder } from '../types';

/**
 * Picks the workspace folder a call is pointed at: by name, by absolute path, or by index
 * (`"0"`, `"1"`); the first folder when none is given. Throws a message for the model
 * that lists the folders it could have named.
 */
export function resolveFolder(
  requested: unknown,
  folders: readonly WorkspaceFolder[],
): WorkspaceFolder {
  const first = folders[0];
  if (first === undefined) {
    throw new Error('No workspace folder is open.');
  }
  if (requested === undefined || requested === null || requested === '') {
    return first;
  }
  const wanted = typeof requested === 'string' ? requested : JSON.stringify(requested);
  const match =
    folders.find((folder) => folder.name === wanted) ??
    folders.find((folder) => path.resolve(folder.path) === path.resolve(wanted)) ??
    (/^\d+$/.test(wanted) ? folders[Number(wanted)] : undefined);
  if (match === undefined) {
    const known = folders.map((folder) => `"${folder.name}" (${folder.path})`).join(', ');
    throw new ToolInputError(`Unknown workspace folder "${wanted}". Use one of: ${known}.`);
  }
  return match;
}

/** The JSON Schema of the optional `folder` parameter every built-in tool accepts. */
export const FOLDER_PROPERTY = {
  type: 'string',
  description:
    'Workspace folder to use, by name, absolute path or index (multi-root workspaces). Default: the first folder.',
} as const;
