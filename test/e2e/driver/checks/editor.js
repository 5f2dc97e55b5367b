'use strict';
// The plugin file in the editor: a CodeLens above each tool (Approve… while its file waits; Run and Run Tests once it
// is approved) and a hover on a {{placeholder}} showing the input property it reads, through VS Code's own
// executeCodeLensProvider / executeHoverProvider commands.
const vscode = require('vscode');
const { poll, screenshot, withTimeout, toolsDir, assertApi } = require('../lib');
const { approve } = require('./tree');

const TOOL = 'e2e-lens';
const FILE = {
  tools: [{
    name: TOOL,
    description: 'Prints a word',
    inputSchema: { type: 'object', properties: { word: { type: 'string', default: 'hello', description: 'The word to print' } } },
    tags: ['read'],
    handler: { type: 'shell', command: ['echo', '{{word}}'] },
    tests: [{ name: 'prints hello', expect: { outputContains: 'hello' } }],
  }],
};

/** The lenses VS Code gets from the providers for `uri`: { title, command, args } each. */
async function lensesOf(uri) {
  const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri, 10)) || [];
  return lenses.filter((l) => l.command).map((l) => ({ line: l.range.start.line, title: l.command.title, command: l.command.command, args: (l.command.arguments || []).map((a) => (a && a.fsPath) || a) }));
}

const FIXABLE = `{
  "tools": [
    { "name": "e2e-fixable", "descripton": "Counts matches",
      "inputSchema": { "type": "object", "properties": { "pattern": { "type": "string" } } },
      "handler": { "type": "shell", "command": "grep -rn {{pattern}} . | wc -l" } }
  ]
}
`;

module.exports = [
  {
    // quick fixes need no approval and no load: they edit text (this file is never saved)
    name: 'editor.quick_fixes_rename_a_misspelt_property_and_turn_a_piped_command_into_a_script',
    scenarios: ['trusted'],
    run: async () => {
      const uri = vscode.Uri.joinPath(toolsDir(), 'e2e-fixable.json');
      await vscode.workspace.fs.writeFile(uri, Buffer.from(FIXABLE, 'utf8'));
      const d = {};
      try {
        const document = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(document);
        const actionsAt = async (needle, shift) => {
          const position = document.positionAt(FIXABLE.indexOf(needle) + shift);
          return (await vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri, new vscode.Range(position, position))) || [];
        };
        const rename = (await actionsAt('"descripton"', 2)).filter((a) => /^Change "descripton"/.test(a.title));
        const script = (await actionsAt('grep -rn', 3)).filter((a) => /^Convert to "script"/.test(a.title));
        d.titles = [...rename, ...script].map((a) => a.title);
        if (script[0] && script[0].edit) await vscode.workspace.applyEdit(script[0].edit);
        if (rename[0]) {
          // the document changed: ask again where the misspelt name is now
          const position = document.positionAt(document.getText().indexOf('"descripton"') + 2);
          const again = ((await vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri, new vscode.Range(position, position))) || []).filter((a) => /^Change "descripton"/.test(a.title));
          if (again[0] && again[0].edit) await vscode.workspace.applyEdit(again[0].edit);
        }
        d.text = document.getText();
      } finally {
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
        await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
      }
      const pass = d.titles.length === 2 && d.text.includes('"description": "Counts matches"') && d.text.includes('"script": "grep -rn \\"$INPUT_PATTERN\\" . | wc -l"') && !d.text.includes('"command"');
      return { pass, detail: d };
    },
  },
  {
    name: 'editor.code_lens_and_placeholder_hover_in_a_plugin_file',
    scenarios: ['trusted'],
    needsDialogs: true, // the harness clicks "Approve"
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const uri = vscode.Uri.joinPath(toolsDir(), `${TOOL}.json`);
      const text = JSON.stringify(FILE, null, 2) + '\n';
      await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
      const d = {};
      try {
        d.pending = !!(await poll(() => { const t = api.getTool(TOOL); return t && t.state === 'pending'; }, 10000));
        const document = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(document);
        d.whilePending = await poll(async () => { const l = await lensesOf(uri); return l.some((x) => /Approve/.test(x.title)) ? l : null; }, 8000);
        const at = document.positionAt(text.indexOf('{{word}}') + 3);
        const hovers = (await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, at)) || [];
        d.hover = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
        await approve(uri);
        d.active = !!(await poll(() => { const t = api.getTool(TOOL); return t && t.state === 'active'; }, 10000));
        d.whenActive = await poll(async () => { const l = await lensesOf(uri); return l.some((x) => /Run$/.test(x.title)) ? l : null; }, 8000);
        // the lenses and the hover as a person sees them (in the run directory; the README's picture is the demo walk's)
        const editor = vscode.window.activeTextEditor;
        if (editor) {
          editor.selection = new vscode.Selection(at, at);
          await vscode.commands.executeCommand('editor.action.showHover');
          await screenshot('placeholder-hover', '.part.editor');
        }
        const runTests = (d.whenActive || []).find((x) => /Run Tests$/.test(x.title));
        d.testOutcomes = runTests ? await withTimeout(vscode.commands.executeCommand(runTests.command, ...runTests.args), 20000, 'Run Tests lens') : null;
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
      }
      const toolLine = 1; // the tool's "{" (line 0 is the file's)
      const pendingOk = !!d.whilePending && d.whilePending.some((x) => /Approve/.test(x.title) && x.command === 'workspaceTools.approveFile' && x.line >= toolLine) && !d.whilePending.some((x) => /Run/.test(x.title));
      const run = (d.whenActive || []).find((x) => /Run$/.test(x.title));
      const activeOk = !!run && run.command === 'workspaceTools.runTool' && run.args[0] === TOOL && (d.whenActive || []).some((x) => /Run Tests$/.test(x.title));
      const hoverOk = /`word`/.test(d.hover) && /The word to print/.test(d.hover) && /default `"hello"`/.test(d.hover);
      const testsOk = Array.isArray(d.testOutcomes) && d.testOutcomes.length === 1 && d.testOutcomes[0].passed;
      return { pass: d.pending && d.active && pendingOk && activeOk && hoverOk && testsOk, detail: d };
    },
  },
];
