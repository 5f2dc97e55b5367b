/**
 * Where an editor answer's file lies in the workspace, by the project's one containment rule
 * (paths/containment.ts: real paths, symbolic links resolved): a file inside a workspace folder
 * becomes that folder's name and a relative path; any other file has no place, and what names
 * it is left out of the answer. The editor knows every file it has opened (a library's .d.ts, a
 * file behind a link out of the folder, another project): a definition or a hover must not
 * reveal them to a model that can see only the workspace.
 */
import type { ContainmentDeps } from '../paths/containment';
import { hostContainment, resolveContainedPath } from '../paths/containment';
import { isInside } from '../platform/path-rules';
import { ToolInputError } from '../tool-errors';
import type { WorkspaceFolder } from '../types';

/** A file inside a workspace folder: the folder's name and the path relative to it, `/`-separated. */
export interface WorkspacePlace {
  readonly folder: string;
  readonly path: string;
}

/** Places of files for one call; each file is looked up once. */
export class WorkspacePlaces {
  private readonly known = new Map<string, Promise<WorkspacePlace | undefined>>();

  constructor(
    private readonly folders: readonly WorkspaceFolder[],
    private readonly deps: ContainmentDeps = hostContainment(),
  ) {}

  /** The place of an absolute file path, or undefined when it is outside every workspace folder (or gone). */
  placeOf(file: string): Promise<WorkspacePlace | undefined> {
    let place = this.known.get(file);
    if (place === undefined) {
      place = this.find(file);
      this.known.set(file, place);
    }
    return place;
  }

  private async find(file: string): Promise<WorkspacePlace | undefined> {
    const { path } = this.deps.platform;
    for (const folder of this.folders) {
      // Lexically elsewhere: no need to ask the file system about it.
      if (!isInside(path.resolve(folder.path), path.resolve(file), this.deps.platform)) {
        continue;
      }
      try {
        const { real, realBase } = await resolveContainedPath(folder.path, file, this.deps);
        return { folder: folder.name, path: path.relative(realBase, real).split(path.sep).join('/') || '.' };
      } catch {
        // Outside through a link, or not a file on disk (deleted, untitled): no place.
      }
    }
    return undefined;
  }

  /**
   * The real path of a file the model named (relative to `folder`, or absolute inside it), for
   * the editor to open; a path outside the folder is the model's mistake.
   */
  async inputFile(folder: WorkspaceFolder, requested: string): Promise<string> {
    try {
      return (await resolveContainedPath(folder.path, requested, this.deps)).real;
    } catch (error) {
      throw new ToolInputError(error instanceof Error ? error.message : String(error));
    }
  }

  /** Whether an absolute path (as text, not asked of the file system) names something inside a workspace folder. */
  namesInside(file: string): boolean {
    const { path } = this.deps.platform;
    return this.folders.some((folder) => isInside(path.resolve(folder.path), path.resolve(file), this.deps.platform));
  }
}

/** What replaces a path outside the workspace in text the editor wrote (a hover). */
export const OUTSIDE_PATH = '<outside the workspace>';

/**
 * A URI whose path names a file: `file:` with one slash or three, and any other scheme a hover
 * may write (`vscode-userdata:`, `git:`, `vscode-remote://host`, `untitled:`), its path checked
 * as a file's. Schemes of one letter are Windows drives (WINDOWS_PATH); web URLs name no file.
 */
const PATH_URI = /(?<![\w+.-])([A-Za-z][A-Za-z0-9+.-]+):(?:\/\/[^\s/)\]'"`<>]*)?\/[^\s)\]'"`<>]*/g;
const WEB_SCHEMES = new Set(['http', 'https', 'ftp', 'ws', 'wss']);
/**
 * An absolute path in quotes (`module "/home/me/My Projects/x"`: the whole quoted text, spaces and
 * all), or else unquoted, after a space, a quote, a bracket or `=`; its names may hold any letter.
 * One pattern, so a quoted path is taken whole once and never read again cut at its spaces.
 */
const POSIX_PATH = /(["'`])(\/[^"'`\n]*\/[^"'`\n]*)\1|(?<![^\s"'`(<[{=,])\/(?:[^\s/\\"'`<>()[\]{}|,;]+\/)+[^\s/\\"'`<>()[\]{}|,;]*/gu;
const WINDOWS_PATH = /(?<![\w])[A-Za-z]:[\\/](?:[^\\/\s"'`<>|]+[\\/])+[^\\/\s"'`<>|]*/g;

/**
 * `text` with every absolute path and file-naming URI that names something outside the workspace
 * replaced by OUTSIDE_PATH. Decided on the text (no file system): a hover names modules and
 * files by path (`module "/home/me/other/x"`), which is what must not leave the editor. An
 * unquoted path with a space in a name is cut at the space: its first part is replaced.
 */
export function redactOutsidePaths(text: string, places: WorkspacePlaces): string {
  const keepInside = (file: string, written: string): string => (places.namesInside(file) ? written : OUTSIDE_PATH);
  return text
    .replace(PATH_URI, (uri: string, scheme: string) => (WEB_SCHEMES.has(scheme.toLowerCase()) ? uri : keepInside(fileOfUri(uri), uri)))
    .replace(WINDOWS_PATH, (file) => keepInside(file, file))
    .replace(POSIX_PATH, (found: string, quote: string | undefined, quoted: string | undefined) =>
      quote === undefined || quoted === undefined ? keepInside(found, found) : `${quote}${keepInside(quoted, quoted)}${quote}`);
}

/** The file path a URI names (its path, decoded; a Windows drive's without the leading slash). */
function fileOfUri(uri: string): string {
  try {
    const url = new URL(uri.replace(/#.*$/, ''));
    const decoded = decodeURIComponent(url.pathname);
    return /^\/[A-Za-z]:/.test(decoded) ? decoded.slice(1) : decoded;
  } catch {
    // Not a URI URL can read: its text from the first slash on, as a path (outside unless it is inside).
    return uri.slice(uri.indexOf('/'));
  }
}
