/**
 * Which family a shell program belongs to, by its base name: their quoting, variable references
 * and command-string arguments differ (the shell handler's script mode, imported tasks).
 */
import * as path from 'node:path';

/** The shell families whose quoting differs. */
export type ShellKind = 'posix' | 'cmd' | 'pwsh';

/** The program's base name, lower case, without `.exe` (`C:\Windows\cmd.exe` -> `cmd`). */
export function shellBaseName(executable: string): string {
  return path.basename(executable.replace(/\\/g, '/')).toLowerCase().replace(/\.exe$/, '');
}

/** cmd.exe, PowerShell (Windows PowerShell or pwsh), or a POSIX shell (everything else). */
export function shellKindOf(executable: string): ShellKind {
  const base = shellBaseName(executable);
  if (base === 'cmd') {
    return 'cmd';
  }
  return base === 'powershell' || base === 'pwsh' ? 'pwsh' : 'posix';
}
