/**
 * The port the engine runs shell and imported tools through: whether the OS sandbox is there,
 * and the wrapping of one process request in it. The one implementation that sandboxes is
 * sandbox-service.ts (brokers hosting the sandbox runtime); `unsandboxed` stands in where
 * nothing is sandboxed (the setting is `off`, or a host that does not sandbox).
 */
import type { ProcessRequest } from '../process/run-process';
import type { SandboxPolicy } from './sandbox-policy';
import type { SandboxSetting, SandboxStatus } from './status';
import type { UserPlace } from './user-place';

/** A request wrapped for one call: run `request`, then call `done` whatever happened. */
export interface SandboxedRun {
  /** `/bin/sh -c <the runtime's command line>`, in the original's cwd, env and limits. */
  readonly request: ProcessRequest;
  /** The call's private temporary folder (TMPDIR inside), removed by `done`. */
  readonly tempFolder: string;
  /**
   * After the process ended (or could not start): lets the runtime clean up (the placeholder
   * files it made in the folder), removes the temporary folder, and gives the runtime's record
   * of what it refused on the network (`deny network-outbound host:port ...`). Never rejects.
   */
  done(): Promise<readonly string[]>;
}

export interface Sandbox {
  /** What happens to shell and imported tools when the sandbox is unavailable. */
  readonly setting: SandboxSetting;
  /** The home, state folders and extra hidden paths every policy of this engine has. */
  readonly user: UserPlace;
  /** What is known now (`checking` until a probe answered). */
  status(): SandboxStatus;
  /** The status once probed: starts the probe (a broker for `folder`, else a temporary folder) if nothing has. */
  ready(folder?: string): Promise<SandboxStatus>;
  /** Starts the broker `folder` needs for this kind of network in the background, so a first call does not wait for it. */
  warm(folder: string, network: 'restricted' | 'open'): void;
  /** `request` wrapped to run under `policy`; throws when the sandbox cannot (check `ready()` first). */
  wrap(request: ProcessRequest, policy: SandboxPolicy): Promise<SandboxedRun>;
  /** Stops every broker. */
  dispose(): void;
}

/** A sandbox that sandboxes nothing: `off`, or a host that never sandboxes. */
export function unsandboxed(user: UserPlace, setting: SandboxSetting = 'off'): Sandbox {
  const status: SandboxStatus = { state: 'off' };
  return {
    setting,
    user,
    status: () => status,
    ready: () => Promise.resolve(status),
    warm: () => undefined,
    wrap: () => Promise.reject(new Error('the sandbox is off')),
    dispose: () => undefined,
  };
}
