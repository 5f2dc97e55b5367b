/**
 * The platform at the boundary: everything that differs between Linux, macOS and Windows takes a
 * `Platform` value, and this is the one file that reads `process.platform`. So every rule runs
 * in the unit tests with each platform's semantics (`path.win32` on Linux, for one), and the
 * real host is a single argument away.
 */
import * as path from 'node:path';

/** The platform families whose rules differ; other POSIX systems follow `posix`. */
export type PlatformName = 'linux' | 'darwin' | 'win32' | 'posix';

/** One platform's rules. */
export interface Platform {
  readonly name: PlatformName;
  /** Windows: drive letters, `\`, PATHEXT, no signals or process groups. */
  readonly windows: boolean;
  /** The path rules (path.win32 on Windows, path.posix elsewhere), whatever the host is. */
  readonly path: path.PlatformPath;
  /** The separator of PATH-like lists (`;` on Windows, `:` elsewhere). */
  readonly delimiter: string;
  /** Its usual file systems compare names case-insensitively (NTFS; APFS and HFS+ by default). */
  readonly caseInsensitiveNames: boolean;
}

const PLATFORMS: Readonly<Record<PlatformName, Platform>> = {
  linux: { name: 'linux', windows: false, path: path.posix, delimiter: ':', caseInsensitiveNames: false },
  darwin: { name: 'darwin', windows: false, path: path.posix, delimiter: ':', caseInsensitiveNames: true },
  win32: { name: 'win32', windows: true, path: path.win32, delimiter: ';', caseInsensitiveNames: true },
  posix: { name: 'posix', windows: false, path: path.posix, delimiter: ':', caseInsensitiveNames: false },
};

/** The rules of a Node platform name (`process.platform` values; FreeBSD and the like: posix). */
export function platformNamed(name: string): Platform {
  return name === 'linux' || name === 'darwin' || name === 'win32' ? PLATFORMS[name] : PLATFORMS.posix;
}

/** The platform this process runs on: the only `process.platform` read in the code base. */
export function hostPlatform(): Platform {
  return platformNamed(process.platform);
}

/** The key of a per-platform override in a plugin file (as VS Code's tasks.json has them). */
export function overrideKeyOf(platform: Platform): 'windows' | 'osx' | 'linux' | undefined {
  switch (platform.name) {
    case 'win32':
      return 'windows';
    case 'darwin':
      return 'osx';
    case 'linux':
      return 'linux';
    default:
      return undefined;
  }
}

/**
 * Gives this process a title of its own on Windows, before anything reads it. A Windows process
 * started without a console (`windowsHide`, as MCP clients and our own sandboxes start Node) has
 * no console title, and Node 22's libuv then fails an assertion (`process_title`, uv/win/util.c)
 * when the title is read: measured with node.exe 22.23 under Wine, where dist/mcp-server.js
 * started that way died before its first line. Once set, the title is never looked up. Elsewhere
 * the title stays the command line that `ps` shows.
 */
export function settleProcessTitle(platform: Platform, title: string): void {
  if (platform.windows) {
    process.title = title;
  }
}
