import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createEditorTools } from '../../../src/core/editor-bridge/editor-tools';
import { EDITOR_TOOL_NAMES } from '../../../src/core/editor-bridge/editor-tool-specs';
import { InputValidator } from '../../../src/core/registry/input-validator';
import { errorResultFor, ToolInputError } from '../../../src/core/tool-errors';
import type { ToolResult, WorkspaceFolder } from '../../../src/core/types';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir, toolContext } from '../helpers/git-repo';
import type { ScriptedEditor } from './scripted-editor';
import { range, scriptedEditor } from './scripted-editor';

const validator = new InputValidator();

/** Runs an editor tool as the registry does: input validated (defaults applied), a throw worded. */
async function run(editor: ScriptedEditor, name: string, input: Record<string, unknown>, folders: readonly WorkspaceFolder[]): Promise<ToolResult> {
  const tool = createEditorTools(editor).find((candidate) => candidate.name === name);
  assert.ok(tool, name);
  try {
    const checked = validator.check(tool.inputSchema, input);
    if (!checked.ok) {
      throw new ToolInputError(checked.message);
    }
    const result = await tool.run(checked.input, toolContext(folders));
    if (!result.isError && tool.outputSchema !== undefined) {
      const output = validator.check(tool.outputSchema, result.structured, 'structured');
      assert.ok(output.ok, `${name}'s structured output fits its outputSchema: ${output.ok ? '' : output.message}`);
    }
    return result;
  } catch (error) {
    return errorResultFor(name, error);
  }
}

