/**
 * Reads a text file, or a range of its lines, reading only as far as the range needs: lines
 * 1-50 of a 1 MB file cost one 8 KB read, not the whole file. Oversize and binary files are
 * refused before any of their text is returned.
 */
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ReadHandle } from '../platform/file-access';
import { describeFsError } from '../paths/containment';
import { LineCollector } from './line-collector';
import type { TextRange } from './line-collector';

export type { TextRange } from './line-collector';

/** Default cap on the size of a file served, in bytes. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

const FIRST_CHUNK_BYTES = 16 * 1024;
const CHUNK_BYTES = 64 * 1024;
const BINARY_SNIFF_BYTES = 8 * 1024;
/** Ranges ending by this line read a first chunk of only BINARY_SNIFF_BYTES (~100 lines of code). */
const SHORT_RANGE_LINES = 64;

/** What to read. Lines are 1-based and inclusive. */
export interface ReadTextOptions {
  /** Files larger than this many bytes are refused, ranged or not. */
  readonly maxSize: number;
  readonly startLine?: number;
  readonly endLine?: number;
  readonly signal?: AbortSignal;
  /** The name the caller used, for messages (default the file path). */
  readonly displayPath?: string;
}

/**
 * Checks a requested line range; throws a message for the model when it makes no sense.
 * Returns the range with defaults (1 .. end of file).
 */
export function checkLineRange(startLine?: number, endLine?: number): { start: number; end: number } {
  const start = startLine ?? 1;
  const end = endLine ?? Number.POSITIVE_INFINITY;
  if (!Number.isInteger(start) || start < 1) {
    throw new Error(`startLine must be a whole number of at least 1 (got ${String(startLine)}).`);
  }
  if (endLine !== undefined && (!Number.isInteger(endLine) || endLine < 1)) {
    throw new Error(`endLine must be a whole number of at least 1 (got ${String(endLine)}).`);
  }
  if (end < start) {
    throw new Error(`endLine (${end}) must not be before startLine (${start}).`);
  }
  return { start, end };
}

/**
 * Reads the requested lines of a text file. Throws, worded for the model, when the file is
 * missing, not a regular file, over `maxSize`, binary, or shorter than `startLine`.
 * Opens by path with no containment: workspace reads go through files/open-contained.
 */
export async function readTextRange(file: string, options: ReadTextOptions): Promise<TextRange> {
  const shown = options.displayPath ?? file;
  checkLineRange(options.startLine, options.endLine);
  options.signal?.throwIfAborted();
  let handle: ReadHandle;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer (POSIX only;
    // a no-op for regular files). The fstat below then refuses it.
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw describeFsError(error, shown);
  }
  try {
    // fstat on the open handle: the file checked is the file read, with no swap in between.
    // The first chunk is read meanwhile and used only once the checks pass.
    const [info, first] = await Promise.allSettled([handle.stat(), readFirstChunk(handle, options.endLine)]);
    if (info.status === 'rejected') {
      throw describeFsError(info.reason, shown);
    }
    return await readOpenedText(handle, info.value, first, { ...options, displayPath: shown });
  } finally {
    // Not awaited: the answer does not depend on it, and waiting cost a thread-pool round trip
    // per call. A read-only descriptor's close has nothing to report.
    handle.close().catch(() => undefined);
  }
}

/** The first read of a file whose lines up to `endLine` are wanted: small for a short range. */
export function readFirstChunk(handle: ReadHandle, endLine: number | undefined): Promise<Buffer> {
  return readChunk(handle, endLine !== undefined && endLine <= SHORT_RANGE_LINES ? BINARY_SNIFF_BYTES : FIRST_CHUNK_BYTES);
}

/**
 * readTextRange on a file already open (whose fstat is `info`), given the outcome of its first
 * read (readFirstChunk, started with the fstat; read now if not given); the caller closes the handle.
 */
export async function readOpenedText(
  handle: ReadHandle,
  info: Stats,
  early: PromiseSettledResult<Buffer> | undefined,
  options: ReadTextOptions & { readonly displayPath: string },
): Promise<TextRange> {
  const shown = options.displayPath;
  const { start, end } = checkLineRange(options.startLine, options.endLine);
  // Type first: a directory's read fails with EISDIR, which says less than this check.
  const size = checkRegularFile(info, shown, options.maxSize);
  const [first] = early === undefined ? await Promise.allSettled([readFirstChunk(handle, options.endLine)]) : [early];
  if (first.status === 'rejected') {
    throw describeFsError(first.reason, shown);
  }
  const collector = new LineCollector(start, end, size);
  await readChunks(handle, first.value, { shown, size, maxSize: options.maxSize, signal: options.signal }, collector);
  const ranged = options.startLine !== undefined || options.endLine !== undefined;
  return collector.result(start, ranged, shown);
}

