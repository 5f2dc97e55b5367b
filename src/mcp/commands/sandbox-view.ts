/**
 * What the command line's displays (`approve`, `approve --list`, `list`) need to word each
 * tool's sandbox: the user-level place of this server's policies (its approval store and history,
 * hidden from every tool) and, when shell and imported tools run without the OS sandbox, the
 * engine's "not sandboxed" mark.
 */
import type { ToolRegistry } from '../../core/registry/tool-registry';
import type { Sandbox } from '../../core/sandbox/sandbox';
import { sandboxMark } from '../../core/sandbox/status';
import type { SandboxView } from '../../core/sandbox/tool-sandbox-text';
import type { ServerConfig } from '../../core/settings/server-config';
import { userPlaceFor } from './setup';

/**
 * The sandbox view of a command line. `notSandboxed` is the engine's mark for the sandbox's
 * status (core/sandbox/status.ts sandboxMark: unavailable under `preferred`); `--sandbox off` marks
 * every such tool without a probe. Undefined while the sandbox runs.
 */
export function sandboxViewFor(options: ServerConfig, notSandboxed = options.sandbox === 'off' ? sandboxMark({ state: 'off' }) : undefined): SandboxView {
  return { place: userPlaceFor(options), ...(notSandboxed === undefined ? {} : { notSandboxed }) };
}

/**
 * The sandbox view with the engine's status found for real: when shell or imported tools are
 * loaded and the sandbox is not off, its probe runs (the first broker starts and runs `true`), so
 * `list` and `approve` mark them "not sandboxed" (or "not served") where the OS cannot sandbox.
 */
export async function probedSandboxViewFor(options: ServerConfig, registry: ToolRegistry, sandbox: Sandbox): Promise<SandboxView> {
  const needing = registry.files().find((file) => file.loaded.tools.some((tool) => tool.sandbox?.kind === 'os'));
  if (needing === undefined || sandbox.setting === 'off') {
    return sandboxViewFor(options);
  }
  return sandboxViewFor(options, sandboxMark(await sandbox.ready(needing.loaded.folder.path), sandbox.setting));
}
