/**
 * The descendants of a process, found by parent pid. A program that calls `setsid` (or `setpgid`)
 * leaves our process group, so killing the group misses it; walking the tree by parent pid before
 * the kill finds it as long as its parent still lives. Linux only (/proc); elsewhere the group
 * kill is all there is, and the README says what escapes.
 */
import { readdirSync, readFileSync } from 'node:fs';

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
