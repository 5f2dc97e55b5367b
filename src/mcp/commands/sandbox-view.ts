/**
 * What the command line's displays (`approve`, `approve --list`, `list`) need to word each
 * tool's sandbox: the user-level place of this server's policies (its approval store and history,
 * hidden from every tool) and, when shell and imported tools run without the OS sandbox, the
 * engine's "not sandboxed" mark.
 */
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
