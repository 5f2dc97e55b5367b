/**
 * Where the standalone server keeps its call history by default: the per-user state directory,
 * `$XDG_STATE_HOME/workspace-tools/history.jsonl` (`~/.local/state/...` when unset), on Windows
 * `%LOCALAPPDATA%\workspace-tools\history.jsonl`. VS Code keeps one per workspace instead.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { CONFIG_DIRECTORY } from '../approval/store-path';

export const HISTORY_FILE = 'history.jsonl';

export function defaultHistoryPath(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (platform === 'win32') {
    const local = env['LOCALAPPDATA'] ?? path.win32.join(home, 'AppData', 'Local');
    return path.win32.join(local, CONFIG_DIRECTORY, HISTORY_FILE);
  }
  const xdg = env['XDG_STATE_HOME'];
  const root = xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.local', 'state');
  return path.posix.join(root, CONFIG_DIRECTORY, HISTORY_FILE);
}
