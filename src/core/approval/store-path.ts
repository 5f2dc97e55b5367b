/**
 * Where the per-user approval store lives. One file for every door (the VS Code extension, the
 * server it starts, the standalone server, the command line), so a file approved in one is
 * served by all of them.
 */
import * as os from 'node:os';
import type { Platform } from '../platform/platform';
import { hostPlatform } from '../platform/platform';
import { USER_DIRECTORY, userFilePath } from '../user-paths';

/** The store's file name inside the configuration directory. */
export const APPROVAL_STORE_FILE = 'approvals.json';

/** The configuration directory's name under the platform's user configuration root. */
export const CONFIG_DIRECTORY = USER_DIRECTORY;

/**
 * `$XDG_CONFIG_HOME/workspace-tools/approvals.json`, by default `~/.config/workspace-tools/...`;
 * on Windows `%APPDATA%\workspace-tools\approvals.json`. A relative XDG_CONFIG_HOME is ignored,
 * as the XDG specification says.
 */
export function defaultApprovalStorePath(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: Platform = hostPlatform(),
  home: string = os.homedir(),
): string {
  return userFilePath('config', APPROVAL_STORE_FILE, env, platform, home);
}
