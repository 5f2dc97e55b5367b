/**
 * Killing a process tree, each platform its way:
 * - Linux: the process group at once; with `walk`, first every descendant found in /proc by
 *   parent pid, so one that called `setsid` to leave the group dies too.
 * - macOS and other POSIX systems: the same, the group frozen (SIGSTOP) while `ps` lists the
 *   tree, since there is no /proc.
 * - Windows: `taskkill /T /F`; when that fails (Wine's taskkill has no /T; access denied or a
 *   process gone midway on Windows), the root is ended, and with `walk` every descendant found by
 *   parent pid (wmic, or PowerShell where wmic is gone) is ended one by one.
 * What still escapes is in docs/handlers.md#shell-handler.
 */
import type { HelperRunner } from './process-table';
import { descendantsIn, listedParentMap, procParentMap, runHelper } from './process-table';
import type { Platform } from './platform';
import { hostPlatform } from './platform';

/** How thoroughly to kill. */
export interface TreeKillOptions {
  /**
   * Also find descendants by parent pid (those that left the group, or that taskkill missed):
   * costs a look at every process, so only on timeout, cancellation and pipes held open.
   */
  readonly walk: boolean;
  /**
   * The root has already exited (the clean-up after a normal end). On Windows nothing cheap can
   * find what it left behind, so without `walk` nothing is done there.
   */
  readonly exited?: boolean;
}

/** What killing needs from the outside world; the host's by default, a recorder in tests. */
export interface TreeKillDeps {
  readonly platform: Platform;
  readonly run: HelperRunner;
  /** `process.kill`: a negative pid names a POSIX process group; throws when nothing is there. */
  readonly signal: (pid: number, signal: NodeJS.Signals) => void;
  /** Where /proc is (Linux). */
  readonly procRoot?: string;
}

/** The host's ways of killing. */
function hostKillDeps(): TreeKillDeps {
  return { platform: hostPlatform(), run: runHelper, signal: (pid, signal) => process.kill(pid, signal) };
}

/**
 * Kills the tree of `pid` (a process group leader on POSIX); quiet when it is already gone.
 * Resolves once every kill was sent.
 */
export async function killTree(pid: number, options: TreeKillOptions, deps: TreeKillDeps = hostKillDeps()): Promise<void> {
  if (deps.platform.windows) {
    return killWindowsTree(pid, options, deps);
  }
  if (deps.platform.name === 'linux') {
    // Seen before the kill: once the parents die, their children are re-parented to init. Killed
    // after the group, so a shell is gone before it could report its children's deaths.
    const escaped = options.walk ? descendantsIn(procParentMap(deps.procRoot) ?? new Map(), pid) : [];
    send(deps, -pid, 'SIGKILL');
    escaped.forEach((descendant) => send(deps, descendant, 'SIGKILL'));
    return;
  }
  if (!options.walk) {
    send(deps, -pid, 'SIGKILL');
    return;
  }
  // Frozen, the group cannot fork new children while ps looks.
  send(deps, -pid, 'SIGSTOP');
  const children = await listedParentMap(deps.platform, deps.run);
  send(deps, -pid, 'SIGKILL');
  descendantsIn(children ?? new Map(), pid).forEach((descendant) => send(deps, descendant, 'SIGKILL'));
}

async function killWindowsTree(pid: number, options: TreeKillOptions, deps: TreeKillDeps): Promise<void> {
  if (options.exited === true && !options.walk) {
    return;
  }
  const taskkill = await deps.run('taskkill', ['/pid', String(pid), '/T', '/F']);
  if (taskkill.code === 0) {
    return;
  }
  send(deps, pid, 'SIGKILL');
  if (!options.walk) {
    return;
  }
  // Windows keeps the parent pid of a process whose parent has exited, so the tree is still
  // there to walk after the root is gone.
  const children = await listedParentMap(deps.platform, deps.run);
  descendantsIn(children ?? new Map(), pid).forEach((descendant) => send(deps, descendant, 'SIGKILL'));
}

function send(deps: TreeKillDeps, pid: number, signal: NodeJS.Signals): void {
  try {
    deps.signal(pid, signal);
  } catch {
    // ESRCH: already gone
  }
}
