/**
 * A Windows file system laid out in a real temp directory: `C:\Program Files\nodejs\npm.cmd` is
 * the file `<temp>/C/Program Files/nodejs/npm.cmd`. Names are compared case-insensitively, as
 * NTFS does, so what Windows semantics look up (path.win32, PATHEXT) lands on real files here.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ShimFiles } from '../../../src/core/platform/batch-shim';

export class WindowsDisk implements Required<ShimFiles> {
  readonly root = mkdtempSync(path.join(tmpdir(), 'wt-windisk-'));

  /** Writes `text` at the Windows path `file` (CRLF is the caller's: shims keep theirs). */
  write(file: string, text: string): this {
    const local = this.local(file, true);
    if (local === undefined) {
      throw new Error(`not a Windows path with a drive: ${file}`);
    }
    mkdirSync(path.dirname(local), { recursive: true });
    writeFileSync(local, text);
    return this;
  }

  readonly isFile = (file: string): boolean => {
    const local = this.local(file);
    return local !== undefined && statSync(local, { throwIfNoEntry: false })?.isFile() === true;
  };

  readonly readText = (file: string, maxBytes: number): string | undefined => {
    const local = this.local(file);
    return local !== undefined && this.isFile(file) && statSync(local).size <= maxBytes ? readFileSync(local, 'utf8') : undefined;
  };

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  /** The real path of a Windows path, matching each name case-insensitively (or, to write, as given). */
  private local(file: string, create = false): string | undefined {
    const normalized = path.win32.normalize(file);
    const drive = /^([A-Za-z]):\\/.exec(normalized)?.[1];
    if (drive === undefined) {
      return undefined;
    }
    let current = this.root;
    for (const name of [drive.toUpperCase(), ...normalized.slice(3).split('\\').filter((part) => part !== '')]) {
      const existing = create ? undefined : this.entries(current).find((entry) => entry.toLowerCase() === name.toLowerCase());
      if (!create && existing === undefined) {
        return undefined;
      }
      current = path.join(current, existing ?? name);
    }
    return current;
  }

  private entries(directory: string): string[] {
    try {
      return readdirSync(directory);
    } catch {
      return [];
    }
  }
}
