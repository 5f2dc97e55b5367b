/**
 * Where the standalone server keeps its call history by default: the per-user state directory,
 * `$XDG_STATE_HOME/workspace-tools/history.jsonl` (`~/.local/state/...` when unset), on Windows
 * `%LOCALAPPDATA%\\workspace-tools\\history.jsonl`. VS Code keeps one per workspace instead.
 */
import * as os from 'node:os';
import type { Platform } from '../platform/platform';
import { hostPlatform } from '../platform/platform';
import { userFilePath } from '../user-paths';

export const HISTORY_FILE = 'history.jsonl';

export function defaultHistoryPath(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: Platform = hostPlatform(),
  home: string = os.homedir(),
): string {
  return userFilePath('state', HISTORY_FILE, env, platform, home);
}
