/**
 * Large tool output kept on disk instead of lost: a result over the threshold shows its head and
 * tail, and the whole output is served as `workspace-tools://output/<id>` (MCP resources/read)
 * for the last MAX_ENTRIES results or MAX_AGE_MS, whichever ends first. Files live in a private
 * temp directory of this process, written as the program prints (memory holds only the head and
 * the tail), and are removed when they expire and when the store is disposed.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export const OUTPUT_URI_PREFIX = 'workspace-tools://output/';

/** A kept output, as a result links to it. */
export interface OutputResource {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size: number;
}

/** Thrown for a URI that is not (or no longer) one of ours. */
export class UnknownOutputError extends Error {
  override readonly name = 'UnknownOutputError';
}

const MAX_ENTRIES = 50;
const MAX_AGE_MS = 30 * 60 * 1000;
/** Past this, even the file stops growing (a runaway program must not fill the disk). */
export const MAX_KEPT_OUTPUT_BYTES = 512 * 1024 * 1024;
/**
 * One resource holds at most this much: MCP clients read a resource in one message, and the SDK
 * client refuses messages over 10 MB. A larger output is served in parts, `<id>/1`, `<id>/2`, ...
 */
export const PART_BYTES = 8 * 1024 * 1024;

interface Entry {
  readonly parts: readonly OutputResource[];
  readonly file: string;
  readonly size: number;
  readonly created: number;
}

export class OutputStore {
  private directory: string | undefined;
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limits: { readonly maxEntries: number; readonly maxAgeMs: number } = { maxEntries: MAX_ENTRIES, maxAgeMs: MAX_AGE_MS },
  ) {}

  /** A file to stream one output into; `keep` makes it a resource, `discard` deletes it. */
  createSink(toolName: string): OutputSink {
    this.directory ??= mkdtempSync(path.join(tmpdir(), 'workspace-tools-output-'));
    const id = randomUUID();
    return new OutputSink(id, path.join(this.directory, `${id}.txt`), toolName, (entry) => this.add(id, entry));
  }

  /** The output (or the part of it) behind `uri`. */
  async read(uri: string): Promise<{ readonly text: string; readonly resource: OutputResource }> {
    this.expire();
    const [id = '', part] = uri.startsWith(OUTPUT_URI_PREFIX) ? uri.slice(OUTPUT_URI_PREFIX.length).split('/') : [];
    const entry = this.entries.get(id);
    const index = part === undefined ? 0 : Number(part) - 1;
    const resource = entry?.parts[index];
    if (entry === undefined || resource === undefined || resource.uri !== uri) {
      const why = uri.startsWith(OUTPUT_URI_PREFIX)
        ? `it is not one of the last ${this.limits.maxEntries} kept outputs of this server (they are kept for ${Math.round(this.limits.maxAgeMs / 60_000)} minutes)`
        : `only ${OUTPUT_URI_PREFIX}<id> resources are served`;
      throw new UnknownOutputError(`Unknown resource ${uri}: ${why}.`);
    }
    return { text: await readPart(entry.file, index * PART_BYTES, Math.min((index + 1) * PART_BYTES, entry.size)), resource };
  }

  /** The kept outputs' parts, newest output first. */
  list(): OutputResource[] {
    this.expire();
    return [...this.entries.values()].reverse().flatMap((entry) => entry.parts);
  }

  dispose(): void {
    if (this.directory !== undefined) {
      rmSync(this.directory, { recursive: true, force: true });
    }
    this.entries.clear();
  }

  private add(id: string, entry: Entry): void {
    this.entries.set(id, entry);
    this.expire();
  }

  private expire(): void {
    const oldest = Date.now() - this.limits.maxAgeMs;
    const excess = this.entries.size - this.limits.maxEntries;
    let index = 0;
    for (const [id, entry] of this.entries) {
      if (index++ < excess || entry.created < oldest) {
        this.entries.delete(id);
        void rm(entry.file, { force: true });
      }
    }
  }
}

/** One output being written; created lazily, only once it is known to be large. */
export class OutputSink {
  private stream: WriteStream | undefined;
  private written = 0;

  constructor(
    private readonly id: string,
    private readonly file: string,
    private readonly toolName: string,
    private readonly onKeep: (entry: Entry) => void,
  ) {}

  get bytes(): number {
    return this.written;
  }

  write(chunk: Buffer): void {
    const room = MAX_KEPT_OUTPUT_BYTES - this.written;
    if (room <= 0) {
      return;
    }
    this.stream ??= createWriteStream(this.file, { mode: 0o600 });
    const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.stream.write(piece);
    this.written += piece.length;
  }

  /** Finishes the file and serves it; resolves to the resources a result links to (parts). */
  async keep(): Promise<OutputResource[]> {
    await this.finish();
    const count = Math.max(1, Math.ceil(this.written / PART_BYTES));
    const parts = Array.from({ length: count }, (_, index): OutputResource => {
      const size = Math.min(PART_BYTES, this.written - index * PART_BYTES);
      return count === 1
        ? { uri: `${OUTPUT_URI_PREFIX}${this.id}`, name: `${this.toolName} output`, mimeType: 'text/plain', size: this.written }
        : { uri: `${OUTPUT_URI_PREFIX}${this.id}/${index + 1}`, name: `${this.toolName} output, part ${index + 1} of ${count}`, mimeType: 'text/plain', size };
    });
    this.onKeep({ parts, file: this.file, size: this.written, created: Date.now() });
    return parts;
  }

  async discard(): Promise<void> {
    await this.finish();
    await rm(this.file, { force: true });
  }

  private finish(): Promise<void> {
    const stream = this.stream;
    return stream === undefined ? Promise.resolve() : new Promise((resolve) => stream.end(resolve));
  }
}

/**
 * Bytes [start, end) of the file as text, with part boundaries moved to whole UTF-8 characters:
 * a character cut by `start` belongs to the part before, one cut by `end` to this one.
 */
async function readPart(file: string, start: number, end: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(end - start + 3);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    const bytes = buffer.subarray(0, bytesRead);
    let from = 0;
    while (start > 0 && from < 3 && ((bytes[from] ?? 0) & 0xc0) === 0x80) {
      from++;
    }
    let to = Math.min(end - start, bytes.length);
    while (to < bytes.length && ((bytes[to] ?? 0) & 0xc0) === 0x80) {
      to++;
    }
    return bytes.subarray(from, to).toString('utf8');
  } finally {
    await handle.close();
  }
}
