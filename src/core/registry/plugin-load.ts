/**
 * One load of the plugin files, as the registry builds its snapshot from it: the files, each
 * one's approval state and what changed since it was approved. Under `sandbox: required` the
 * load waits for the sandbox's probe, since what is served then depends on it.
 */
import type { PluginFile } from '../plugins/plugin-file';
import type { ApprovalState } from '../approval/approval-policy';
import { coveredPartsOf } from '../approval/covered-parts';
import type { Sandbox } from '../sandbox/sandbox';
import type { RegistryOptions } from './registry-options';

/** What a load read; kept so enabling a tool rebuilds the snapshot without touching the disk. */
export interface PluginLoad {
  readonly files: readonly PluginFile[];
  readonly approvals: ReadonlyMap<string, ApprovalState>;
  readonly changes: ReadonlyMap<string, readonly string[]>;
}

/** Before the first load: no file. */
export const NO_PLUGIN_LOAD: PluginLoad = { files: [], approvals: new Map(), changes: new Map() };

/** Reads the plugin files, their approval states and changes (none when plugins are off). */
export async function loadPlugins(options: Pick<RegistryOptions, 'loadPlugins' | 'approval' | 'sandbox'>): Promise<PluginLoad> {
  const files = options.loadPlugins === undefined ? [] : await options.loadPlugins();
  const approvals = await options.approval.statesOf(files);
  const changes = (await options.approval.changesOf?.(files.map(withCovers))) ?? new Map<string, readonly string[]>();
  await probeRequiredSandbox(options.sandbox, files);
  return { files, approvals, changes };
}

/** A loaded file as approval records it: with what each file it covers is now. */
export function withCovers(loaded: PluginFile): PluginFile & { readonly covers: ReturnType<typeof coveredPartsOf> } {
  return { ...loaded, covers: coveredPartsOf(loaded) };
}

/**
 * Under `required`, what is served depends on whether the sandbox is there: the first load with
 * a tool that needs it waits for the probe (started in the background otherwise).
 */
async function probeRequiredSandbox(sandbox: Sandbox | undefined, files: readonly PluginFile[]): Promise<void> {
  if (sandbox?.setting !== 'required') {
    return;
  }
  const needing = files.find((file) => file.tools.some((tool) => tool.sandbox?.kind === 'os'));
  if (needing !== undefined) {
    await sandbox.ready(needing.folder.path);
  }
}
