/**
 * The one read path shared by the `file-read` handler and the built-in `file-reader` tool:
 * containment first, then the line-range read, every failure as a result the model can act on.
 */
import { resolveContained } from '../paths/containment';
import { ToolInputError } from '../tool-errors';
import { textResult } from '../types';
import type { ToolInput, ToolResult } from '../types';
import { formatTextRange, readTextRange } from './read-text';

/** A request to read a file inside a directory. */
export interface ContainedReadRequest {
  /** Directory the path must stay inside (its real path is what counts). */
  readonly basePath: string;
  /** The path the caller asked for, relative to `basePath`. */
  readonly path: string;
  readonly startLine?: number;
  readonly endLine?: number;
  /** Largest file served, in bytes. */
  readonly maxSize: number;
  readonly signal?: AbortSignal;
}

/** Reads a file that must resolve inside `basePath`; a refusal throws ToolInputError with the reason. */
export async function readContainedFile(request: ContainedReadRequest): Promise<ToolResult> {
  try {
    const real = await resolveContained(request.basePath, request.path);
    const range = await readTextRange(real, {
      maxSize: request.maxSize,
      displayPath: request.path,
      ...(request.startLine === undefined ? {} : { startLine: request.startLine }),
      ...(request.endLine === undefined ? {} : { endLine: request.endLine }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    return textResult(formatTextRange(range));
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
