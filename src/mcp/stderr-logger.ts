import type { Logger } from '../core/types';

/** A `--log-level`: the lowest level written (`off`: none). */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'off';

/** Every level, quietest last: a logger at one level writes that level and those after it. */
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'off'];

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
