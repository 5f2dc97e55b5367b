/**
 * The one read path shared by the `file-read` handler and the built-in `file-reader` tool:
 * the file opened through files/open-contained (containment decided on what was opened), then
 * the line-range read from that handle, every failure as a result the model can act on.
 */
import { ToolInputError } from '../tool-errors';
import { textResult } from '../types';
import type { ToolInput, ToolResult } from '../types';
import { openContained } from './open-contained';
import { checkLineRange, formatTextRange, readFirstChunk, readOpenedText } from './read-text';

/** A request to read a file inside a directory. */
export interface ContainedReadRequest {
  /** Directory the path must stay inside (its real path is what counts). */
  readonly basePath: string;
  /** The path the caller asked for, relative to `basePath`. */
  readonly path: string;
  /** Real paths of directories around `basePath` the file must stay inside too (open-contained). */
  readonly within?: readonly string[];
  readonly startLine?: number;
  readonly endLine?: number;
  /** Largest file served, in bytes. */
  readonly maxSize: number;
  readonly signal?: AbortSignal;
}

/** Reads a file that must resolve inside `basePath`; a refusal throws ToolInputError with the reason. */
export async function readContainedFile(request: ContainedReadRequest): Promise<ToolResult> {
  try {
    checkLineRange(request.startLine, request.endLine);
    request.signal?.throwIfAborted();
    const opened = await openContained(
      { basePath: request.basePath, path: request.path, ...(request.within === undefined ? {} : { within: request.within }) },
      // The first chunk is read while what was opened is checked, and used only if it passes.
      { early: (handle) => readFirstChunk(handle, request.endLine) },
    );
    try {
      const range = await readOpenedText(opened.handle, opened.info, opened.early, {
        maxSize: request.maxSize,
        displayPath: request.path,
        ...(request.startLine === undefined ? {} : { startLine: request.startLine }),
        ...(request.endLine === undefined ? {} : { endLine: request.endLine }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      return textResult(formatTextRange(range));
    } finally {
      // Not awaited: the answer does not depend on it (a read-only descriptor's close has nothing to report).
      opened.handle.close().catch(() => undefined);
    }
  } catch (error) {
    if (request.signal?.aborted === true) {
      throw new Error(`reading ${request.path} was cancelled.`);
    }
    // Outside the base, missing, binary, too large, a line range past the end: all about the
    // path or range asked for.
    throw new ToolInputError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Picks `path`, `startLine` and `endLine` out of validated input. Input was checked against
 * the schema already; these checks only keep a wrong type from becoming a confusing message.
 */
export function readArguments(input: ToolInput): { path: string; startLine?: number; endLine?: number } {
  const { path, startLine, endLine } = input;
  if (typeof path !== 'string') {
    throw new ToolInputError('"path" is required: a file path relative to the allowed directory.');
  }
  return {
    path,
    ...(typeof startLine === 'number' ? { startLine } : {}),
    ...(typeof endLine === 'number' ? { endLine } : {}),
  };
}

/** The input properties both file tools share, described for the model. */
export const FILE_READ_PROPERTIES = {
  path: {
    type: 'string',
    description:
      'Path of the text file to read, relative to the allowed directory (for example "src/index.ts").',
  },
  startLine: {
    type: 'integer',
    minimum: 1,
    description: 'First line to return, 1-based. Default: 1.',
  },
  endLine: {
    type: 'integer',
    minimum: 1,
    description: 'Last line to return, 1-based and inclusive. Default: the end of the file.',
  },
} as const;
