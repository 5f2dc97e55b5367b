/**
 * Killing a process tree. A program that calls `setsid` (or `setpgid`) leaves our process group,
 * so killing the group misses it; walking the tree by parent pid before the kill finds it as long
 * as its parent still lives. Linux only (/proc); elsewhere the group kill is all there is, and the
 * README says what escapes.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const IS_WINDOWS = process.platform === 'win32';

/** Every live descendant of `root` (children first, then theirs), or [] where /proc is missing. */
export function descendantsOf(root: number): number[] {
  if (process.platform !== 'linux') {
    return [];
  }
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0) {
      continue;
    }
    const parent = parentOf(pid);
    if (parent !== undefined) {
      const siblings = children.get(parent);
      if (siblings === undefined) {
        children.set(parent, [pid]);
      } else {
        siblings.push(pid);
      }
    }
  }
  const found: number[] = [];
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** The parent pid from /proc/<pid>/stat ("pid (comm) state ppid ..."; comm may hold ")"). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const parent = Number(fields[1]);
    return Number.isInteger(parent) ? parent : undefined;
  } catch {
    return undefined; // it exited while we looked
  }
}

/**
 * Kills a process group and all of its descendants; quiet when they are already gone. With
 * `walk`, descendants that left the group (setsid) are found by parent pid first and killed too;
 * one whose parent already exited has been re-parented and cannot be found (see the README).
 */
export function killProcessTree(pid: number | undefined, walk = false): void {
  if (pid === undefined) {
    return;
  }
  // Collected before any kill (once the parents die, their children are re-parented to init) and
  // killed after the group, so a shell is gone before it could report its children's deaths.
  const escaped = walk && !IS_WINDOWS ? descendantsOf(pid) : [];
  try {
    if (IS_WINDOWS) {
      const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
        windowsHide: true,
        stdio: 'ignore',
      });
      // A missing taskkill must not crash the host with an unhandled 'error' event.
      killer.on('error', () => undefined);
    } else {
      process.kill(-pid, 'SIGKILL');
    }
  } catch {
    // ESRCH: the group has already exited.
  }
  for (const descendant of escaped) {
    try {
      process.kill(descendant, 'SIGKILL');
    } catch {
      // gone with the group, or already exited
    }
  }
}
