/**
 * The approval store: a small per-user JSON file that maps a plugin file's real path to the
 * SHA-256 of the content the user approved,
 * `{"version":1,"approved":{"/repo/.vscode/tools/build.json":"<sha256>"}}`, and beside it (`covers`)
 * what each file the approval covers was, so a change can be named.
 * It fails closed: a store that is missing approves nothing; one that is malformed, unreadable
 * or of another version approves nothing, says why, and is never overwritten.
 */
import { mkdir, readFile, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { withFileLock } from './file-lock';
import { writeFileReplacing } from '../platform/replace-file';
import type { CoveredParts } from './covered-parts';

/** The store format this version reads and writes. */
export const STORE_VERSION = 1;

/**
 * What reading the store gave: the approvals, or why there are none. `covers` is, by real path,
 * what each covered file was when the file was approved (covered-parts.ts), when recorded: it
 * only names what changed, it never approves anything.
 */
export type StoreContent =
  | { readonly ok: true; readonly approved: ReadonlyMap<string, string>; readonly covers?: ReadonlyMap<string, CoveredParts> }
  | { readonly ok: false; readonly problem: string };

/** One approval to record. */
export interface StoreEntry {
  readonly file: string;
  readonly contentHash: string;
  readonly covers?: CoveredParts;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** A store file on disk; every read goes to the disk, so other writers are seen at once. */
export class ApprovalStore {
  constructor(readonly path: string) {}

  /** The approvals by real path. A missing store is an empty one. */
  async read(): Promise<StoreContent> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        return { ok: true, approved: new Map() };
      }
      return { ok: false, problem: `${this.path} cannot be read (${code ?? String(error)}); nothing is approved` };
    }
    return parseStore(this.path, text);
  }

  /**
   * Records `contentHash` as the approved content of each file (by real path). Refuses, and
   * leaves the file as it is, when the store is not one this version understands.
   * `keepExisting` leaves the files the store already has an approval for as they are.
   */
  async approve(entries: readonly StoreEntry[], options: { readonly keepExisting?: boolean } = {}): Promise<void> {
    const resolved = await Promise.all(entries.map(async (entry) => [await realPathOf(entry.file), entry.contentHash, entry.covers] as const));
    await mkdir(path.dirname(this.path), { recursive: true });
    await withFileLock(`${this.path}.lock`, async () => {
      const current = await this.read();
      if (!current.ok) {
        throw new Error(`${current.problem}. Fix or delete it, then approve again; it was left unchanged`);
      }
      // keepExisting: an entry already in the store wins (a migration must not undo a newer approval).
      const added = options.keepExisting === true ? resolved.filter(([file]) => !current.approved.has(file)) : resolved;
      const approved = Object.fromEntries([...current.approved, ...added.map(([file, hash]) => [file, hash] as const)]);
      // A new approval replaces what its file covered before (none recorded: none kept).
      const covers = new Map(current.covers ?? []);
      for (const [file, , parts] of added) {
        if (parts === undefined || Object.keys(parts).length === 0) {
          covers.delete(file);
        } else {
          covers.set(file, parts);
        }
      }
      const content = { version: STORE_VERSION, approved, ...(covers.size === 0 ? {} : { covers: Object.fromEntries(covers) }) };
      await writeFileReplacing(this.path, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
    });
  }
}

/** The store's content, or what is wrong with it (the store's path in every message). */
export function parseStore(storePath: string, text: string): StoreContent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `${storePath} is not valid JSON (${error instanceof Error ? error.message : String(error)}); nothing is approved` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: `${storePath} does not hold a JSON object; nothing is approved` };
  }
  const { version, approved } = value as { version?: unknown; approved?: unknown };
  if (version !== STORE_VERSION) {
    return { ok: false, problem: `${storePath} has version ${JSON.stringify(version)}, not ${STORE_VERSION}; nothing is approved` };
  }
  if (typeof approved !== 'object' || approved === null || Array.isArray(approved)) {
    return { ok: false, problem: `${storePath} has no "approved" object; nothing is approved` };
  }
  const entries = Object.entries(approved as Record<string, unknown>);
  const bad = entries.find(([, hash]) => typeof hash !== 'string' || !SHA256.test(hash));
  if (bad !== undefined) {
    return { ok: false, problem: `${storePath}: the entry for ${JSON.stringify(bad[0])} is not a SHA-256 hash; nothing is approved` };
  }
  const covers = coversOf((value as { covers?: unknown }).covers);
  return { ok: true, approved: new Map(entries as Array<[string, string]>), ...(covers.size === 0 ? {} : { covers }) };
}

/** The recorded covered files, by real path; entries not of that shape are left out (they only name changes). */
function coversOf(value: unknown): Map<string, CoveredParts> {
  const isRecord = (each: unknown): each is Record<string, unknown> => typeof each === 'object' && each !== null && !Array.isArray(each);
  if (!isRecord(value)) {
    return new Map();
  }
  const valid = Object.entries(value).filter((entry): entry is [string, Record<string, string>] => isRecord(entry[1]) && Object.values(entry[1]).every((state) => typeof state === 'string'));
  return new Map(valid);
}

/**
 * A plugin file's real path (symlinks resolved): approvals are keyed by it, so a symlinked
 * `.vscode/tools` or plugin file is the file it points to, never another one.
 */
export async function realPathOf(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return path.resolve(file);
  }
}
