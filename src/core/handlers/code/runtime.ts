/**
 * What the runtime that starts code tools can enforce. A sandbox is this same executable
 * (process.execPath: node, or Electron run as node), so the parent's flags describe the child's.
 * Node 20 has `--experimental-permission`; Node 22.13+/23.5+ call it `--permission`; Node 25
 * adds `--allow-net`. Before that the permission model does not restrict the network at all.
 */

/** The permission flags of this runtime. */
export interface SandboxRuntime {
  /** The executable that runs sandboxes. */
  readonly execPath: string;
  /** Node's version (Electron reports its embedded Node). */
  readonly nodeVersion: string;
  /** `--permission` or `--experimental-permission`; undefined when there is no permission model. */
  readonly permissionFlag: string | undefined;
  /** Whether the permission model denies network access unless `--allow-net` is given. */
  readonly restrictsNetwork: boolean;
  /**
   * Flags that take something away from the sandbox, given to every sandbox:
   * `--freeze-flags-after-init` (V8: `v8.setFlagsFromString` ends the process instead of turning
   * on `--allow-natives-syntax`, whose natives reach past JavaScript), and where this runtime has
   * them `--disable-sigusr1` (Node 22.14+/23.7+: SIGUSR1 cannot open its inspector) and
   * `--no-experimental-sqlite` (Node 22.13+: `node:sqlite` opens files the permission model does
   * not check; where the flag is missing the runner closes that door itself, sandbox-doors.ts).
   */
  readonly hardeningFlags: readonly string[];
}

/** Node flags that close a door of the sandbox, given whenever the runtime knows them. */
const HARDENING_FLAGS = ['--disable-sigusr1', '--no-experimental-sqlite'];

/**
 * V8's own flag (not listed among Node's): every V8 of a Node with a permission model (20+) has
 * it. Node turns it off at start so that v8.setFlagsFromString works; a sandbox turns it back on.
 */
const FREEZE_V8_FLAGS = '--freeze-flags-after-init';

/** This process's runtime. */
export function currentRuntime(): SandboxRuntime {
  const flags = process.allowedNodeEnvironmentFlags;
  const permissionFlag = flags.has('--permission') ? '--permission' : flags.has('--experimental-permission') ? '--experimental-permission' : undefined;
  return {
    execPath: process.execPath,
    nodeVersion: process.versions.node,
    permissionFlag,
    restrictsNetwork: permissionFlag !== undefined && flags.has('--allow-net'),
    hardeningFlags: [FREEZE_V8_FLAGS, ...HARDENING_FLAGS.filter((flag) => flags.has(flag))],
  };
}
