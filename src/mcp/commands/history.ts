/**
 * `history`: the most recent calls from the history file, newest first, as text or JSON. Reads
 * only: it starts no registry and runs nothing.
 */
import type { CliCommand } from '../cli';
import { formatRecord } from '../../core/history/format-record';
import { HistoryFile } from '../../core/history/history-file';
import { defaultHistoryPath } from '../../core/history/history-path';
import { stderrLogger } from '../stderr-logger';

export async function history(command: Extract<CliCommand, { command: 'history' }>): Promise<number> {
  const file = command.options.historyFile ?? defaultHistoryPath();
  const records = await new HistoryFile(file, stderrLogger('warn')).read(command.limit);
  if (command.json) {
    process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
    return 0;
  }
  if (records.length === 0) {
    process.stdout.write(`No calls recorded in ${file}.\n`);
    return 0;
  }
  process.stdout.write(`${records.map(formatRecord).join('\n')}\n`);
  return 0;
}