describe('editor tools', () => {
  let workspace: TempDir;
  let elsewhere: TempDir;
  let folders: WorkspaceFolder[];
  let mainFile: string;
  let utilFile: string;
  before(() => {
    workspace = makeTempDir('wt-editor-');
    elsewhere = makeTempDir('wt-elsewhere-');
    workspace.write('src/main.ts', "import { greet } from './util';\nconst n: number = greet('x');\n");
    workspace.write('src/util.ts', 'export function greet(name: string): string {\n  return name;\n}\n');
    elsewhere.write('secret/lib.d.ts', 'declare function greet(): void;\n');
    // A folder of the workspace that is a link to somewhere else: its files are outside.
    symlinkSync(path.join(elsewhere.path, 'secret'), path.join(workspace.path, 'linked'));
    folders = [{ name: 'app', path: workspace.path }];
    mainFile = path.join(workspace.path, 'src/main.ts');
    utilFile = path.join(workspace.path, 'src/util.ts');
  });
  after(() => {
    workspace.cleanup();
    elsewhere.cleanup();
  });

  test('there are six, all read-only, each with an output schema', () => {
    const tools = createEditorTools(scriptedEditor());
    assert.deepEqual(tools.map((tool) => tool.name), ['editor-diagnostics', 'editor-definition', 'editor-references', 'editor-symbols', 'editor-hover', 'editor-open-files']);
    assert.deepEqual(EDITOR_TOOL_NAMES, tools.map((tool) => tool.name));
    for (const tool of tools) {
      assert.deepEqual(tool.tags, ['read']);
      assert.ok(tool.outputSchema, tool.name);
      assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
    }
  });

  test('definition: a 1-based position in, workspace-relative 1-based places out', async () => {
    const editor = scriptedEditor({ definition: [{ file: utilFile, range: range(0, 16, 21) }] });
    const result = await run(editor, 'editor-definition', { path: 'src/main.ts', line: 2, column: 19 }, folders);
    assert.equal(result.isError, false, result.text);
    assert.deepEqual(editor.asked, [`definition ${mainFile} 1:18`]);
    assert.deepEqual(result.structured?.['definitions'], [{ folder: 'app', path: 'src/util.ts', line: 1, column: 17, endLine: 1, endColumn: 22 }]);
    assert.deepEqual(result.structured?.['target'], { folder: 'app', path: 'src/main.ts', line: 2, column: 19 });
    assert.match(result.text, /^Definition of src\/main\.ts:2:19:\n {2}src\/util\.ts:1:17$/);
  });

  test('definitions outside the workspace are left out and counted, a link out of the folder included', async () => {
    const editor = scriptedEditor({
      definition: [
        { file: utilFile, range: range(0, 16, 21) },
        { file: path.join(elsewhere.path, 'secret/lib.d.ts'), range: range(0, 17, 22) },
        { file: path.join(workspace.path, 'linked/lib.d.ts'), range: range(0, 17, 22) },
        { file: '/usr/lib/node_modules/typescript/lib/lib.es5.d.ts', range: range(10, 0, 4) },
      ],
    });
    const result = await run(editor, 'editor-definition', { path: 'src/main.ts', line: 2, column: 19 }, folders);
    assert.equal(result.isError, false, result.text);
    assert.deepEqual(result.structured?.['definitions'], [{ folder: 'app', path: 'src/util.ts', line: 1, column: 17, endLine: 1, endColumn: 22 }]);
    assert.equal(result.structured?.['outsideWorkspace'], 3);
    assert.doesNotMatch(result.text, /secret|linked|lib\.es5|wt-elsewhere/);
    assert.match(result.text, /\(3 definitions outside the workspace folders left out\)/);
  });

  test('a symbol name is found by workspace symbol search, at its name (from the outline)', async () => {
    const editor = scriptedEditor({
      workspaceSymbols: [
        { name: 'greeting', kind: 'Variable', location: { file: mainFile, range: range(0, 0, 5) } },
        // TypeScript names a function with its parentheses in a workspace search.
        { name: 'greet()', kind: 'Function', location: { file: utilFile, range: { start: { line: 0, character: 0 }, end: { line: 2, character: 1 } } } },
      ],
      documentSymbols: {
        [utilFile]: [{ name: 'greet', kind: 'Function', range: { start: { line: 0, character: 0 }, end: { line: 2, character: 1 } }, selectionRange: range(0, 16, 21), children: [] }],
      },
      references: [
        { file: mainFile, range: range(1, 18, 23) },
        { file: utilFile, range: range(0, 16, 21) },
        { file: mainFile, range: range(0, 9, 14) },
      ],
    });
    const result = await run(editor, 'editor-references', { symbol: 'greet' }, folders);
    assert.equal(result.isError, false, result.text);
    assert.deepEqual(editor.asked, ['workspaceSymbols greet', `documentSymbols ${utilFile}`, `references ${utilFile} 0:16`]);
    assert.deepEqual(
      (result.structured?.['references'] as Array<{ path: string; line: number }>).map((r) => `${r.path}:${r.line}`),
      ['src/main.ts:1', 'src/main.ts:2', 'src/util.ts:1'],
    );
    assert.equal(result.structured?.['total'], 3);
  });

  test('a symbol nobody has is the model\'s to fix, with the names the search did find', async () => {
    const editor = scriptedEditor({ workspaceSymbols: [{ name: 'greeter', kind: 'Class', location: { file: utilFile, range: range(0, 0, 1) } }] });
    const result = await run(editor, 'editor-hover', { symbol: 'greet' }, folders);
    assert.equal(result.isError, true);
    assert.match(result.text, /Invalid input for tool "editor-hover":\nNo symbol named "greet" found in the workspace .*similar: greeter/);
  });

  test('a path outside the folder is refused before the editor is asked', async () => {
    const editor = scriptedEditor();
    for (const outside of ['../x.ts', path.join(elsewhere.path, 'secret/lib.d.ts'), 'linked/lib.d.ts']) {
      const result = await run(editor, 'editor-hover', { path: outside, line: 1 }, folders);
      assert.equal(result.isError, true, outside);
      assert.match(result.text, /Invalid input for tool "editor-hover":\nPath .* (is outside|leads \(through a symbolic link\) outside) the allowed directory/, outside);
    }
    assert.deepEqual(editor.asked, []);
  });

  test('a position needs a path and a line; a symbol and a position together are refused', async () => {
    const editor = scriptedEditor();
    assert.match((await run(editor, 'editor-definition', { line: 3 }, folders)).text, /A position needs "path" and "line"/);
    assert.match((await run(editor, 'editor-definition', {}, folders)).text, /Give a position \("path", "line" and "column", 1-based\) or a "symbol" name/);
    assert.match((await run(editor, 'editor-definition', { path: 'src/main.ts', line: 1, symbol: 'greet' }, folders)).text, /not both/);
    assert.match((await run(editor, 'editor-definition', { path: 'src/main.ts', line: 0 }, folders)).text, /"line": must be >= 1/);
  });

  test('hover: the text, with paths outside the workspace replaced', async () => {
    const outside = path.join(elsewhere.path, 'secret/lib.d.ts');
    const editor = scriptedEditor({
      hover: ['```typescript\nconst n: number\n```', `module "${outside}" and file://${outside}#L1 beside ${utilFile} and https://example.com/a/b`],
    });
    const result = await run(editor, 'editor-hover', { path: 'src/main.ts', line: 2, column: 7 }, folders);
    assert.equal(result.isError, false, result.text);
    const hover = String(result.structured?.['hover']);
    assert.match(hover, /const n: number/);
    assert.ok(!hover.includes(elsewhere.path), hover);
    assert.equal(hover.split('<outside the workspace>').length - 1, 2, hover);
    assert.ok(hover.includes(utilFile), 'a path inside the workspace stays');
    assert.ok(hover.includes('https://example.com/a/b'), 'a URL is no path');
  });

  test('diagnostics: by least severity, sorted, outside files counted; one file', async () => {
    const editor = scriptedEditor({
      diagnostics: [
        { file: utilFile, diagnostics: [{ range: range(1, 2, 8), severity: 'warning', message: 'unused', source: 'eslint' }] },
        { file: mainFile, diagnostics: [{ range: range(1, 6, 7), severity: 'error', message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: '2322' }] },
        { file: path.join(elsewhere.path, 'secret/lib.d.ts'), diagnostics: [{ range: range(0, 0, 1), severity: 'error', message: 'secret problem' }] },
      ],
    });
    const errors = await run(editor, 'editor-diagnostics', { severity: 'error' }, folders);
    assert.equal(errors.isError, false, errors.text);
    assert.deepEqual(errors.structured?.['diagnostics'], [
      { folder: 'app', path: 'src/main.ts', line: 2, column: 7, endLine: 2, endColumn: 8, severity: 'error', message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: '2322' },
    ]);
    assert.equal(errors.structured?.['outsideWorkspace'], 1);
    assert.match(errors.text, /^1 problem in the workspace:\nsrc\/main\.ts:2:7 error ts2322: Type 'string' is not assignable to type 'number'\. \(ts\)/);
    assert.doesNotMatch(errors.text, /secret problem/);
    const all = await run(editor, 'editor-diagnostics', {}, folders);
    assert.equal(all.structured?.['total'], 2);
    const one = await run(editor, 'editor-diagnostics', { path: 'src/util.ts' }, folders);
    assert.deepEqual(editor.asked.at(-1), `diagnostics ${utilFile}`);
    assert.equal((one.structured?.['diagnostics'] as unknown[]).length, 1);
  });

  test('symbols: a query, or a file\'s outline with containers', async () => {
    const editor = scriptedEditor({
      workspaceSymbols: [
        { name: 'greet', kind: 'Function', location: { file: utilFile, range: range(0, 0, 3) } },
        { name: 'greet', kind: 'Function', location: { file: path.join(elsewhere.path, 'secret/lib.d.ts'), range: range(0, 0, 3) } },
      ],
      documentSymbols: {
        [utilFile]: [
          { name: 'Box', kind: 'Class', range: range(0, 0, 9), selectionRange: range(0, 6, 9), children: [{ name: 'open', kind: 'Method', range: range(1, 2, 9), selectionRange: range(1, 2, 6), children: [] }] },
        ],
      },
    });
    const found = await run(editor, 'editor-symbols', { query: 'greet' }, folders);
    assert.deepEqual(found.structured?.['symbols'], [{ name: 'greet', kind: 'Function', folder: 'app', path: 'src/util.ts', line: 1, column: 1, endLine: 1, endColumn: 4 }]);
    assert.equal(found.structured?.['outsideWorkspace'], 1);
    const outline = await run(editor, 'editor-symbols', { path: 'src/util.ts' }, folders);
    assert.deepEqual(
      (outline.structured?.['symbols'] as Array<{ name: string; container?: string; line: number; column: number }>).map((s) => [s.container, s.name, s.line, s.column]),
      [[undefined, 'Box', 1, 7], ['Box', 'open', 2, 3]],
    );
    assert.match((await run(editor, 'editor-symbols', {}, folders)).text, /Give either "query" .* or "path"/);
  });

  test('open files: the workspace ones by relative path, the active one with its selection; outside ones counted', async () => {
    const editor = scriptedEditor({
      openFiles: {
        open: [
          { file: mainFile, languageId: 'typescript', dirty: true },
          { file: path.join(elsewhere.path, 'secret/lib.d.ts'), dirty: false },
          { file: utilFile, languageId: 'typescript', dirty: false },
        ],
        active: { file: mainFile, selection: range(1, 6, 7), selectedText: 'n' },
      },
    });
    const result = await run(editor, 'editor-open-files', {}, folders);
    assert.equal(result.isError, false, result.text);
    assert.deepEqual(result.structured, {
      active: { folder: 'app', path: 'src/main.ts', selection: { line: 2, column: 7, endLine: 2, endColumn: 8 }, selectedText: 'n' },
      open: [
        { folder: 'app', path: 'src/main.ts', languageId: 'typescript', dirty: true },
        { folder: 'app', path: 'src/util.ts', languageId: 'typescript', dirty: false },
      ],
      outsideWorkspace: 1,
    });
    assert.doesNotMatch(result.text, /secret/);
  });
});
