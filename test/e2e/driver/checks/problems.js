'use strict';
// Plugin problems in the Problems panel: a broken plugin file gets a "Workspace Tools" diagnostic on the plugin
// file at the problem's line and column, and it goes away when the file is fixed. (Loading runs in Restricted
// Mode too, so problems show there as well: nothing runs, but the user sees what is wrong.)
const vscode = require('vscode');
const F = require('../fixture');
const { poll, toolsDir, wsFolder, withTimeout, assertApi } = require('../lib');
const { approve } = require('./tree');

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

// Issue 28: a tasks.json task with the $tsc problem matcher, imported by a plugin file, run from Run Tool in the real
// VS Code; its problem lands in the Problems panel on the file the output names, at its line and column.
const TSC_LIKE = 'console.log("src/app.js(2,5): error TS2304: Cannot find name \'e2eImported\'."); process.exit(2);\n';
const TASKS = `${JSON.stringify({ version: '2.0.0', tasks: [{ label: 'e2e typecheck', type: 'shell', command: 'node e2e-tsc-like.js', problemMatcher: '$tsc' }] }, null, 2)}\n`;
const IMPORTS = `${JSON.stringify({ import: [{ from: 'tasks', include: ['e2e typecheck'] }] }, null, 2)}\n`;
const IMPORTED_TOOL = 'task-e2e-typecheck';

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
  {
    name: 'problems.imported_task_problem_matcher_reaches_the_problems_panel',
    scenarios: ['trusted'],
    needsDialogs: true, // approving the file and running a tool not tagged "read": the harness clicks
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const root = wsFolder();
      const files = {
        tasks: vscode.Uri.joinPath(root, '.vscode', 'tasks.json'),
        script: vscode.Uri.joinPath(root, 'e2e-tsc-like.js'),
        plugin: vscode.Uri.joinPath(toolsDir(), 'e2e-imports.json'),
      };
      const app = vscode.Uri.joinPath(root, 'src', 'app.js');
      const d = {};
      try {
        await vscode.workspace.fs.writeFile(files.script, Buffer.from(TSC_LIKE, 'utf8'));
        await vscode.workspace.fs.writeFile(files.tasks, Buffer.from(TASKS, 'utf8'));
        await vscode.workspace.fs.writeFile(files.plugin, Buffer.from(IMPORTS, 'utf8'));
        const pending = await poll(() => { const t = api.getTool(IMPORTED_TOOL); return t && t.state === 'pending' ? t : null; }, 15000);
        d.pending = !!pending;
        d.declared = pending && pending.source && pending.source.declared;
        await approve(files.plugin); // the harness clicks "Approve"
        d.active = !!(await poll(() => { const t = api.getTool(IMPORTED_TOOL); return t && t.state === 'active'; }, 10000));
        const result = await withTimeout(vscode.commands.executeCommand(F.commands.runTool, { name: IMPORTED_TOOL, input: {} }), 30000, 'runTool');
        d.result = result && { isError: result.isError, text: String(result.text || '').slice(0, 500), problems: result.structured && result.structured.problems };
        const shown = await poll(() => {
          const list = vscode.languages.getDiagnostics(app).filter((x) => x.source === `Workspace Tools: ${IMPORTED_TOOL}`);
          return list.length > 0 ? list : undefined;
        }, 10000);
        d.shown = (shown || []).map((x) => ({ line: x.range.start.line + 1, column: x.range.start.character + 1, message: x.message, severity: x.severity, code: x.code }));
        const first = d.shown[0];
        const pass = d.pending && !!d.declared && d.declared.line === 4 && d.active && d.result && d.result.isError
          && first && first.line === 2 && first.column === 5 && /Cannot find name 'e2eImported'/.test(first.message)
          && first.severity === vscode.DiagnosticSeverity.Error && first.code === '2304';
        return { pass: !!pass, detail: d };
      } finally {
        for (const uri of Object.values(files)) {
          await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
        }
        await vscode.commands.executeCommand('workbench.action.closeAllEditors').then(undefined, () => undefined);
      }
    },
  },
];
