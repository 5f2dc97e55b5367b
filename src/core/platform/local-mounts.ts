/**
 * Whether a real path lies on a local disk file system, from the kernel's mount table
 * (/proc/self/mountinfo, Linux): the longest mount point that holds the path, and its type. The
 * read path asks such a file system directly (file-access.ts); a network file system (NFS, SMB,
 * sshfs and other FUSE mounts, WSL's 9p and drvfs), an automount or anything unknown is asked
 * through the thread pool, where a call that hangs holds one pool thread and not the event loop.
 * The table is read from memory (procfs), again when it is older than REREAD_MS; elsewhere than
 * Linux nothing counts as local.
 */
import { readFileSync } from 'node:fs';

/** Disk and memory file systems: a call on them is answered by this machine, never by a network. */
export const LOCAL_FILE_SYSTEMS: ReadonlySet<string> = new Set(['ext2', 'ext3', 'ext4', 'xfs', 'btrfs', 'bcachefs', 'zfs', 'f2fs', 'jfs', 'reiserfs', 'tmpfs', 'ramfs', 'overlay']);

/** How long a read of the mount table is trusted: a mount made since is seen within this. */
export const REREAD_MS = 10_000;

/** One mount: where, and which file system type. */
export interface Mount {
  readonly point: string;
  readonly type: string;
}

/** The mounts of a mountinfo text (proc(5)), longest mount point first. */
export function parseMountInfo(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const separator = fields.indexOf('-', 6);
    const point = fields[4];
    const type = fields[separator + 1];
    if (separator === -1 || point === undefined || type === undefined) {
      continue;
    }
    mounts.push({ point: unescapeOctal(point), type });
  }
  return mounts.sort((a, b) => b.point.length - a.point.length);
}

/** The type of the file system `realPath` lies on: its longest enclosing mount point's. */
export function fileSystemOf(realPath: string, mounts: readonly Mount[]): string | undefined {
  return mounts.find(({ point }) => point === '/' || realPath === point || realPath.startsWith(`${point}/`))?.type;
}

/** Reads the process's mount table when it is older than REREAD_MS; a test gives its own. */
export class MountTable {
  private mounts: readonly Mount[] | undefined;
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly read: () => string | undefined = readMountInfo,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether `realPath` (a real path: no symbolic link in it) lies on a local disk file system. */
  isLocal(realPath: string): boolean {
    if (this.now() - this.readAt > REREAD_MS) {
      const text = this.read();
      this.mounts = text === undefined ? undefined : parseMountInfo(text);
      this.readAt = this.now();
    }
    const type = this.mounts === undefined ? undefined : fileSystemOf(realPath, this.mounts);
    return type !== undefined && LOCAL_FILE_SYSTEMS.has(type);
  }
}

/** /proc/self/mountinfo, or undefined where there is none (not Linux). */
function readMountInfo(): string | undefined {
  if (process.platform !== 'linux') {
    return undefined;
  }
  try {
    return readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return undefined;
  }
}

/** A mount point as the kernel escapes it: space, tab, newline and backslash as \ooo. */
function unescapeOctal(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}
