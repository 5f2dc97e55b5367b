/**
 * The limits tools run with, from the rows of the settings table that set one (`limit`): the
 * extension host's from VS Code's values, the server's from its command line and live settings.
 * Every limit a setting carries is set here, so a row cannot be read and then dropped.
 */
import type { ExecutionLimits } from '../types';
import { DEFAULT_LIMITS } from '../types';
import type { LiveSettings } from './live-settings';
import type { ServerConfig } from './server-config';
import type { SettingField } from './settings-table';
import { SETTING_FIELDS, rowOf } from './settings-table';

/** The default limits, each one a row sets replaced by that row's value (`value` of its field, when a number). */
export function limitsWith(value: (field: SettingField) => unknown): ExecutionLimits {
  const limits: { -readonly [L in keyof ExecutionLimits]: ExecutionLimits[L] } = { ...DEFAULT_LIMITS };
  for (const field of SETTING_FIELDS) {
    const { limit } = rowOf(field);
    const given = value(field);
    if (limit !== undefined && typeof given === 'number') {
      limits[limit] = given;
    }
  }
  return limits;
}

/** A server's limits: the defaults, then the command line's, then the live settings'. */
export function serverLimitsOf(config: ServerConfig, live: LiveSettings): ExecutionLimits {
  const fromLive: Partial<Record<SettingField, unknown>> = live;
  const fromConfig: Partial<Record<SettingField, unknown>> = config;
  const limits = limitsWith((field) => fromLive[field] ?? fromConfig[field]);
  // Not a setting of the editor: the server's own flag (--large-output).
  return { ...limits, largeOutputBytes: config.largeOutputBytes ?? DEFAULT_LIMITS.largeOutputBytes };
}
