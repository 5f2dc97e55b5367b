/**
 * Which plugin files may have their tools served. Trust is per file content: a file that is new
 * or changed since the user approved it waits, so an agent cannot write itself a new shell tool
 * into .vscode/tools and call it in its next turn (or in the next session: nothing is approved
 * for being present when a server starts).
 */
import { ApprovalStore, realPathOf } from './approval-store';
import { approvalHashOf } from '../plugins/plugin-file';
import type { Logger } from '../types';
import { changedParts, type CoveredParts } from './covered-parts';
import { sameFileInOtherWorkTrees } from '../paths/work-tree';

/**
 * A plugin file as approval sees it: where it is, the hash of what it runs (what an approval
 * records: see plugins/approval-hash.ts), and the hash of its exact bytes (what approvals
 * recorded before, still honoured: the same bytes run the same things).
 */
export interface PluginFileIdentity {
  readonly file: string;
  readonly contentHash: string;
  readonly approvalHash?: string;
  /** What each file the approval covers besides it is now (covered-parts.ts): recorded on approval, compared to name a change. */
  readonly covers?: CoveredParts;
}

/** Whether `stored` approves this file's current content. */
function approves(stored: string | undefined, file: PluginFileIdentity): boolean {
  const current = approvalHashOf(file);
  return stored !== undefined && current !== '' && (stored === current || stored === file.contentHash);
}

/**
 * Where a file's current content stands: `approved`; `changed` (another content of this file
 * was approved); `new` (nothing of this file was ever approved).
 */
export type ApprovalState = 'approved' | 'changed' | 'new';

/** Decides, for each loaded plugin file, whether its current content is approved. */
export interface ApprovalPolicy {
  /** The state of each file's current content, by the file's path as given. */
  statesOf(files: readonly PluginFileIdentity[]): Promise<ReadonlyMap<string, ApprovalState>>;
  /** Approves this exact content of the file. */
  approve(file: PluginFileIdentity): Promise<void>;
  /**
   * For each file whose content changed since its approval, the covered files (relative paths)
   * that differ from what was approved, when that was recorded; empty when none does (the change
   * is in the plugin file itself). Files not changed, or whose approval recorded nothing, are absent.
   */
  changesOf?(files: readonly PluginFileIdentity[]): Promise<ReadonlyMap<string, readonly string[]>>;
  /** Where approvals persist, if anywhere (watched, so an approval made elsewhere is seen). */
  readonly storePath?: string;
}

/** The files of `states` whose content is approved. */
export function approvedFiles(states: ReadonlyMap<string, ApprovalState>): Set<string> {
  return new Set([...states].filter(([, state]) => state === 'approved').map(([file]) => file));
}

/** Every file approved: `--approve-changes`, for throwaway workspaces. */
export class ApproveAllPolicy implements ApprovalPolicy {
  statesOf(files: readonly PluginFileIdentity[]): Promise<ReadonlyMap<string, ApprovalState>> {
    return Promise.resolve(new Map(files.map((file) => [file.file, 'approved'])));
  }

  approve(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The approval store shared by every door (see ApprovalStore). A store that cannot be used
 * approves nothing; its problem is logged once each time it changes.
 */
export class StoredApprovalPolicy implements ApprovalPolicy {
  private readonly store: ApprovalStore;
  private lastProblem: string | undefined;

  constructor(
    readonly storePath: string,
    private readonly logger?: Logger,
  ) {
    this.store = new ApprovalStore(storePath);
  }

  async statesOf(files: readonly PluginFileIdentity[]): Promise<ReadonlyMap<string, ApprovalState>> {
    const content = await this.store.read();
    if (!content.ok && content.problem !== this.lastProblem) {
      this.logger?.warn(`[approval] ${content.problem}`);
    }
    this.lastProblem = content.ok ? undefined : content.problem;
    const approved = content.ok ? content.approved : new Map<string, string>();
    const states = await Promise.all(
      files.map(async (file): Promise<[string, ApprovalState]> => {
        const real = await realPathOf(file.file);
        const hash = approved.get(real);
        if (hash === undefined) {
          // Another checkout of the repository (a linked worktree, the main one) may have approved this very content.
          return [file.file, sameFileInOtherWorkTrees(real).some((other) => approves(approved.get(other), file)) ? 'approved' : 'new'];
        }
        return [file.file, approves(hash, file) ? 'approved' : 'changed'];
      }),
    );
    return new Map(states);
  }

  approve(file: PluginFileIdentity): Promise<void> {
    return this.store.approve([{ file: file.file, contentHash: approvalHashOf(file), ...(file.covers === undefined ? {} : { covers: file.covers }) }]);
  }

  async changesOf(files: readonly PluginFileIdentity[]): Promise<ReadonlyMap<string, readonly string[]>> {
    const content = await this.store.read();
    if (!content.ok) {
      return new Map();
    }
    const changes = new Map<string, readonly string[]>();
    for (const file of files) {
      const real = await realPathOf(file.file);
      const approved = content.covers?.get(real);
      const stored = content.approved.get(real);
      if (approved !== undefined && stored !== undefined && !approves(stored, file)) {
        changes.set(file.file, changedParts(approved, file.covers ?? {}));
      }
    }
    return changes;
  }
}

/**
 * `--approve-existing`, for CI and throwaway workspaces: the plugin files as they are at the
 * first load (which starts when the process starts) are approved for this run, in memory; a file
 * written or changed later needs an approval from the store. Approving writes to the store.
 */
export class ExistingFilesPolicy implements ApprovalPolicy {
  private existing: ReadonlyMap<string, string> | undefined;
  /** What each file covered at the first load, to name what changed since. */
  private existingCovers: ReadonlyMap<string, CoveredParts> | undefined;

  constructor(private readonly stored: ApprovalPolicy) {}

  get storePath(): string | undefined {
    return this.stored.storePath;
  }

  async statesOf(files: readonly PluginFileIdentity[]): Promise<ReadonlyMap<string, ApprovalState>> {
    this.existing ??= new Map(files.map((file) => [file.file, approvalHashOf(file)]));
    const stored = await this.stored.statesOf(files);
    const existing = this.existing;
    return new Map(
      files.map((file) => {
        const present = approves(existing.get(file.file), file);
        return [file.file, present ? 'approved' : (stored.get(file.file) ?? 'new')];
      }),
    );
  }

  approve(file: PluginFileIdentity): Promise<void> {
    return this.stored.approve(file);
  }

  async changesOf(files: readonly PluginFileIdentity[]): Promise<ReadonlyMap<string, readonly string[]>> {
    this.existingCovers ??= new Map(files.flatMap((file) => (file.covers === undefined ? [] : [[file.file, file.covers] as const])));
    const stored = (await this.stored.changesOf?.(files)) ?? new Map<string, readonly string[]>();
    const changes = new Map(stored);
    for (const file of files) {
      const covers = this.existingCovers.get(file.file);
      if (!changes.has(file.file) && covers !== undefined && this.existing?.has(file.file) === true && !approves(this.existing.get(file.file), file)) {
        changes.set(file.file, changedParts(covers, file.covers ?? {}));
      }
    }
    return changes;
  }
}
