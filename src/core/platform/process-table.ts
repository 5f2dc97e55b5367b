/**
 * Who is whose parent, on each platform: Linux reads /proc (synchronously: the tree must be
 * seen before a kill re-parents it), macOS and other POSIX systems ask `ps`, Windows asks `wmic`
 * and, where wmic is gone (Windows 11 24H2), PowerShell's Get-CimInstance. Windows keeps a
 * process's parent pid after the parent exits, so there a tree can be walked after a kill too.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Platform } from './platform';

/** Runs a helper program and gives back its exit code (null: killed, or it did not start) and stdout. */
export type HelperRunner = (file: string, args: readonly string[]) => Promise<{ readonly code: number | null; readonly stdout: Buffer }>;

/** Helpers that do not answer in this time are given up on (a hung wmic must not hang a kill). */
const HELPER_TIMEOUT_MS = 15_000;

/** Runs `file` without a shell, its window hidden, stdout captured; never rejects. */
export const runHelper: HelperRunner = (file, args) =>
  new Promise((resolve) => {
    execFile(file, [...args], { encoding: 'buffer', windowsHide: true, timeout: HELPER_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout });
    });
  });

/** The Windows programs that list processes as "parent-pid pid" lines, best first. */
const WINDOWS_PROCESS_LISTERS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['wmic', ['process', 'get', 'ParentProcessId,ProcessId']],
  ['powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', "Get-CimInstance Win32_Process | ForEach-Object { '{0} {1}' -f $_.ParentProcessId, $_.ProcessId }"]],
];

/** The POSIX `ps` call that lists every process as "parent-pid pid" lines. */
const PS_PROCESS_LIST: readonly [string, readonly string[]] = ['ps', ['-A', '-o', 'ppid=,pid=']];

/**
 * Text from a Windows console tool: wmic writes UTF-16LE (with a byte order mark) into a pipe,
 * PowerShell the console's code page; digits and spaces read the same in any of them.
 */
export function decodeToolOutput(bytes: Buffer): string {
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes.length > 1 && bytes[1] === 0 && bytes[0] !== 0);
  return utf16 ? bytes.toString('utf16le').replace(/^\uFEFF/, '') : bytes.toString('latin1');
}

/** Parent → children, from "parent-pid pid" lines; headers and blank lines are skipped. */
export function parseParentPidLines(text: string): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const line of text.split(/\r?\n|\r/)) {
    const match = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
    if (match !== null) {
      addChild(children, Number(match[1]), Number(match[2]));
    }
  }
  return children;
}

function addChild(children: Map<number, number[]>, parent: number, pid: number): void {
  if (parent === pid) {
    return; // Windows' System Idle Process is its own parent
  }
  const siblings = children.get(parent);
  if (siblings === undefined) {
    children.set(parent, [pid]);
  } else {
    siblings.push(pid);
  }
}

/** Every descendant of `root` in a parent → children map (children first, then theirs). */
export function descendantsIn(children: ReadonlyMap<number, readonly number[]>, root: number): number[] {
  const found: number[] = [];
  const seen = new Set([root]);
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      if (!seen.has(child)) {
        seen.add(child);
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/** Parent → children from /proc (Linux), or undefined where /proc cannot be read. */
export function procParentMap(procRoot = '/proc'): Map<number, number[]> | undefined {
  let entries: string[];
  try {
    entries = readdirSync(procRoot);
  } catch {
    return undefined;
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && pid > 0) {
      const parent = parentFromProc(procRoot, pid);
      if (parent !== undefined) {
        addChild(children, parent, pid);
      }
    }
  }
  return children;
}

/** The parent pid from /proc/<pid>/stat ("pid (comm) state ppid ..."; comm may hold ")"). */
function parentFromProc(procRoot: string, pid: number): number | undefined {
  try {
    const stat = readFileSync(`${procRoot}/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const parent = Number(fields[1]);
    return Number.isInteger(parent) ? parent : undefined;
  } catch {
    return undefined; // it exited while we looked
  }
}

/**
 * Parent → children by asking the platform's tools (ps; wmic, then PowerShell): undefined when
 * none of them answered.
 */
export async function listedParentMap(platform: Platform, run: HelperRunner = runHelper): Promise<Map<number, number[]> | undefined> {
  const listers = platform.windows ? WINDOWS_PROCESS_LISTERS : [PS_PROCESS_LIST];
  for (const [file, args] of listers) {
    const { code, stdout } = await run(file, args);
    const children = code === 0 ? parseParentPidLines(decodeToolOutput(stdout)) : undefined;
    if (children !== undefined && children.size > 0) {
      return children;
    }
  }
  return undefined;
}
