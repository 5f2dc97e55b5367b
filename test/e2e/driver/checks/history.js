'use strict';
// The History view: a call through the lm tools is recorded (door "lm", what ran, how it ended), and the view's
// Open command shows the record as a read-only document (no dirty editor, no Save prompt).
const vscode = require('vscode');
const { poll, invoke, norm, assertApi } = require('../lib');

const lmNameFor = (ctx, builtin) => ((ctx.ext.packageJSON.contributes || {}).languageModelTools || [])
  .map((t) => t.name).filter((n) => norm(n).includes(norm(builtin))).sort((a, b) => a.length - b.length)[0];

module.exports = [
  {
    name: 'history.a_call_is_recorded_and_its_record_opens_read_only',
    scenarios: ['trusted', 'restricted'],
    timeoutMs: 30000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const d = {};
      const marker = `e2e-history-${Date.now()}`;
      const r = await invoke(lmNameFor(ctx, 'search-text'), { query: marker });
      d.invoked = r.error || 'ok';
      const record = await poll(async () => {
        const calls = await api.recentCalls(5);
        return calls.find((c) => c.tool === 'search-text' && c.door === 'lm' && c.input && c.input.query === marker);
      }, 10000);
      d.record = record && { door: record.door, tool: record.tool, isError: record.isError, durationMs: record.durationMs };
      await vscode.commands.executeCommand('workspaceTools.openHistoryRecord');
      const editor = await poll(() => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.uri.scheme === 'workspace-tools-history' ? e : undefined;
      }, 10000);
      const text = editor ? editor.document.getText() : '';
      d.document = { scheme: editor && editor.document.uri.scheme, isDirty: editor && editor.document.isDirty, head: text.slice(0, 80) };
      const pass = record && !record.isError && typeof record.durationMs === 'number'
        && /^# search-text — ok/.test(text) && text.includes(marker) && editor && !editor.document.isDirty;
      if (editor) await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      return { pass: !!pass, detail: d };
    },
  },
];
