/**
 * The I/O half of plugin loading: list each plugin directory, read its `*.json` files and load
 * each one on its own, so one unreadable or broken file never stops the others.
 */
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { readBoundedFile } from '../files/read-bounded';
import { errorCode } from '../paths/containment';
import type { SourceFileEntry, SourceFiles } from '../files/source-file';
import type { WorkspaceFolder } from '../types';
import { contentHashOf, defaultPluginName, loadPluginFileInTurns } from './load-plugin-file';
import type { PluginDirectory, PluginFile } from './plugin-file';
import { pluginContentHash, readPluginSources } from './plugin-sources';
import { readPluginImports, type ImportHost, type PluginImports } from './imported-tools';
import { readProgramFiles, withProgramFiles } from './program-files';

/**
 * Largest plugin file read, in bytes. Real ones are a few KB (1,000 tools is ~1 MB); the cap keeps
 * a file the model wrote (or a symlink to /dev/zero) from filling memory on every reload.
 */
export const MAX_PLUGIN_FILE_BYTES = 4 * 1024 * 1024;

/** Errors that mean "there is no plugin directory here": not a problem, just no plugins. */
const ABSENT = new Set(['ENOENT', 'ENOTDIR']);

/**
 * Loads every `*.json` file of `directories`: directories in the order given, files in each by
 * plain code-unit order of their names (not localeCompare, whose result depends on the machine's
 * locale: the first of two duplicate tool names wins, so the order must be the same everywhere).
 * Files are read concurrently: reading 100 files this way takes a few ms and, unlike sync reads,
 * never blocks the extension host. A missing directory yields nothing; a directory or file that
 * cannot be read yields an entry with no tools and one diagnostic.
 */
export async function loadPluginDirectories(
  directories: readonly PluginDirectory[],
  cache: PluginFileCache = new PluginFileCache(),
  host: ImportHost = { env: {} },
): Promise<PluginFile[]> {
  const perDirectory = await Promise.all(directories.map((directory) => loadDirectory(directory, cache, host)));
  cache.endLoad();
  return perDirectory.flat();
}

/**
 * What each plugin file loaded to, keyed by its exact bytes, so a reload (every save in
 * `.vscode/tools`) reads every file but checks again only those that changed: with 100 files
 * of 10 tools, parsing and checking is most of a reload's ~60 ms. Entries for files that were
 * not part of the latest load are dropped.
 */
export class PluginFileCache {
  private current = new Map<string, PluginFile>();
  private next = new Map<string, PluginFile>();

  /**
   * The file loaded from `bytes` and the `sources` it names: the previous result when they are
   * all the same.
   */
  async load(file: string, folder: WorkspaceFolder, bytes: Uint8Array, sources?: SourceFiles, imports?: PluginImports): Promise<PluginFile> {
    const key = `${folder.name}\0${folder.path}\0${file}`;
    const previous = this.current.get(key);
    // A file that imports tasks is built again each time: what its tools run also depends on the
    // host (a program found on PATH, `${env:X}`), which no hash here covers.
    const same = imports === undefined && previous !== undefined && previous.contentHash === pluginContentHash(contentHashOf(bytes), sources) && sameSourcePaths(previous.sources, sources);
    // In turns: a file of thousands of tools must not keep the server from answering meanwhile.
    const loaded = same ? previous : await loadPluginFileInTurns(file, bytes, folder, sources, imports);
    this.next.set(key, loaded);
    return loaded;
  }

  /** Ends a load: what it did not see is forgotten. */
  endLoad(): void {
    this.current = this.next;
    this.next = new Map();
  }
}

async function loadDirectory(directory: PluginDirectory, cache: PluginFileCache, host: ImportHost): Promise<PluginFile[]> {
  let names: string[];
  try {
    const entries = await readdir(directory.path, { withFileTypes: true });
    names = entries
      .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch (error) {
    if (ABSENT.has(errorCode(error) ?? '')) {
      return [];
    }
    return [unreadable(directory.path, directory.folder, 'plugin directory', error)];
  }
  return Promise.all(names.map((name) => loadFile(path.join(directory.path, name), directory.folder, cache, host)));
}

async function loadFile(file: string, folder: WorkspaceFolder, cache: PluginFileCache, host: ImportHost): Promise<PluginFile> {
  try {
    const bytes = await readPluginBytes(file);
    // Only a file that names a code tool is decoded here as well: a 1 MB file decoded twice cost
    // the server's thread tens of milliseconds more on each reload.
    const sources = bytes.includes('"code"') ? await readPluginSources(bytes.toString('utf8'), folder) : undefined;
    const imports = bytes.includes('"import"') ? await readPluginImports(bytes.toString('utf8'), folder, host) : undefined;
    const loaded = await cache.load(file, folder, bytes, sources, imports);
    // What its tools run besides its text is known once they are built: read it now, every load.
    return withProgramFiles(loaded, await readProgramFiles(loaded));
  } catch (error) {
    return unreadable(file, folder, 'plugin file', error);
  }
}

/**
 * A plugin file's bytes. `*.json` may be a symlink the model made (to a FIFO, a device, something
 * huge): see readBoundedFile.
 */
export function readPluginBytes(file: string): Promise<Buffer> {
  return readBoundedFile(file, MAX_PLUGIN_FILE_BYTES);
}

/**
 * Whether two reads found each source file at the same real path: a module moved behind a
 * symbolic link has the same content but runs from elsewhere (and its tool says where).
 */
function sameSourcePaths(before: SourceFiles | undefined, after: SourceFiles | undefined): boolean {
  const pathOf = (entry: SourceFileEntry | undefined): string | undefined => (entry !== undefined && 'file' in entry ? entry.file.path : undefined);
  return [...(after?.keys() ?? [])].every((name) => pathOf(before?.get(name)) === pathOf(after?.get(name)));
}

function unreadable(file: string, folder: WorkspaceFolder, what: string, error: unknown): PluginFile {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    file,
    folder,
    pluginName: defaultPluginName(file),
    text: '',
    contentHash: '',
    tools: [],
    diagnostics: [{ file, line: 1, column: 1, message: `cannot read ${what}: ${reason}` }],
  };
}
