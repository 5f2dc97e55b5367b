// Writes package.json's contributes.languageModelTools from the engine's built-in and editor tool
// definitions (src/core/builtins, src/core/editor-bridge) and their lm presentation
// (src/extension/lm-tool-names.ts), and contributes.configuration from the settings table
// (src/core/settings/settings-table.ts), so the manifest cannot drift from the code:
// test/unit/extension/manifest.test.ts and test/unit/settings/settings-table.test.ts fail until
// this is run after a built-in's or editor tool's name, description or schema, or a setting,
// changes. Usage: node scripts/sync-manifest.mjs
import * as esbuild from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const entry = `
import { LM_TOOLS, lmToolManifestEntry } from './src/extension/lm-tool-names';
import { settingsManifest } from './src/core/settings/settings-manifest';
export const entries = LM_TOOLS.map(lmToolManifestEntry);
export const configuration = settingsManifest();
`;

const dir = mkdtempSync(join(tmpdir(), 'sync-manifest-'));
try {
  const outfile = join(dir, 'entries.mjs');
  await esbuild.build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'warning',
    mainFields: ['module', 'main'],
  });
  const { entries, configuration } = await import(pathToFileURL(outfile).href);
  // Read package.json only now, just before writing: another change may have landed meanwhile.
  const file = join(root, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  manifest.contributes ??= {};
  manifest.contributes.languageModelTools = JSON.parse(JSON.stringify(entries));
  manifest.contributes.configuration = JSON.parse(JSON.stringify(configuration));
  writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
  process.stderr.write(`package.json: ${entries.length} languageModelTools, ${Object.keys(configuration.properties).length} settings written\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
