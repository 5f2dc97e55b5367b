/**
 * Built-in `file-reader`: reads a text file, or a range of its lines, inside a workspace folder.
 * Same containment and line-range code as the `file-read` plugin handler.
 */
import { FILE_READ_PROPERTIES, readArguments, readContainedFile } from '../files/read-contained';
import { DEFAULT_MAX_FILE_BYTES } from '../files/read-text';
import type { ToolDefinition } from '../types';
import { builtinTool } from './builtin-tool';
import { FOLDER_PROPERTY, resolveFolder } from './folder';

/** Reads files inside the chosen workspace folder; never outside it, never binary or oversize. */
export const fileReaderTool: ToolDefinition = builtinTool({
  name: 'file-reader',
  title: 'Read File',
  description:
    'Read a text file inside the workspace folder, whole or a range of lines. ' +
    '"path" is relative to the workspace folder; paths that leave it (../, absolute paths ' +
    'elsewhere, symbolic links pointing out) are refused. For a large file, give startLine ' +
    'and endLine (1-based, inclusive) to read only the part you need: a range reply ends with ' +
    'a note such as "[lines 1-50 of 300]". Binary files and files over 1 MiB are refused.',
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        ...FILE_READ_PROPERTIES.path,
        description: 'Path of the text file, relative to the workspace folder (for example "src/index.ts").',
      },
      startLine: FILE_READ_PROPERTIES.startLine,
      endLine: FILE_READ_PROPERTIES.endLine,
      folder: FOLDER_PROPERTY,
    },
    required: ['path'],
    additionalProperties: false,
  },
  tags: ['read'],
  source: { kind: 'builtin' },
  handlerSummary: 'read a file inside the workspace folder',
  async run(input, context) {
    // An unknown folder is wrong input: thrown, as by every built-in (process/outcome.ts).
    return readContainedFile({
      basePath: resolveFolder(input.folder, context.folders).path,
      ...readArguments(input),
      maxSize: DEFAULT_MAX_FILE_BYTES,
      signal: context.signal,
    });
  },
});
