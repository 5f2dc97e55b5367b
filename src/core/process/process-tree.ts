/**
 * Killing a program's process tree from the process layer: the platform's way (see
 * platform/kill-tree.ts), sent and not waited for.
 */
import type { TreeKillOptions } from '../platform/kill-tree';
import { killTree } from '../platform/kill-tree';

/**
 * Kills `pid`'s process tree (the group it leads on POSIX) without waiting; quiet when it is
 * already gone. See TreeKillOptions for `walk` and `exited`.
 */
export function killProcessTree(pid: number | undefined, options: TreeKillOptions = { walk: false }): void {
  if (pid !== undefined) {
    // killTree never rejects on a process that is gone; anything else is nothing a caller can fix.
    killTree(pid, options).catch(() => undefined);
  }
}
