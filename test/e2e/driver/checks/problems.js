'use strict';
// Plugin problems in the Problems panel: a broken plugin file gets a "Workspace Tools" diagnostic on the plugin
// file at the problem's line and column, and it goes away when the file is fixed. (Loading runs in Restricted
// Mode too, so problems show there as well: nothing runs, but the user sees what is wrong.)
const vscode = require('vscode');
const { poll, toolsDir } = require('../lib');

// Line 5 (1-based) holds the problem: a string command with a pipe, which must be a script.
const BROKEN = [
  '{',
  '  "tools": [{',
  '    "name": "e2e-broken",',
  '    "description": "Has a shell operator in a string command",',
  '    "handler": { "type": "shell", "command": "cat notes.txt | wc -l" }',
  '  }]',
  '}',
  '',
].join('\n');

const FIXED = JSON.stringify({ tools: [{ name: 'e2e-broken', description: 'Now fine', handler: { type: 'shell', script: 'cat notes.txt | wc -l' } }] }, null, 2);

const ours = (uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Workspace Tools');

module.exports = [
  {
    name: 'problems.plugin_problems_appear_in_the_problems_panel_at_their_line_and_clear_when_fixed',
    scenarios: ['trusted'],
    timeoutMs: 30000,
    run: async () => {
      const uri = vscode.Uri.joinPath(toolsDir(), 'e2e-broken.json');
      const d = {};
      try {
        await vscode.workspace.fs.writeFile(uri, Buffer.from(BROKEN, 'utf8'));
        const shown = await poll(() => { const list = ours(uri); return list.length > 0 ? list : undefined; }, 15000);
        d.shown = (shown || []).map((x) => ({ line: x.range.start.line + 1, column: x.range.start.character + 1, message: x.message, severity: x.severity }));
        await vscode.workspace.fs.writeFile(uri, Buffer.from(FIXED, 'utf8'));
        d.cleared = !!(await poll(() => ours(uri).length === 0, 15000));
        const first = d.shown[0];
        const pass = first && first.line === 5 && /shell operator "\|"/.test(first.message) && /e2e-broken/.test(first.message)
          && first.severity === vscode.DiagnosticSeverity.Error && d.cleared;
        return { pass: !!pass, detail: d };
      } finally {
        await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
      }
    },
  },
];
