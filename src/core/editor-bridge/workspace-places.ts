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

const FILE_URI = /file:\/\/[^\s)\]'"`<>]+/g;
const POSIX_PATH = /(?<![\w.:/\\-])\/(?:[\w.@+~-]+\/)+[\w.@+~-]*/g;
const WINDOWS_PATH = /(?<![\w])[A-Za-z]:[\\/](?:[^\\/\s"'`<>|]+[\\/])+[^\\/\s"'`<>|]*/g;

/**
 * `text` with every absolute path and file URI that names something outside the workspace
 * replaced by OUTSIDE_PATH. Decided on the text (no file system): a hover names modules and
 * files by path (`module "/home/me/other/x"`), which is what must not leave the editor.
 */
export function redactOutsidePaths(text: string, places: WorkspacePlaces): string {
  const keepInside = (file: string, written: string): string => (places.namesInside(file) ? written : OUTSIDE_PATH);
  return text
    .replace(FILE_URI, (uri) => keepInside(fileOfUri(uri), uri))
    .replace(WINDOWS_PATH, (file) => keepInside(file, file))
    .replace(POSIX_PATH, (file) => keepInside(file, file));
}

function fileOfUri(uri: string): string {
  try {
    const url = new URL(uri.replace(/#.*$/, ''));
    const decoded = decodeURIComponent(url.pathname);
    return /^\/[A-Za-z]:/.test(decoded) ? decoded.slice(1) : decoded;
  } catch {
    return uri;
  }
}
