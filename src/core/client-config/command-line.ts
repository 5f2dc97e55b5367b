/**
 * Shell-quoted command lines to paste into a terminal or an MCP client's settings. Paths are
 * always quoted (they are the part most likely to hold spaces); other words only when needed.
 */

/** Which shell the line is for: POSIX shells, or Windows (cmd and PowerShell). */
export type ShellFlavor = 'posix' | 'windows';

const BARE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * One word quoted for the shell. POSIX: double quotes, with `\`, `"`, `$` and backquote escaped so
 * nothing expands. Windows: double quotes, an embedded quote doubled (file names cannot hold one).
 */
export function quoteArg(value: string, flavor: ShellFlavor, always = false): string {
  if (!always && value !== '' && BARE_WORD.test(value)) {
    return value;
  }
  if (flavor === 'windows') {
    return `"${value.replace(/"/g, '""')}"`;
  }
  return `"${value.replace(/[\\"$`]/g, (char) => `\\${char}`)}"`;
}

/** The platform's flavor (a Node platform name: hostPlatform().name). */
export function shellFlavorFor(platform: string): ShellFlavor {
  return platform === 'win32' ? 'windows' : 'posix';
}

/**
 * `node "<server>" --workspace "<folder>" ...`: runs the bundled MCP server for these folders
 * (none: the server uses the directory it is started in).
 */
export function serverCommandLine(serverPath: string, folders: readonly string[], flavor: ShellFlavor): string {
  const workspaces = folders.flatMap((folder) => ['--workspace', quoteArg(folder, flavor, true)]);
  return ['node', quoteArg(serverPath, flavor, true), ...workspaces].join(' ');
}
