/**
 * Version 0.1 kept approvals per VS Code workspace (in the extension's workspace storage), keyed
 * by the plugin file's path. The per-user store replaced it; this carries those approvals over
 * once, so an upgrade does not ask again for files the user already approved.
 */
import { readFile, rename } from 'node:fs/promises';
import type { Logger } from '../types';
import type { ApprovalStore } from './approval-store';
import { parseStore } from './approval-store';

/**
 * Moves the approvals of `legacyPath` into `store` (an approval already in the store wins), then
 * renames the old file to `<name>.migrated`. Resolves to how many entries were carried over. A
 * missing old store is nothing to do; an unusable one is left where it is and logged.
 */
export async function migrateLegacyApprovals(legacyPath: string, store: ApprovalStore, logger: Logger): Promise<number> {
  let text: string;
  try {
    text = await readFile(legacyPath, 'utf8');
  } catch {
    return 0;
  }
  const content = parseStore(legacyPath, text);
  if (!content.ok) {
    logger.warn(`[approval] not migrating the old approval store: ${content.problem}`);
    return 0;
  }
  const entries = [...content.approved].map(([file, contentHash]) => ({ file, contentHash }));
  await store.approve(entries, { keepExisting: true });
  await rename(legacyPath, `${legacyPath}.migrated`);
  logger.info(`[approval] moved ${entries.length} approvals from ${legacyPath} to ${store.path}`);
  return entries.length;
}
