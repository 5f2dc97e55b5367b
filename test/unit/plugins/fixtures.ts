/**
 * Paths of the plugin fixture files and a helper that loads one the way the scanner does:
 * from its real bytes on disk.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import type { PluginFile } from '../../../src/core/plugins/plugin-file';
import type { PluginDiagnostic, WorkspaceFolder } from '../../../src/core/types';

/** test/fixtures/plugins, from the compiled test's place in out/test/unit/plugins. */
export const FIXTURES = path.resolve(__dirname, '../../../../test/fixtures/plugins');

export const FOLDER: WorkspaceFolder = { name: 'workspace', path: FIXTURES };

/** Absolute path of a fixture, e.g. `fixture('schema', 'bad-name.json')`. */
export function fixture(...parts: string[]): string {
  return path.join(FIXTURES, ...parts);
}

/** Loads one fixture file from its bytes on disk. */
export function loadFixture(...parts: string[]): PluginFile {
  const file = fixture(...parts);
  return loadPluginFile(file, readFileSync(file), FOLDER);
}

/** The one diagnostic of a file (fails the test when there are none or several). */
export function onlyDiagnostic(loaded: PluginFile): PluginDiagnostic {
  if (loaded.diagnostics.length !== 1) {
    throw new Error(`expected one diagnostic, got ${JSON.stringify(loaded.diagnostics, null, 2)}`);
  }
  return loaded.diagnostics[0] as PluginDiagnostic;
}
