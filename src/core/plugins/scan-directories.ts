/**
 * The I/O half of plugin loading: list each plugin directory, read its `*.json` files and load
 * each one on its own, so one unreadable or broken file never stops the others.
 */
import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { errorCode } from '../paths/containment';
import type { WorkspaceFolder } from '../types';
import { contentHashOf, defaultPluginName, loadPluginFile } from './load-plugin-file';
import type { PluginDirectory, PluginFile } from './plugin-file';

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
): Promise<PluginFile[]> {
  const perDirectory = await Promise.all(directories.map((directory) => loadDirectory(directory, cache)));
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

  /** The file loaded from `bytes`: the previous result when the bytes are the same. */
  load(file: string, folder: WorkspaceFolder, bytes: Uint8Array): PluginFile {
    const key = `${folder.name}\0${folder.path}\0${file}`;
    const previous = this.current.get(key);
    const loaded = previous?.contentHash === contentHashOf(bytes) ? previous : loadPluginFile(file, bytes, folder);
    this.next.set(key, loaded);
    return loaded;
  }

  /** Ends a load: what it did not see is forgotten. */
  endLoad(): void {
    this.current = this.next;
    this.next = new Map();
  }
}

async function loadDirectory(directory: PluginDirectory, cache: PluginFileCache): Promise<PluginFile[]> {
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
  return Promise.all(names.map((name) => loadFile(path.join(directory.path, name), directory.folder, cache)));
}

async function loadFile(file: string, folder: WorkspaceFolder, cache: PluginFileCache): Promise<PluginFile> {
  try {
    return cache.load(file, folder, await readPluginBytes(file));
  } catch (error) {
    return unreadable(file, folder, 'plugin file', error);
  }
}

/**
 * A plugin file's bytes. `*.json` may be a symlink the model made: to a FIFO (a plain read would
 * wait for a writer forever and stall every reload), to a device such as /dev/zero (endless), or
 * to something huge. So: opened non-blocking, regular files only, at most MAX_PLUGIN_FILE_BYTES.
 */
export async function readPluginBytes(file: string): Promise<Buffer> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new Error('not a regular file (device, pipe or directory); it was not read');
    }
    const tooBig = (): Error => new Error(`the file is larger than ${MAX_PLUGIN_FILE_BYTES} bytes; it was not read`);
    if (info.size > MAX_PLUGIN_FILE_BYTES) {
      throw tooBig();
    }
    // Read to EOF but never past the cap, in case the file grows after the fstat. The first
    // buffer fits the whole file (one read); one byte more tells whether it grew.
    const chunks: Buffer[] = [];
    let length = 0;
    for (let room = info.size + 1; ; room = 64 * 1024) {
      const chunk = Buffer.allocUnsafe(room);
      const { bytesRead } = await handle.read(chunk, 0, room, null);
      if (bytesRead === 0) {
        break;
      }
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
      if (length > MAX_PLUGIN_FILE_BYTES) {
        throw tooBig();
      }
    }
    return Buffer.concat(chunks, length);
  } finally {
    await handle.close();
  }
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
