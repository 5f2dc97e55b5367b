/**
 * Watching real processes from tests: is a pid still running, wait for it to go, wait for a
 * child to report its pid through a file.
 */
import { existsSync, readFileSync } from 'node:fs';

/**
 * Whether `pid` still runs. A killed orphan stays a zombie until init reaps it, and signal 0
 * still reaches zombies, so on Linux the process state decides.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).charAt(0) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Polls until `pid` is gone (SIGKILL delivery and reaping are asynchronous); true if it went. */
export async function waitGone(pid: number, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && isAlive(pid)) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !isAlive(pid);
}

/** Polls until a child has written its pid into `file` (so it is running), then returns it. */
export async function waitForPid(file: string, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const pid = Number(existsSync(file) ? readFileSync(file, 'utf8').trim() : '');
    if (pid > 0) {
      return pid;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no pid appeared in ${file} within ${timeoutMs} ms`);
}
