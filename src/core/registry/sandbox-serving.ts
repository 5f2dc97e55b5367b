/**
 * What the OS sandbox changes about serving: under `required` with no sandbox, the tools that need
 * it are not served; and the brokers the served tools will need are started ahead of their calls.
 */
import type { ToolDefinition } from '../types';
import type { Sandbox } from '../sandbox/sandbox';
import { requiredButUnavailable } from '../sandbox/status';
import type { PluginFileStatus } from './snapshot';

/** Why a tool is not served for want of the sandbox (SnapshotInput.unserved), or undefined when every tool may be. */
export function unservedWithoutSandbox(sandbox: Sandbox | undefined): ((definition: ToolDefinition) => string | undefined) | undefined {
  const status = sandbox?.status();
  if (sandbox?.setting !== 'required' || status?.state !== 'unavailable') {
    return undefined;
  }
  return (definition) => (definition.sandbox?.kind === 'os' ? requiredButUnavailable(status) : undefined);
}

/**
 * Starts, in the background, the brokers the served tools of `files` will need: one per folder
 * with a shell or imported tool, and an open-network one where such a tool is tagged `network`.
 * Nothing without a sandbox, or with it off.
 */
export function warmSandboxFor(sandbox: Sandbox | undefined, files: readonly PluginFileStatus[]): void {
  if (sandbox === undefined || sandbox.setting === 'off') {
    return;
  }
  for (const file of files) {
    const served = file.tools.filter((tool) => tool.state === 'active' && tool.definition.sandbox?.kind === 'os');
    if (served.length > 0) {
      sandbox.warm(file.loaded.folder.path, 'restricted');
    }
    if (served.some((tool) => tool.definition.tags.includes('network'))) {
      sandbox.warm(file.loaded.folder.path, 'open');
    }
  }
}
