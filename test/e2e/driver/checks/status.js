'use strict';
// The status bar item ("Tools N · P pending · E errors") as the browser renders it, following a plugin file that
// starts waiting for approval and is approved; and the one notification about that file (lib.probe asks the harness).
const vscode = require('vscode');
const { poll, probeUntil, toolsDir, assertApi } = require('../lib');
const { approve } = require('./tree');

const FILE = 'e2e-status.json';
const TOOL = 'e2e-status-tool';

/** The Workspace Tools status bar item's text, from the rendered status bar. */
const itemOf = (items) => items.find((i) => /workspaceTools\.status$/.test(i.id)) || items.find((i) => /^Tools \d+/.test(i.text));
const statusText = async (test) => { const item = itemOf(await probeUntil('statusbar', (items) => { const i = itemOf(items); return i && test(i.text); })); return item ? item.text : null; };
const pendingOf = (text) => { const m = /(\d+) pending/.exec(text || ''); return m ? Number(m[1]) : 0; };
const toolsOf = (text) => { const m = /^Tools (\d+)/.exec(text || ''); return m ? Number(m[1]) : -1; };

module.exports = [
  {
    name: 'status.bar_text_follows_a_file_going_pending_and_approved',
    scenarios: ['trusted'],
    needsBrowser: true,
    needsDialogs: true, // the harness clicks "Approve"
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const d = {};
      // what the API says now, as the status bar should read it (an earlier check may just have changed it)
      const plugin = api.listTools().filter((t) => t.source.kind === 'plugin');
      const pendingFiles = new Set(plugin.filter((t) => t.state === 'pending').map((t) => t.source.file)).size;
      // the errors the Problems panel shows for plugin files (an open one's JSON syntax errors too: src/extension/status-bar.ts)
      const errors = vscode.languages.getDiagnostics().reduce((sum, [u, list]) => sum + list.filter((x) => x.severity === vscode.DiagnosticSeverity.Error && (/[\\/]\.vscode[\\/]tools[\\/][^\\/]+\.json$/.test(u.fsPath) || x.source === 'Workspace Tools')).length, 0);
      const expected = [`Tools ${api.listTools().filter((t) => t.state === 'active').length}`, pendingFiles ? `${pendingFiles} pending` : '', errors ? `${errors} error${errors === 1 ? '' : 's'}` : ''].filter(Boolean).join(' · ');
      d.before = await statusText((text) => text === expected);
      d.expectedBefore = expected;
      const uri = vscode.Uri.joinPath(toolsDir(), FILE);
      await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify({ tools: [{ name: TOOL, description: 'prints ok', tags: ['read'], handler: { type: 'shell', command: ['echo', 'ok'] } }] }), 'utf8'));
      try {
        d.pending = !!(await poll(() => { const t = api.getTool(TOOL); return t && t.state === 'pending'; }, 10000));
        d.whilePending = await statusText((text) => pendingOf(text) === pendingOf(d.before) + 1);
        const ours = (toasts) => toasts.filter((t) => t.message.includes('e2e-status'));
        d.notification = ours(await probeUntil('notifications', (toasts) => ours(toasts).length > 0, 5000));
        await approve(uri);
        d.active = !!(await poll(() => { const t = api.getTool(TOOL); return t && t.state === 'active'; }, 10000));
        d.afterApproval = await statusText((text) => pendingOf(text) === pendingOf(d.before) && toolsOf(text) === toolsOf(d.before) + 1);
      } finally {
        await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
      }
      d.afterDelete = await statusText((text) => text === d.before);
      const one = d.notification.length === 1 && ['Approve…', 'Show', "Don't Ask Again for This File"].every((b) => d.notification[0].buttons.includes(b));
      const pass = d.before === expected && d.pending && pendingOf(d.whilePending) === pendingOf(d.before) + 1
        && d.active && toolsOf(d.afterApproval) === toolsOf(d.before) + 1 && pendingOf(d.afterApproval) === pendingOf(d.before)
        && d.afterDelete === d.before && one;
      return { pass, detail: d };
    },
  },
];
