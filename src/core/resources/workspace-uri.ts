/**
 * The URIs a plugin resource has when its entry names none.
 *
 * A workspace file is `workspace-tools://file/<folder name>/<path>` (each segment
 * percent-encoded), not `file:///abs/path`: the URI must be stable (the same in every clone, on
 * every machine, so a client's saved reference or subscription still works and no home directory
 * leaks into chat), and it must make the client read through the server, which enforces
 * approval, containment and the size cap; a client handed a `file:` URI may read the disk itself.
 * The folder name keeps two folders' `README.md` apart. The scheme is the one the kept large
 * outputs already use (`workspace-tools://output/<id>`). A command's output is
 * `workspace-tools://resource/<plugin name>/<resource name>`.
 */
import type { WorkspaceFolder } from '../types';

export const FILE_URI_PREFIX = 'workspace-tools://file/';
export const COMMAND_URI_PREFIX = 'workspace-tools://resource/';

/** The URI of `relativePath` (with `/` separators) in `folder`. */
export function workspaceFileUri(folder: WorkspaceFolder, relativePath: string): string {
  return `${FILE_URI_PREFIX}${[folder.name, ...relativePath.split('/')].map(encodeURIComponent).join('/')}`;
}

/** The folder name and relative path a workspace file URI names, or undefined for another URI. */
export function parseWorkspaceFileUri(uri: string): { readonly folderName: string; readonly relativePath: string } | undefined {
  if (!uri.startsWith(FILE_URI_PREFIX)) {
    return undefined;
  }
  try {
    const [folderName, ...segments] = uri.slice(FILE_URI_PREFIX.length).split('/').map(decodeURIComponent);
    // A segment that decodes to a separator, or a "." or "..", would be a path the URI does not show.
    if (folderName === undefined || segments.length === 0 || segments.some((segment) => segment === '' || segment === '.' || segment === '..' || /[\\/]/.test(segment))) {
      return undefined;
    }
    return { folderName, relativePath: segments.join('/') };
  } catch {
    return undefined;
  }
}

/** The URI of a command resource that names none. */
export function commandUri(pluginName: string, name: string): string {
  return `${COMMAND_URI_PREFIX}${encodeURIComponent(pluginName)}/${encodeURIComponent(name)}`;
}
