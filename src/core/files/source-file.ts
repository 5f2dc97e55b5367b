/**
 * Reading a source file that a plugin file names (a code tool's module): relative to the workspace
 * folder, inside it by real path, a regular file of bounded size. Used when the plugin file loads
 * and again before each call, to tell whether the module is still the one that was approved.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { WorkspaceFolder } from '../types';
import type { ContainedFile } from './open-contained';
import { openContained } from './open-contained';
import { readBoundedHandle } from './read-bounded';

/**
 * A file a handler spec names whose content is part of the tool (a code tool's module). The loader
 * reads it with the plugin file, so the tool runs exactly the bytes that were hashed for approval.
 */
export interface SourceFile {
  /** The name as the plugin file writes it, relative to the workspace folder. */
  readonly name: string;
  /** Its real path (symbolic links resolved), inside the workspace folder. */
  readonly path: string;
  readonly text: string;
  /** sha256 (hex) of its bytes. */
  readonly hash: string;
}

/** What reading one named source file gave: the file, or why it cannot be used. */
export type SourceFileEntry = { readonly file: SourceFile } | { readonly problem: string };

/** The source files of one plugin file, by the name it gives them. */
export type SourceFiles = ReadonlyMap<string, SourceFileEntry>;

/** Largest source file read, in bytes: a tool module is a few KB. */
export const MAX_SOURCE_FILE_BYTES = 1024 * 1024;

/** sha256 (hex) of some bytes. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Reads `name` (relative to the folder); never throws: a file that cannot be used is a problem. */
export async function readSourceFile(folder: WorkspaceFolder, name: string): Promise<SourceFileEntry> {
  if (name.includes('\0') || path.isAbsolute(name) || path.win32.isAbsolute(name)) {
    return { problem: `"${name}" must be a path relative to the workspace folder` };
  }
  let opened: ContainedFile;
  try {
    opened = await openContained({ basePath: folder.path, path: name });
  } catch (error) {
    return { problem: `"${name}" cannot be used: ${reasonOf(error).replace(/the allowed directory/g, 'the workspace folder')}` };
  }
  try {
    const bytes = await readBoundedHandle(opened.handle, opened.info, MAX_SOURCE_FILE_BYTES);
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    return { file: { name, path: opened.realPath, text, hash: sha256Hex(bytes) } };
  } catch (error) {
    return { problem: `"${name}" cannot be read: ${reasonOf(error)}` };
  } finally {
    opened.handle.close().catch(() => undefined);
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
