/**
 * Reading another process's resident memory, where the platform lets us: Linux from
 * /proc/<pid>/status, macOS and other POSIX systems from `ps -o rss=`. Windows has neither
 * (its Job Objects, the real cap, are out of Node's reach, and wmic reports no working set
 * under Wine), so there is no resident cap there: what holds instead is V8's heap cap
 * (--max-old-space-size) for JavaScript objects and the call's timeout for everything else.
 */
import { readFile } from 'node:fs/promises';
import type { HelperRunner } from './process-table';
import { runHelper } from './process-table';
import type { Platform } from './platform';

/** How a platform reads resident memory: how often to look, and the reading in MB (undefined: gone). */
export interface ResidentMemoryProbe {
  readonly intervalMs: number;
  readonly read: (pid: number) => Promise<number | undefined>;
}

/** The platform's probe, or undefined where no resident cap can be kept (Windows). */
export function residentMemoryProbe(platform: Platform, run: HelperRunner = runHelper, procRoot = '/proc'): ResidentMemoryProbe | undefined {
  if (platform.windows) {
    return undefined;
  }
  if (platform.name === 'linux') {
    return { intervalMs: 100, read: (pid) => procResidentMb(procRoot, pid) };
  }
  // A ps each time costs a few ms of CPU: looked at less often than /proc.
  return { intervalMs: 250, read: (pid) => psResidentMb(run, pid) };
}

/** VmRSS of `pid` in MB, or undefined when it cannot be read (the process is gone). */
async function procResidentMb(procRoot: string, pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`${procRoot}/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** `ps -o rss= -p PID` (kilobytes, on macOS as on Linux) in MB; undefined once it is gone. */
async function psResidentMb(run: HelperRunner, pid: number): Promise<number | undefined> {
  const { code, stdout } = await run('ps', ['-o', 'rss=', '-p', String(pid)]);
  const kb = code === 0 ? /^\s*(\d+)\s*$/.exec(stdout.toString('latin1'))?.[1] : undefined;
  return kb === undefined ? undefined : Number(kb) / 1024;
}
