/**
 * The source files a plugin file names (code tools' modules): found in its text, read beside it,
 * and hashed with it, so approving the file approves its modules and changing a module withdraws
 * the approval as changing the file does.
 */
import { createHash } from 'node:crypto';
import type { SourceFiles } from '../files/source-file';
import { readSourceFile } from '../files/source-file';
import type { WorkspaceFolder } from '../types';
import { parseJsonc } from './parse-jsonc';

/** The `module` of every code handler in the file (tools and steps), without repeats. */
export function sourceNamesOf(text: string): string[] {
  // Most plugin files have no code tool: no second parse for them.
  if (!text.includes('"code"')) {
    return [];
  }
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    return [];
  }
  const names = new Set<string>();
  const visit = (handler: unknown): void => {
    const spec = handler as { type?: unknown; module?: unknown } | null | undefined;
    if (spec?.type === 'code' && typeof spec.module === 'string') {
      names.add(spec.module);
    }
  };
  for (const tool of arrayOf((parsed.value as { tools?: unknown } | null)?.tools)) {
    const spec = tool as { handler?: unknown; steps?: unknown } | null;
    visit(spec?.handler);
    for (const step of arrayOf(spec?.steps)) {
      visit((step as { handler?: unknown } | null)?.handler);
    }
  }
  return [...names];
}

/** Reads every source file the plugin file's text names. */
export async function readPluginSources(text: string, folder: WorkspaceFolder): Promise<SourceFiles> {
  const names = sourceNamesOf(text);
  const entries = await Promise.all(names.map(async (name) => [name, await readSourceFile(folder, name)] as const));
  return new Map(entries);
}

/**
 * What approval keys a plugin file on: the sha256 of its bytes alone when it names no source
 * file (so approvals of such files are unchanged), else a sha256 over that and each source file's
 * name and content hash (or the fact that it could not be read). `imports` is what the file's
 * `import` section read (plugins/imported-tools.ts importsHashPart), taken in when not empty.
 */
export function pluginContentHash(fileHash: string, sources: SourceFiles | undefined, imports = ''): string {
  if (imports !== '') {
    return createHash('sha256').update(`workspace-tools plugin file and its imports\n${pluginContentHash(fileHash, sources)}\n`).update(imports).digest('hex');
  }
  if (sources === undefined || sources.size === 0) {
    return fileHash;
  }
  const hash = createHash('sha256').update(`workspace-tools plugin file and its modules\n${fileHash}\n`);
  for (const name of [...sources.keys()].sort()) {
    const entry = sources.get(name);
    hash.update(`${name}\0${entry !== undefined && 'file' in entry ? entry.file.hash : 'unreadable'}\n`);
  }
  return hash.digest('hex');
}

function arrayOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
