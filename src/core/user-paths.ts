/**
 * Where per-user files live: one directory, `workspace-tools`, under the platform's place for
 * configuration (approvals) or state (the call history), as the XDG base directory specification
 * and Windows have them. A relative XDG variable is ignored, as the specification says.
 */
import * as os from 'node:os';
import * as path from 'node:path';

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
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  const root = ROOTS[kind];
  if (platform === 'win32') {
    return path.win32.join(env[root.windows] ?? path.win32.join(home, ...root.windowsDefault), USER_DIRECTORY, file);
  }
  const xdg = env[root.xdg];
  const base = xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, ...root.posixDefault);
  return path.posix.join(base, USER_DIRECTORY, file);
}
