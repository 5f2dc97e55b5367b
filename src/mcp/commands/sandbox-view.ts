/**
 * What the command line's displays (`approve`, `approve --list`, `list`) need to word each
 * tool's sandbox: the user-level place of this server's policies (its approval store and history,
 * hidden from every tool) and, when shell and imported tools run without the OS sandbox, the
 * engine's "not sandboxed" mark.
 */
import { defaultHistoryPath } from '../../core/history/history-path';
import type { SandboxView } from '../../core/sandbox/tool-sandbox-text';
import { userPlace } from '../../core/sandbox/user-place';
import type { ServerConfig } from '../../core/settings/server-config';
import { storePathFor } from './setup';

/**
 * The sandbox view of a command line. `notSandboxed` is the engine's mark for the sandbox's
 * status (unavailable under `preferred`, or `off`); undefined while the sandbox runs.
 */
export function sandboxViewFor(options: ServerConfig, notSandboxed?: string): SandboxView {
  // The history's folder is hidden even under --no-history: another server of the user's writes there.
  const place = userPlace({ approvalStorePath: storePathFor(options), historyPath: options.historyFile ?? defaultHistoryPath() });
  return { place, ...(notSandboxed === undefined ? {} : { notSandboxed }) };
}
