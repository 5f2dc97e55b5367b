/**
 * Settings that reach a running server without a restart: the tools the user switched off and
 * the limits. The VS Code extension writes them to a small JSON file it passes with `--settings`;
 * the server watches the file. (A changed command line would make VS Code ask the user to restart
 * the server before chat sees the change.)
 *
 *   { "disabledTools": ["deploy"], "timeoutMs": 30000, "maxOutputBytes": 1048576, "nestedConcurrency": 8 }
 *
 * Which settings are live, and how each is checked, is the settings table's (settings-table.ts).
 */
import { readFileSync } from 'node:fs';
import { writeFileReplacing } from '../platform/replace-file';
import type { LiveField, ToolSettings } from './settings-table';
import { LIVE_FIELDS, rowOf, valuesOf } from './settings-table';

/**
 * The live settings: the values of the live rows of the settings table (settings-table.ts), each
 * optional: an absent limit means the server's own (its flag, else the default), absent
 * `disabledTools` none.
 */
export type LiveSettings = { readonly [F in LiveField]?: ToolSettings[F] };

/** No tool switched off, the server's own limits. */
export const NO_LIVE_SETTINGS: LiveSettings = {};

/** The settings in `text`, or what is wrong with them (the file's path and the key in the message). */
export function parseLiveSettings(file: string, text: string): LiveSettings | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${file} does not hold a JSON object`;
  }
  const given = value as Readonly<Record<string, unknown>>;
  const wrong = LIVE_FIELDS.find((field) => given[field] !== undefined && rowOf(field).kind.fromJson(given[field]) === undefined);
  if (wrong !== undefined) {
    return `${file}: "${wrong}" must be ${rowOf(wrong).kind.expected}`;
  }
  const present = LIVE_FIELDS.filter((field) => given[field] !== undefined);
  // Each present value was just checked to be one of its row's kind.
  return valuesOf(present, (field, row) => row.kind.fromJson(given[field]) ?? row.default);
}

/**
 * Reads the file now: a missing file is no settings; a broken one is reported and gives
 * undefined, so the caller keeps what it had.
 */
export function readLiveSettings(file: string, report: (problem: string) => void): LiveSettings | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return NO_LIVE_SETTINGS;
  }
  const parsed = parseLiveSettings(file, text);
  if (typeof parsed === 'string') {
    report(`${parsed}; it is ignored until it is fixed`);
    return undefined;
  }
  return parsed;
}

/**
 * Writes the settings atomically (temp file + rename), so the server never reads half a file; two
 * writes at once (the extension does not wait for one before the next) each use their own temp file.
 */
export async function writeLiveSettings(file: string, settings: LiveSettings): Promise<void> {
  await writeFileReplacing(file, `${JSON.stringify(settings, null, 2)}\n`);
}
