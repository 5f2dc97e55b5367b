// A hover is text the editor wrote: the editor knows files outside the workspace (a library, a
// file of another project, VS Code's own settings) and a hover may name them. editor-hover must
// not hand any of their paths to the model, however the hover writes them: as a `file:` URI with
// one slash or three, as a URI of another scheme (`vscode-userdata:`, `git:`, a remote), or as a
// path whose names hold characters other than ASCII letters and digits.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createEditorTools } from '../../../src/core/editor-bridge/editor-tools';
import type { WorkspaceFolder } from '../../../src/core/types';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir, toolContext } from '../helpers/git-repo';
import { scriptedEditor } from '../editor-bridge/scripted-editor';

let workspace: TempDir;
/** A second folder whose path has a space in it. */
let spaced: TempDir;
let folders: WorkspaceFolder[];
before(() => {
  workspace = makeTempDir('wt-hover-attack-');
  workspace.write('src/main.ts', 'const n = 1;\n');
  spaced = makeTempDir('wt hover spaced ');
  folders = [{ name: 'app', path: workspace.path }, { name: 'spaced', path: spaced.path }];
});
after(() => {
  workspace.cleanup();
  spaced.cleanup();
});

/** The hover text editor-hover gives the model when the editor's hover is `written`. */
async function hoverOf(written: string): Promise<string> {
  const tool = createEditorTools(scriptedEditor({ hover: [written] })).find((candidate) => candidate.name === 'editor-hover');
  assert.ok(tool);
  const result = await tool.run({ path: 'src/main.ts', line: 1, column: 7 }, toolContext(folders));
  assert.equal(result.isError, false, result.text);
  return String(result.structured?.['hover']);
}

const SECRET = '/home/victim/.ssh/id_ed25519';

for (const [how, written] of [
  ['a file: URI with one slash', `see file:${SECRET}`],
  ['a vscode-userdata: URI', `from vscode-userdata:/home/victim/.config/Code/User/settings.json`],
  ['a git: URI', `git:${SECRET}?ref=HEAD`],
  ['a vscode-remote: URI', `vscode-remote://ssh-remote+box${SECRET}`],
  ['a path with a non-ASCII name', `module "/home/victim/projé/secrets/keys.ts"`],
  ['a path with a space in a name', `module "/home/victim/My Projects/secrets/keys.ts"`],
  ['an unquoted path with a non-ASCII name', `at /home/victim/projé/secrets/keys.ts`],
  ['an unquoted path after =', `rootDir=/home/victim/secrets/x`],
] as const) {
  test(`editor-hover leaves out a path outside the workspace written as ${how}`, async () => {
    const hover = await hoverOf(written);
    assert.ok(!/victim|secrets|id_ed25519|settings\.json/.test(hover), `the hover names a file outside the workspace: ${hover}`);
    assert.match(hover, /<outside the workspace>/);
  });
}

test('editor-hover keeps a quoted path inside the workspace whole, spaces and all', async () => {
  const inside = `${spaced.path}/src/x.ts`;
  const hover = await hoverOf(`module "${inside}"`);
  assert.equal(hover.includes(`"${inside}"`), true, hover);
  assert.doesNotMatch(hover, /<outside the workspace>/);
});

test('editor-hover keeps a path inside the workspace, a web URL, and text that is no path', async () => {
  const inside = `${workspace.path}/src/main.ts`;
  const hover = await hoverOf(`const n: number (${inside}) https://example.com/a/b?c=d a/b ratio 3/4`);
  assert.ok(hover.includes(inside), hover);
  assert.ok(hover.includes('https://example.com/a/b?c=d'), hover);
  assert.ok(hover.includes('a/b ratio 3/4'), hover);
});

/** Runs an editor tool of a scripted editor over the test workspace. */
async function runTool(name: string, editor: ReturnType<typeof scriptedEditor>, input: Record<string, unknown>): Promise<{ text: string; structured: string }> {
  const tool = createEditorTools(editor).find((candidate) => candidate.name === name);
  assert.ok(tool);
  const result = await tool.run(input, toolContext(folders));
  assert.equal(result.isError, false, result.text);
  return { text: result.text, structured: JSON.stringify(result.structured) };
}

test('editor-diagnostics: a problem of a workspace file whose message names a file outside does not name it', async () => {
  const main = `${workspace.path}/src/main.ts`;
  const editor = scriptedEditor({
    diagnostics: [
      {
        file: main,
        diagnostics: [
          { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, severity: 'error', message: `File '/home/victim/secrets/keys.ts' is not under 'rootDir' '${workspace.path}/src'.`, source: 'ts', code: '6059' },
        ],
      },
    ],
  });
  const { text, structured } = await runTool('editor-diagnostics', editor, {});
  for (const shown of [text, structured]) {
    assert.ok(!/victim|secrets/.test(shown), shown);
    assert.match(shown, /<outside the workspace>/);
    assert.ok(shown.includes(`${workspace.path}/src`), 'the workspace path in the message stays');
  }
});

test('editor-symbols: a symbol of a workspace file named or contained by a path outside does not name it', async () => {
  const main = `${workspace.path}/src/main.ts`;
  const location = { file: main, range: { start: { line: 0, character: 6 }, end: { line: 0, character: 7 } } };
  const editor = scriptedEditor({
    workspaceSymbols: [
      { name: '"/home/victim/secrets/keys"', kind: 'Module', location },
      { name: 'n', kind: 'Variable', containerName: '"/home/victim/secrets/keys"', location },
    ],
  });
  const { text, structured } = await runTool('editor-symbols', editor, { query: 'n' });
  for (const shown of [text, structured]) {
    assert.ok(!/victim|secrets/.test(shown), shown);
  }
});
