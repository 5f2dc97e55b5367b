/**
 * The workspace files a plugin file's tools run besides its own text: a shell program written
 * as a path, the script a known interpreter is handed, the modules it preloads
 * (CompiledHandler.programFiles, found in the built handler's argv when the file loads). Each
 * is read after the file loads (readProgramFiles), folded into the file's approval and content
 * hashes, shown for approval with its path, hash and first lines, checked again before each call
 * (a change is a StaleToolError that names the file: the registry reloads, and the tool waits
 * for approval), and watched (registry/watch-sources.ts).
 */
import { createHash } from 'node:crypto';
import type { ContainedFile } from '../files/open-contained';
import { openContained } from '../files/open-contained';
import { errorCode } from '../paths/containment';
import { StaleToolError } from '../tool-errors';
import type { ToolDefinition, WorkspaceFolder } from '../types';
import type { PluginFile, ProgramFile } from './plugin-file';

export type { ProgramFile } from './plugin-file';

/** Files larger than this are not hashed: their size and modification time stand in (said in the state). */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;
/** Lines shown for approval, and the longest line shown whole. */
const HEAD_LINES = 5;
const HEAD_LINE_CHARS = 200;
const CHUNK_BYTES = 64 * 1024;

/**
 * Reads `name` (relative to the folder) through the one module that opens workspace files
 * (files/open-contained.ts): the file hashed is the file checked to be inside. Never throws.
 */
export async function readProgramFile(folder: WorkspaceFolder, name: string): Promise<ProgramFile> {
  let opened: ContainedFile;
  try {
    opened = await openContained({ basePath: folder.path, path: name });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { path: name, state: message.startsWith('File not found') ? 'absent' : `unusable: ${message}` };
  }
  try {
    return { path: name, ...(await hashOf(opened)) };
  } catch (error) {
    return { path: name, state: `unusable: ${errorCode(error) ?? String(error)}` };
  } finally {
    await opened.handle.close();
  }
}

/** The file's sha256 and first lines, read from its open handle. */
async function hashOf({ handle, info: stats }: ContainedFile): Promise<Omit<ProgramFile, 'path'>> {
  if (!stats.isFile()) {
    return { state: 'unusable: not a regular file' };
  }
  if (stats.size > MAX_HASHED_BYTES) {
    return { state: `large: ${stats.size} bytes, modified ${stats.mtimeMs}, inode ${stats.ino}` };
  }
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let first: Buffer | undefined;
  for (let read = await handle.read(buffer, 0, CHUNK_BYTES, null); read.bytesRead > 0; read = await handle.read(buffer, 0, CHUNK_BYTES, null)) {
    hash.update(buffer.subarray(0, read.bytesRead));
    first ??= Buffer.from(buffer.subarray(0, read.bytesRead));
  }
  const head = first === undefined || first.includes(0) ? undefined : headLines(first.toString('utf8'));
  return { state: `sha256 ${hash.digest('hex')}`, ...(head === undefined ? {} : { head }) };
}

function headLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .slice(0, HEAD_LINES)
    .map((line) => (line.length > HEAD_LINE_CHARS ? `${line.slice(0, HEAD_LINE_CHARS)}…` : line));
}

/** Every file the loaded file's tools run, each once, by path. */
export async function readProgramFiles(loaded: PluginFile): Promise<ProgramFile[]> {
  const names = [...new Set(loaded.tools.flatMap((tool) => tool.programFiles ?? []))].sort();
  return Promise.all(names.map((name) => readProgramFile(loaded.folder, name)));
}

/** sha256 over `hash` and the files (by path and state): what approval keys on once they count. */
function withFilesHash(hash: string, files: readonly ProgramFile[]): string {
  return createHash('sha256')
    .update(`workspace-tools plugin file and the workspace files its tools run\n${hash}\n`)
    .update(JSON.stringify(files.map((file) => [file.path, file.state])))
    .digest('hex');
}

/**
 * The loaded file with its program files: hashes that cover them, and each tool that runs one
 * with a line per file for approval and a check before each call. The file as it was when there
 * are none.
 */
export function withProgramFiles(loaded: PluginFile, files: readonly ProgramFile[]): PluginFile {
  if (files.length === 0) {
    return loaded;
  }
  // The same loaded file with the same files is the same result: its tools keep their identity
  // across reloads (the registry reuses what it computed for an unchanged definition).
  const key = JSON.stringify(files.map((file) => [file.path, file.state]));
  const previous = folded.get(loaded);
  if (previous?.key === key) {
    return previous.file;
  }
  const file = foldIn(loaded, files);
  folded.set(loaded, { key, file });
  return file;
}

/** What withProgramFiles made of each loaded file last, by the files' states. */
const folded = new WeakMap<PluginFile, { readonly key: string; readonly file: PluginFile }>();

function foldIn(loaded: PluginFile, files: readonly ProgramFile[]): PluginFile {
  const byPath = new Map(files.map((file) => [file.path, file]));
  return {
    ...loaded,
    contentHash: loaded.contentHash === '' ? '' : withFilesHash(loaded.contentHash, files),
    ...(loaded.approvalHash === undefined ? {} : { approvalHash: withFilesHash(loaded.approvalHash, files) }),
    programFiles: files,
    tools: loaded.tools.map((tool) => withChecks(tool, (tool.programFiles ?? []).flatMap((name) => byPath.get(name) ?? []), loaded.folder)),
  };
}

/** How approval names one file: `scripts/x.sh (sha256 1234abcd…)`, or why it has no hash. */
export function programFileText(file: ProgramFile): string {
  return file.state.startsWith('sha256 ') ? `${file.path} (sha256 ${file.state.slice(7, 23)}…)` : `${file.path} (${file.state})`;
}

/** The tool, told to check its files before each call and to name them for approval. */
function withChecks(tool: ToolDefinition, files: readonly ProgramFile[], folder: WorkspaceFolder): ToolDefinition {
  if (files.length === 0) {
    return tool;
  }
  return {
    ...tool,
    approvalLines: [...(tool.approvalLines ?? [tool.handlerSummary]), ...files.map((file) => `runs the workspace file ${programFileText(file)}`)],
    run: async (input, context) => {
      for (const file of files) {
        context.signal.throwIfAborted();
        const now = await readProgramFile(folder, file.path);
        if (now.state !== file.state) {
          throw new StaleToolError(
            `the workspace file ${file.path}, which it runs, changed since its plugin file was approved and loaded (${now.state === 'absent' ? 'it is gone' : file.state === 'absent' ? 'it was created' : 'its content differs'}), so it was not run; it waits for the user's approval`,
          );
        }
      }
      return tool.run(input, context);
    },
  };
}
