/**
 * Which files an approval covers besides the plugin file, each with what it was approved as
 * (`sha256 <hex>`, `absent`, `present`, `unusable: ...`): the files its tools run, the files its
 * `import` section read, its code modules. The store keeps them beside the approval's hash, so a
 * file that waits again can say which of them changed (in every door, after any restart).
 */
import { createHash } from 'node:crypto';
import type { PluginFile } from '../plugins/plugin-file';

/** What each covered file was, by path relative to the workspace folder. */
export type CoveredParts = Readonly<Record<string, string>>;

function digest(text: string): string {
  return `sha256 ${createHash('sha256').update(text).digest('hex')}`;
}

/** The covered files of a loaded plugin file. */
export function coveredPartsOf(loaded: Pick<PluginFile, 'programFiles' | 'importSources' | 'sources'>): CoveredParts {
  const parts: Record<string, string> = {};
  for (const [name, entry] of loaded.sources ?? []) {
    parts[name] = 'file' in entry ? `sha256 ${entry.file.hash}` : `unusable: ${entry.problem}`;
  }
  for (const source of loaded.importSources ?? []) {
    parts[source.path] = source.content === null ? 'absent' : source.presenceOnly === true ? 'present' : digest(source.content);
  }
  for (const file of loaded.programFiles ?? []) {
    parts[file.path] = file.state;
  }
  return parts;
}

/** The paths whose state differs between an approval and now (created, deleted or edited), sorted. */
export function changedParts(approved: CoveredParts, now: CoveredParts): string[] {
  const paths = new Set([...Object.keys(approved), ...Object.keys(now)]);
  return [...paths].filter((name) => (approved[name] ?? 'absent') !== (now[name] ?? 'absent')).sort();
}
