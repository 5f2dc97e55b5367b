/**
 * Shell-quoted command lines to paste into a terminal or an MCP client's settings. Paths are
 * always quoted (they are the part most likely to hold spaces); other words only when needed.
 */
import type { LaunchCommand } from './launch';

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
 * A launch command as one line for a terminal or a client's settings: paths quoted (the words
 * most likely to hold spaces), other words only when needed, and its environment (NODE_OPTIONS of
 * the npx form) in front, as the shell sets it for one command.
 */
export function commandLineOf(launch: LaunchCommand, flavor: ShellFlavor): string {
  const words = [launch.command, ...launch.args].map((word) => quoteArg(word, flavor, /[\\/]/.test(word)));
  const env = Object.entries(launch.env ?? {}).map(([name, value]) =>
    flavor === 'windows' ? `set ${quoteArg(`${name}=${value}`, flavor, true)} &&` : `${name}=${quoteArg(value, flavor, true)}`,
  );
  return [...env, ...words].join(' ');
}
