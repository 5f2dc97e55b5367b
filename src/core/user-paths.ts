/**
 * Where per-user files live: one directory, `workspace-tools`, under the platform's place for
 * configuration (approvals) or state (the call history), as the XDG base directory specification
 * and Windows have them. A relative XDG variable is ignored, as the specification says (and so
 * is a relative %APPDATA% or %LOCALAPPDATA%). macOS follows XDG too, as command-line tools there
 * commonly do (git, gh): `~/.config`, `~/.local/state`.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { Platform } from './platform/platform';
import { hostPlatform } from './platform/platform';

/** The directory's name under the platform's user roots. */
export const USER_DIRECTORY = 'workspace-tools';

const ROOTS = {
  config: { xdg: 'XDG_CONFIG_HOME', posixDefault: ['.config'], windows: 'APPDATA', windowsDefault: ['AppData', 'Roaming'] },
  state: { xdg: 'XDG_STATE_HOME', posixDefault: ['.local', 'state'], windows: 'LOCALAPPDATA', windowsDefault: ['AppData', 'Local'] },
} as const;

/** `$XDG_<KIND>_HOME/workspace-tools/<file>`, or its default, or the Windows equivalent. */
export function userFilePath(
  kind: keyof typeof ROOTS,
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: Platform = hostPlatform(),
  home: string = os.homedir(),
): string {
  const root = ROOTS[kind];
  if (platform.windows) {
    // A relative %APPDATA% would put the store wherever the process happens to start.
    const variable = env[root.windows];
    const base = variable !== undefined && platform.path.isAbsolute(variable) ? variable : platform.path.join(home, ...root.windowsDefault);
    return platform.path.join(base, USER_DIRECTORY, file);
  }
  const xdg = env[root.xdg];
  const base = xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, ...root.posixDefault);
  return path.posix.join(base, USER_DIRECTORY, file);
}
