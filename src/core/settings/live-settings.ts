/**
 * Settings that reach a running server without a restart: the tools the user switched off and
 * the limits. The VS Code extension writes them to a small JSON file it passes with `--settings`;
 * the server watches the file. (A changed command line would make VS Code ask the user to restart
 * the server before chat sees the change.)
 *
 *   { "disabledTools": ["deploy"], "timeoutMs": 30000, "maxOutputBytes": 1048576, "nestedConcurrency": 8 }
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { replaceFile } from '../platform/replace-file';

/** The live settings; absent limits mean the server's own. */
export interface LiveSettings {
  readonly disabledTools: readonly string[];
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  readonly nestedConcurrency?: number;
}

/** No tool switched off, the server's own limits. */
export const NO_LIVE_SETTINGS: LiveSettings = { disabledTools: [] };

/** The settings in `text`, or what is wrong with them (the file's path in the message). */
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
  const { disabledTools = [], timeoutMs, maxOutputBytes, nestedConcurrency } = value as Record<string, unknown>;
  if (!Array.isArray(disabledTools) || !disabledTools.every((name) => typeof name === 'string')) {
    return `${file}: "disabledTools" must be a list of tool names`;
  }
  for (const [key, number] of [['timeoutMs', timeoutMs], ['maxOutputBytes', maxOutputBytes], ['nestedConcurrency', nestedConcurrency]] as const) {
    if (number !== undefined && (typeof number !== 'number' || !Number.isInteger(number) || number <= 0)) {
      return `${file}: "${key}" must be a positive whole number`;
    }
  }
  return {
    disabledTools,
    ...(typeof timeoutMs === 'number' ? { timeoutMs } : {}),
    ...(typeof maxOutputBytes === 'number' ? { maxOutputBytes } : {}),
    ...(typeof nestedConcurrency === 'number' ? { nestedConcurrency } : {}),
  };
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

/** Writes the settings atomically (temp file + rename), so the server never reads half a file. */
export async function writeLiveSettings(file: string, settings: LiveSettings): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(settings, null, 2)}\n`, 'utf8');
  await replaceFile(temporary, file);
}
