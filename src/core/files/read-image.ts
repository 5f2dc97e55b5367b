/**
 * Reads an image file for a model that can look at it: PNG, JPEG, GIF and WebP, known by the
 * file's name and confirmed by its first bytes (a `.png` that is not a PNG is refused, not sent
 * with a wrong type), up to a size cap, through the same containment as text reads.
 */
import * as path from 'node:path';
import { contentResult, formatSize, mediaPart } from '../content/parts';
import { ToolInputError } from '../tool-errors';
import type { ToolResult } from '../types';
import { readContainedBytes } from './open-contained';

/** Default cap on an image served, in bytes (decoded): what the models' APIs take per image. */
export const DEFAULT_MAX_IMAGE_BYTES = 4 * 1024 * 1024;

interface ImageType {
  readonly mimeType: string;
  /** Whether the file's first bytes are this type's signature. */
  readonly matches: (head: Buffer) => boolean;
}

const PNG: ImageType = { mimeType: 'image/png', matches: (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) };
const JPEG: ImageType = { mimeType: 'image/jpeg', matches: (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff };
const GIF: ImageType = { mimeType: 'image/gif', matches: (head) => /^GIF8[79]a/.test(head.subarray(0, 6).toString('latin1')) };
const WEBP: ImageType = { mimeType: 'image/webp', matches: (head) => head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP' };

/** The image types served, by file extension (lower case). */
const IMAGE_TYPES: ReadonlyMap<string, ImageType> = new Map([
  ['.png', PNG],
  ['.jpg', JPEG],
  ['.jpeg', JPEG],
  ['.gif', GIF],
  ['.webp', WEBP],
]);

/** The image type of `bytes` by their signature (PNG, JPEG, GIF, WebP), else undefined. */
export function imageTypeOfBytes(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 12));
  return [PNG, JPEG, GIF, WEBP].find((type) => type.matches(head))?.mimeType;
}

/** Whether `file` is named as an image this reader serves. */
export function isImagePath(file: string): boolean {
  return IMAGE_TYPES.has(path.extname(file).toLowerCase());
}

/** What to read. */
export interface ContainedImageRequest {
  readonly basePath: string;
  /** The path asked for, relative to `basePath`; named as an image (isImagePath). */
  readonly path: string;
  readonly maxSize: number;
}

/**
 * The image as an image part, after a line saying which file it is; throws ToolInputError,
 * worded for the model, for a path outside the base, a missing, oversize or mislabelled file.
 */
export async function readContainedImage(request: ContainedImageRequest): Promise<ToolResult> {
  const type = IMAGE_TYPES.get(path.extname(request.path).toLowerCase());
  if (type === undefined) {
    throw new ToolInputError(`${request.path} is not named as a PNG, JPEG, GIF or WebP image.`);
  }
  let bytes: Buffer;
  try {
    bytes = await readContainedBytes({ basePath: request.basePath, path: request.path }, request.maxSize);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolInputError(/larger than/.test(message) ? `Image ${request.path} is over the ${formatSize(request.maxSize)} limit for images; it was not read.` : `${request.path}: ${message}`);
  }
  if (!type.matches(bytes)) {
    throw new ToolInputError(`${request.path} is named as ${type.mimeType} but its content is not (its first bytes are not that format's signature); it was not read.`);
  }
  return contentResult([{ type: 'text', text: `${request.path} (${type.mimeType}, ${formatSize(bytes.length)})` }, mediaPart('image', bytes, type.mimeType)]);
}
