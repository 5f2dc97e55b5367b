/**
 * Where the per-user approval store lives. One file for every door (the VS Code extension, the
 * server it starts, the standalone server, the command line), so a file approved in one is
 * served by all of them.
 */
import * as os from 'node:os';
import * as path from 'node:path';

/** The store's file name inside the configuration directory. */
export const APPROVAL_STORE_FILE = 'approvals.json';

/** The configuration directory's name under the platform's user configuration root. */
export const CONFIG_DIRECTORY = 'workspace-tools';

/**
 * `$XDG_CONFIG_HOME/workspace-tools/approvals.json`, by default `~/.config/workspace-tools/...`;
 * on Windows `%APPDATA%\workspace-tools\approvals.json`. A relative XDG_CONFIG_HOME is ignored,
 * as the XDG specification says.
 */
export function defaultApprovalStorePath(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (platform === 'win32') {
    const appData = env['APPDATA'] ?? path.win32.join(home, 'AppData', 'Roaming');
    return path.win32.join(appData, CONFIG_DIRECTORY, APPROVAL_STORE_FILE);
  }
  const xdg = env['XDG_CONFIG_HOME'];
  const root = xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.config');
  return path.posix.join(root, CONFIG_DIRECTORY, APPROVAL_STORE_FILE);
}
