/**
 * Reading a file an importer takes its tasks from: inside the workspace folder by real path, of
 * bounded size (files/source-file.ts), and told apart from a file that is not there, since an
 * absent file is part of what was approved too (creating it adds tools).
 */
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { readSourceFile } from '../files/source-file';
import type { WorkspaceFolder } from '../types';

/** The file's text, or that it is absent, or why it cannot be read. */
export type ReadSource = { readonly text: string } | { readonly absent: true } | { readonly problem: string };

/** Reads `name` (relative, `/`-separated) in the folder. */
export async function readImportSource(folder: WorkspaceFolder, name: string): Promise<ReadSource> {
  const exists = await lstat(path.join(folder.path, name)).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR',
  );
  if (!exists) {
    return { absent: true };
  }
  const read = await readSourceFile(folder, name);
  return 'file' in read ? { text: read.file.text } : { problem: read.problem };
}
