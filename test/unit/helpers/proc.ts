/**
 * What Linux's /proc says about a process, for the security tests: the TCP ports it listens on
 * (an inspector that opened), its resident memory, its state and its nice value.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** The socket inodes a process holds open. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode !== undefined) {
        inodes.add(inode);
      }
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** "127.0.0.1:9229" from /proc/net/tcp's "0100007F:240D" (IPv6 addresses stay hex). */
function readableAddress(hex: string): string {
  const [address = '', port = '0'] = hex.split(':');
  const host = address.length === 8 ? [3, 2, 1, 0].map((index) => parseInt(address.slice(index * 2, index * 2 + 2), 16)).join('.') : `[${address}]`;
  return `${host}:${parseInt(port, 16)}`;
}

/** The TCP addresses `pid` listens on, IPv4 and IPv6 ([] for a process that is gone). */
export function listeningAddresses(pid: number): string[] {
  let inodes: Set<string>;
  try {
    inodes = socketInodes(pid);
  } catch {
    return [];
  }
  const listening: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      // columns: sl local_address rem_address st ... inode (10th); 0A is LISTEN
      if (columns[3] === '0A' && inodes.has(columns[9] ?? '')) {
        listening.push(readableAddress(columns[1] ?? ''));
      }
    }
  }
  return listening;
}

/** Whether anything at all listens on 127.0.0.1:`port` (whoever owns it). */
export function anyoneListensOn(port: number): boolean {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .some((line) => {
      const columns = line.trim().split(/\s+/);
      return columns[3] === '0A' && columns[1] === `0100007F:${hexPort}`;
    });
}

/** Resident memory of `pid` in MB (VmRSS). */
export function residentMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) {
    throw new Error(`no VmRSS for process ${pid}`);
  }
  return Number(kb) / 1024;
}

/** The process's state letter (R running, S sleeping, T stopped, Z zombie...). */
export function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).charAt(0);
}

/** The process's nice value (its scheduling priority as setPriority sets it). */
export function niceOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // after the command's ")": state is field 3; nice is field 19
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** Samples the resident memory of `pid` every `intervalMs` until `stop`, which gives the peak in MB. */
export function watchPeakResident(pid: number, intervalMs = 25): { stop(): number } {
  let peak = residentMb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, residentMb(pid));
    } catch {
      // the process is gone: the test says so
    }
  }, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}
