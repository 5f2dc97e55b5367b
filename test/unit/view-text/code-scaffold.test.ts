import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { readPluginSources } from '../../../src/core/plugins/plugin-sources';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import { CODE_TYPES_FILE, codeModulePath, codeModuleTemplate, codePluginFileTemplate } from '../../../src/extension/view-text/code-scaffold';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

const ROOT = path.resolve(__dirname, '../../../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

let workspace: TempDir;
before(() => {
  workspace = makeTempDir('wt-code-scaffold-');
  workspace.write(codeModulePath('team'), codeModuleTemplate());
  workspace.write(`.vscode/tools/${CODE_TYPES_FILE}`, readFileSync(path.join(ROOT, 'types/workspace-tools.d.ts'), 'utf8'));
  workspace.write('.vscode/tools/team.json', codePluginFileTemplate('team'));
});
after(() => workspace.cleanup());

describe('new plugin file: a code tool', () => {
  test('the module type-checks under strict TypeScript with the shipped types and no other package', async () => {
    const args = [TSC, '--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', path.join(workspace.path, codeModulePath('team'))];
    const result = await promisify(execFile)(process.execPath, args, { cwd: workspace.path }).catch((error: { stdout?: string; stderr?: string }) => error);
    assert.equal('code' in result ? (result as { code?: unknown }).code : 0, 0, `${result.stdout ?? ''}${result.stderr ?? ''}`);
  });

  test('the plugin file loads with no problems, and its tool runs the module in a sandbox', async () => {
    const folder = { name: 'ws', path: workspace.path };
    const text = codePluginFileTemplate('team');
    const loaded = loadPluginFile(path.join(workspace.path, '.vscode/tools/team.json'), text, folder, await readPluginSources(text, folder));
    assert.deepEqual(loaded.diagnostics, []);
    const [tool] = loaded.tools;
    assert.equal(tool?.name, 'team-text-stats');
    const quiet = (): void => undefined;
    const result = await tool?.run(
      { text: 'one two\nthree' },
      { folders: [folder], signal: new AbortController().signal, limits: DEFAULT_LIMITS, logger: { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet }, env: {} },
    );
    assert.equal(result?.isError, false, result?.text);
    assert.equal(result?.text, '2 lines, 3 words, 13 characters; the longest line has 7 characters.');
    assert.deepEqual(result?.structured, { lines: 2, words: 3, characters: 13, longestLine: 7 });
  });

  test('the longest accepted name still gives a valid tool name', async () => {
    const name = 'a'.repeat(48);
    const folder = { name: 'ws', path: workspace.path };
    const text = codePluginFileTemplate(name);
    const loaded = loadPluginFile(path.join(workspace.path, `.vscode/tools/${name}.json`), text, folder, await readPluginSources(text, folder));
    // The module is not there: the only problem is that one.
    assert.deepEqual(loaded.diagnostics.map((diagnostic) => diagnostic.message.replace(/".*"/, '"…"')), ['the module "…" cannot be used: File not found: .vscode/tools/' + name + '.ts']);
  });
});
