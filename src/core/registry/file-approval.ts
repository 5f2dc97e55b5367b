/**
 * Approving a loaded plugin file from what the registry holds: the file as it was loaded (never
 * read again), refused when it is not what the user was shown.
 */
import { approvalHashOf } from '../plugins/plugin-file';
import type { ApprovalPolicy } from '../approval/approval-policy';
import type { ApprovalSubject } from '../approval/approval-subject';
import { approvalSubjectOf } from '../approval/approval-subject';
import { withCovers } from './plugin-load';
import type { PluginFileStatus } from './snapshot';

/**
 * Approves what `file` runs as loaded. With `expectedContentHash` (ApprovalSubject.contentHash of
 * what the user was shown) it refuses when what the file runs is no longer that.
 */
export async function approveLoadedFile(files: readonly PluginFileStatus[], approval: ApprovalPolicy, file: string, expectedContentHash?: string): Promise<void> {
  const status = files.find((candidate) => candidate.file === file);
  if (status === undefined) {
    throw new Error(`No plugin file ${file} is loaded.`);
  }
  if (expectedContentHash !== undefined && approvalHashOf(status.loaded) !== expectedContentHash) {
    throw new Error(`${file} changed since it was shown for approval; review it again.`);
  }
  await approval.approve(withCovers(status.loaded));
}

/** What approving `file` would approve, from the compiled tools; undefined for a file not loaded. */
export function loadedApprovalSubject(files: readonly PluginFileStatus[], file: string): ApprovalSubject | undefined {
  const status = files.find((candidate) => candidate.file === file);
  return status === undefined ? undefined : approvalSubjectOf(status);
}
