/** Per-platform overrides of a shell handler's command or script (as in VS Code's tasks.json). */
import type { ProgramKey, SplitProgram } from './spec';

/** The override key for a Node platform, if the format has one. */
export function overrideKey(platform: NodeJS.Platform): 'windows' | 'osx' | 'linux' | undefined {
  switch (platform) {
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
 * The program that runs on `platform`: an override that sets either a command or a script
 * replaces both (so a platform can switch from `command` to `script` and back).
 */
export function effectiveProgram(programs: Readonly<Partial<Record<ProgramKey, SplitProgram>>>, platform: NodeJS.Platform): SplitProgram {
  const key = overrideKey(platform);
  const override = key === undefined ? undefined : programs[key];
  const chosen = override !== undefined && (override.command !== undefined || override.script !== undefined) ? override : programs.handler;
  return chosen ?? {};
}
