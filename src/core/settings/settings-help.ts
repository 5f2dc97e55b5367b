/**
 * The `--help` lines of the settings' flags, from their rows (settings-table.ts), so a new
 * setting's flag is in `--help` the moment its row is in the table; and the example of the live
 * settings file that `--settings` shows, from the live rows.
 */
import type { HelpGroup } from './settings-table';
import { FLAGGED_FIELDS, LIVE_FIELDS, flagOf, rowOf } from './settings-table';

/** Where the text of an option starts; a longer flag is followed by two spaces instead. */
const TEXT_COLUMN = 22;

/** One option of `--help`: its flag (and value name) and its text, wrapped as written. */
export function optionLines(flag: string, text: readonly string[]): string {
  const head = `  ${flag}`;
  const [first = '', ...rest] = text;
  const lead = head.length + 2 <= TEXT_COLUMN ? head.padEnd(TEXT_COLUMN) : `${head}  `;
  return [`${lead}${first}`, ...rest.map((line) => `${' '.repeat(TEXT_COLUMN)}${line}`)].join('\n');
}

/** The `--help` lines of the settings' flags of one group, in the table's order. */
export function settingFlagsHelp(group: HelpGroup): string {
  return FLAGGED_FIELDS.map(flagOf)
    .filter((flag) => flag.helpGroup === group)
    .map((flag) => optionLines(flag.valueName === undefined ? flag.name : `${flag.name} ${flag.valueName}`, flag.help))
    .join('\n');
}

/** How wide the text of an option may be (the longest lines of `--help` reach column 95). */
const TEXT_WIDTH = 72;

/** A live settings file with each live row at its example value, as JSON lines of at most `width` characters. */
export function liveSettingsExample(width = TEXT_WIDTH): readonly string[] {
  const entries = LIVE_FIELDS.map((field) => `${JSON.stringify(field)}: ${JSON.stringify(rowOf(field).example).replace(/,/g, ', ')}`);
  const lines: string[] = [];
  let line = '{';
  entries.forEach((entry, index) => {
    const piece = `${entry}${index === entries.length - 1 ? '}' : ','}`;
    if (line.length > 1 && line.length + 1 + piece.length > width) {
      lines.push(line);
      line = ` ${piece}`;
    } else {
      line = line === '{' ? `{${piece}` : `${line} ${piece}`;
    }
  });
  return [...lines, line];
}
