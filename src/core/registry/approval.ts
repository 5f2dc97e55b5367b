import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/** A plugin file as approval sees it: where it is and the hash of the exact bytes loaded. */
export interface PluginFileIdentity {
  readonly file: string;
  readonly contentHash: string;
}

/**
 * Decides which plugin files may have their tools served. Trust is per file content: a file
 * that is new or changed since approval waits, so an agent cannot write itself a new shell
 * tool into .vscode/tools and call it in its next turn.
 */
export interface ApprovalPolicy {
  /** The subset of `files` (by path) whose current content is approved. */
  approvedAmong(files: readonly PluginFileIdentity[]): Promise<ReadonlySet<string>>;
  /** Approves this exact content of the file. */
  approve(file: PluginFileIdentity): Promise<void>;
  /** Where approvals persist, if anywhere (watched by the standalone server). */
  readonly storePath?: string;
}

/** Every file approved: for `--approve-changes` and for callers that trust the directory. */
export class ApproveAllPolicy implements ApprovalPolicy {
  approvedAmong(files: readonly PluginFileIdentity[]): Promise<ReadonlySet<string>> {
    return Promise.resolve(new Set(files.map((file) => file.file)));
  }

  approve(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The standalone server's default: what the user started it with is approved for this run;
 * a file written or changed while it runs waits. Held in memory only.
 */
export class StartupSnapshotPolicy implements ApprovalPolicy {
  private readonly approved = new Map<string, string>();
  private sealed = false;

  approvedAmong(files: readonly PluginFileIdentity[]): Promise<ReadonlySet<string>> {
    if (!this.sealed) {
      this.sealed = true;
      for (const file of files) {
        this.approved.set(file.file, file.contentHash);
      }
    }
    return Promise.resolve(approvedByHash(files, this.approved));
  }

  approve(file: PluginFileIdentity): Promise<void> {
    this.approved.set(file.file, file.contentHash);
    return Promise.resolve();
  }
}

interface StoreFile {
  readonly version: 1;
  readonly approved: Record<string, string>;
}

/**
 * Approvals kept in a small JSON file (`{"version":1,"approved":{"<file>":"<sha256>"}}`),
 * shared by the VS Code extension (which writes it when the user clicks Approve) and the MCP
 * server it starts (which reads it on every reload). Writes are atomic (temp file + rename)
 * so a reader never sees half a file.
 */
export class StoredApprovalPolicy implements ApprovalPolicy {
  constructor(readonly storePath: string) {}

  async approvedAmong(files: readonly PluginFileIdentity[]): Promise<ReadonlySet<string>> {
    const store = await this.read();
    return approvedByHash(files, new Map(Object.entries(store.approved)));
  }

  async approve(file: PluginFileIdentity): Promise<void> {
    const store = await this.read();
    const next: StoreFile = { version: 1, approved: { ...store.approved, [file.file]: file.contentHash } };
    await mkdir(path.dirname(this.storePath), { recursive: true });
    const temporary = `${this.storePath}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, 'utf8');
    await rename(temporary, this.storePath);
  }

  /** The store's content; a missing or unreadable store approves nothing (fail closed). */
  private async read(): Promise<StoreFile> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.storePath, 'utf8'));
      if (isStoreFile(parsed)) {
        return parsed;
      }
    } catch {
      // Missing or corrupt: nothing is approved.
    }
    return { version: 1, approved: {} };
  }
}

function isStoreFile(value: unknown): value is StoreFile {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const approved = (value as { approved?: unknown }).approved;
  return (
    typeof approved === 'object' &&
    approved !== null &&
    Object.values(approved).every((hash) => typeof hash === 'string')
  );
}

function approvedByHash(
  files: readonly PluginFileIdentity[],
  approved: ReadonlyMap<string, string>,
): Set<string> {
  return new Set(files.filter((file) => approved.get(file.file) === file.contentHash).map((file) => file.file));
}
