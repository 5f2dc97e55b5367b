/**
 * Built-in `file-reader`: reads a text file, or a range of its lines, inside a workspace folder,
 * or an image (PNG, JPEG, GIF, WebP) as image content. Same containment and line-range code as the
 * `file-read` plugin handler.
 */
import { DEFAULT_MAX_IMAGE_BYTES, isImagePath, readContainedImage } from '../files/read-image';
import { FILE_READ_PROPERTIES, readArguments, readContainedFile } from '../files/read-contained';
import { DEFAULT_MAX_FILE_BYTES } from '../files/read-text';
import { ToolInputError } from '../tool-errors';
import type { ToolDefinition } from '../types';
import { builtinTool } from './builtin-tool';
import { FOLDER_PROPERTY, resolveFolder } from './folder';

/** Reads files inside the chosen workspace folder; never outside it, never oversize, never binary but images. */
export const fileReaderTool: ToolDefinition = builtinTool({
  name: 'file-reader',
  title: 'Read File',
  description:
    'Read a text file inside the workspace folder, whole or a range of lines. ' +
    '"path" is relative to the workspace folder; paths that leave it (../, absolute paths ' +
    'elsewhere, symbolic links pointing out) are refused. For a large file, give startLine ' +
    'and endLine (1-based, inclusive) to read only the part you need: a range reply ends with ' +
    'a note such as "[lines 1-50 of 300]". A PNG, JPEG, GIF or WebP image (up to 4 MiB) is returned ' +
    'as an image you can look at, where the client takes images. Other binary files and text files ' +
    'over 1 MiB are refused.',
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        ...FILE_READ_PROPERTIES.path,
        description: 'Path of the text file or image, relative to the workspace folder (for example "src/index.ts").',
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
    const basePath = resolveFolder(input.folder, context.folders).path;
    const read = readArguments(input);
    if (isImagePath(read.path)) {
      if (read.startLine !== undefined || read.endLine !== undefined) {
        throw new ToolInputError(`${read.path} is an image: startLine and endLine apply to text files only.`);
      }
      return readContainedImage({ basePath, path: read.path, maxSize: DEFAULT_MAX_IMAGE_BYTES });
    }
    return readContainedFile({
      basePath,
      ...read,
      maxSize: DEFAULT_MAX_FILE_BYTES,
      signal: context.signal,
    });
  },
});
