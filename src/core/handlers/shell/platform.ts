/** Per-platform overrides of a shell handler's command or script (as in VS Code's tasks.json). */
import type { ShellHandlerSpec, ShellPlatformOverride } from '../../plugins/plugin-types';

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
 * The command or script that runs on `platform`: an override that sets either one replaces
 * both (so a platform can switch from `command` to `script` and back).
 */
export function effectiveProgram(
  spec: ShellHandlerSpec,
  platform: NodeJS.Platform,
): ShellPlatformOverride {
  const key = overrideKey(platform);
  const override = key === undefined ? undefined : spec[key];
  const chosen =
    override !== undefined && (override.command !== undefined || override.script !== undefined)
      ? override
      : spec;
  return {
    ...(chosen.command === undefined ? {} : { command: chosen.command }),
    ...(chosen.script === undefined ? {} : { script: chosen.script }),
  };
}
