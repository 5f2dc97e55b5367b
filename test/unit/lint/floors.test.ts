/**
 * The lint rules that hold the layers (eslint.config.mjs): inside src/core every import points
 * down a floor (FLOORS), the MCP SDK is imported only in src/mcp, `vscode` only in src/extension.
 * ESLint's own Node API lints fixtures at paths inside the tree and the real tree itself, with the
 * project's config; only no-restricted-imports runs (type information is not needed for it).
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../../../..');
const RULE = 'no-restricted-imports';

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId === RULE,
});

/** The no-restricted-imports messages for `code` as if it were the file at `filePath`. */
async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  assert.ok(result !== undefined);
  const fatal = result.messages.filter((message) => message.fatal === true);
  assert.deepEqual(fatal, [], 'the fixture parses');
  return result.messages.filter((message) => message.ruleId === RULE).map((message) => message.message);
}

describe('floors inside src/core', () => {
  test('an upward import fails lint: files importing a plugins type, handlers importing steps', async () => {
    const fromFiles = await refusals('src/core/files/upward-fixture.ts', "import type { RunIf } from '../plugins/plugin-types';\nexport type Shown = RunIf;\n");
    assert.equal(fromFiles.length, 1);
    assert.match(fromFiles[0] ?? '', /src\/core\/types, tool-errors, templates, process, output, files, settings, content, sandbox, tasks, running may import only from their floor or below/);
    const deeper = await refusals('src/core/handlers/shell/upward-fixture.ts', "export { runSteps } from '../../steps/run-steps';\n");
    assert.equal(deeper.length, 1, 'an export-from and a deeper folder count too');
    const fromRoot = await refusals('src/core/types-fixture.ts', "import type { ToolRegistry } from './registry/tool-registry';\nexport type R = ToolRegistry;\n");
    assert.deepEqual(fromRoot, [], 'a top-level module in no floor is not checked (the tree test below keeps every real one in a floor)');
    const fromTypes = await refusals('src/core/types.ts', "import type { ToolRegistry } from './registry/tool-registry';\nexport type R = ToolRegistry;\n");
    assert.equal(fromTypes.length, 1, 'a top-level module of a floor is checked');
  });

  test('imports down or within a floor pass', async () => {
    assert.deepEqual(await refusals('src/core/plugins/down-fixture.ts', "import type { RunIf } from '../steps/run-if';\nimport type { SourceFiles } from '../files/source-file';\nimport type { HandlerTarget } from '../handlers/handler';\nexport type All = [RunIf, SourceFiles, HandlerTarget];\n"), []);
    assert.deepEqual(await refusals('src/core/registry/down-fixture.ts', "import { HistoryFile } from '../history/history-file';\nexport { HistoryFile };\n"), []);
  });

  test('the MCP SDK is refused in src/core and src/extension, allowed in src/mcp', async () => {
    for (const sdk of [
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport { McpServer };\n",
      "import { Server } from '@modelcontextprotocol/server';\nexport { Server };\n",
      "import { serveStdio } from '@modelcontextprotocol/server/stdio';\nexport { serveStdio };\n",
    ]) {
      for (const file of ['src/core/registry/sdk-fixture.ts', 'src/core/sdk-fixture.ts', 'src/extension/sdk-fixture.ts']) {
        const found = await refusals(file, sdk);
        assert.equal(found.length, 1, `${file}: ${sdk}`);
        assert.match(found[0] ?? '', /The MCP SDK is used only in src\/mcp/);
      }
      assert.deepEqual(await refusals('src/mcp/sdk-fixture.ts', sdk), []);
    }
  });

  test('vscode stays refused on every floor', async () => {
    const found = await refusals('src/core/steps/vscode-fixture.ts', "import * as vscode from 'vscode';\nexport { vscode };\n");
    assert.match(found[0] ?? '', /only src\/extension may import vscode/);
  });

  test('the real tree lints clean, and every folder and module of src/core is in a floor', async () => {
    const results = await eslint.lintFiles(['src']);
    const found = results.flatMap((result) => result.messages.map((message) => `${path.relative(ROOT, result.filePath)}:${message.line}: ${message.message}`));
    assert.deepEqual(found, []);
    const config = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href)) as { FLOORS: readonly (readonly string[])[] };
    const placed = new Set(config.FLOORS.flat());
    const entries = readdirSync(path.join(ROOT, 'src/core'), { withFileTypes: true }).map((entry) => (entry.isDirectory() ? entry.name : entry.name.replace(/\.ts$/, '')));
    assert.deepEqual(entries.filter((name) => !placed.has(name)), [], 'add these to FLOORS in eslint.config.mjs');
  });
});