function checkRegularFile(info: Stats, shown: string, maxSize: number): number {
  if (info.isDirectory()) {
    throw new Error(`${shown} is a directory, not a file.`);
  }
  if (!info.isFile()) {
    throw new Error(`${shown} is not a regular file (device, socket or pipe); it was not read.`);
  }
  refuseOversize(info.size, maxSize, shown);
  return info.size;
}

function refuseOversize(size: number, maxSize: number, shown: string): void {
  if (size > maxSize) {
    throw new Error(
      `File ${shown} is ${formatBytes(size)}, over the ${formatBytes(maxSize)} limit for this tool; it was not read.`,
    );
  }
}

/** `1,048,576 bytes (1.0 MiB)`: exact for the model, readable for people. */
export function formatBytes(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  if (bytes < 1024) {
    return exact;
  }
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${exact} (${value.toFixed(1)} ${units[unit] ?? 'GiB'})`;
}

/** One read from the current position; empty at the end of the file. */
async function readChunk(handle: ReadHandle, length: number): Promise<Buffer> {
  // A fresh buffer per chunk: the collector keeps slices of it.
  const buffer = Buffer.allocUnsafe(length);
  const { bytesRead } = await handle.read(buffer, 0, length, null);
  return buffer.subarray(0, bytesRead);
}

/**
 * Feeds the collector chunk after chunk, starting with `first`, until it has its last line or
 * the file ends. Stops with the oversize error if the file grows past `maxSize` meanwhile.
 */
async function readChunks(
  handle: ReadHandle,
  first: Buffer,
  options: { shown: string; size: number; maxSize: number; signal: AbortSignal | undefined },
  collector: LineCollector,
): Promise<void> {
  if (first.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    throw new Error(
      `File ${options.shown} looks binary (it has a NUL byte in its first 8 KB); this tool reads text files only.`,
    );
  }
  if (collector.wantsWholeFile && options.size > first.length) {
    collector.push(await readRest(handle, first, options.size, options.signal));
    return;
  }
  let chunk = first;
  let total = 0;
  while (chunk.length > 0) {
    total += chunk.length;
    refuseOversize(total, options.maxSize, options.shown);
    // Done at the size fstat gave (as readFile is): one read less than reading on to EOF. A size
    // of 0 may be a lie (/proc), so such files are read to EOF.
    if (collector.push(chunk) || (options.size > 0 && total >= options.size)) {
      return;
    }
    options.signal?.throwIfAborted();
    chunk = await readChunk(handle, CHUNK_BYTES);
  }
}

/**
 * A whole file of known size in one buffer, `first` copied in and the rest read straight into it
 * (up to `size`, as readFile does): no chunks to concatenate, so a 1 MB read holds ~1 MB of
 * buffers instead of ~2 MB.
 */
async function readRest(handle: ReadHandle, first: Buffer, size: number, signal: AbortSignal | undefined): Promise<Buffer> {
  const whole = Buffer.allocUnsafe(size);
  let filled = first.copy(whole);
  while (filled < size) {
    signal?.throwIfAborted();
    const { bytesRead } = await handle.read(whole, filled, size - filled, null);
    if (bytesRead === 0) {
      break;
    }
    filled += bytesRead;
  }
  return whole.subarray(0, filled);
}

/**
 * The text for the model: the file as is for a whole-file read; for a range, the lines and a
 * note saying which lines these are, and of how many when the read reached the end anyway.
 */
export function formatTextRange(range: TextRange): string {
  if (!range.ranged) {
    return range.text;
  }
  if (range.totalLines === 0) {
    return '[the file is empty]';
  }
  const lines = `lines ${range.firstLine}-${range.lastLine}`;
  const note =
    range.totalLines === undefined
      ? `[${lines}; the file continues after line ${range.lastLine}]`
      : `[${lines} of ${range.totalLines}]`;
  const body = range.text.endsWith('\n') || range.text === '' ? range.text : `${range.text}\n`;
  return `${body}${note}`;
}
