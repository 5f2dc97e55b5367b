/** Per-platform overrides of a shell handler's command or script (as in VS Code's tasks.json). */
import type { Platform } from '../../platform/platform';
import { overrideKeyOf } from '../../platform/platform';
import type { ProgramKey, SplitProgram } from './spec';

/**
 * The program that runs on `platform`: an override that sets either a command or a script
 * replaces both (so a platform can switch from `command` to `script` and back).
 */
export function effectiveProgram(programs: Readonly<Partial<Record<ProgramKey, SplitProgram>>>, platform: Platform): SplitProgram {
  const key = overrideKeyOf(platform);
  const override = key === undefined ? undefined : programs[key];
  const chosen = override !== undefined && (override.command !== undefined || override.script !== undefined) ? override : programs.handler;
  return chosen ?? {};
}
