import type { Logger } from '../core/types';

import type { LogLevel } from '../core/settings/server-config';
import { LOG_LEVELS } from '../core/settings/server-config';

/** A logger for the stdio server: stderr only, because stdout carries the protocol. */
export function stderrLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  // Levels below the threshold get a function that does nothing, decided once, not per line.
  const at = (lineLevel: LogLevel) =>
    LOG_LEVELS.indexOf(lineLevel) >= threshold
      ? (message: string): void => {
          write(`${new Date().toISOString()} [${lineLevel}] ${message}\n`);
        }
      : (): void => undefined;
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
