'use strict';
// The Plugin Files view's welcome content, as the browser renders it (lib.probe asks the harness): what to do when
// a trusted folder has no plugin files, why nothing runs in Restricted Mode, and that files wait for approval.
const vscode = require('vscode');
const F = require('../fixture');
const { poll, probeUntil, screenshot, withTimeout, wsFolder, toolsDir, assertApi } = require('../lib');

const VIEW_TITLE = 'Plugin Files';

/** The Plugin Files pane as rendered, once its welcome text contains `needle` (or the last look). */
async function pluginFilesPane(needle, ms = 10000) {
  await withTimeout(vscode.commands.executeCommand(F.viewContainerCommand), 5000, F.viewContainerCommand);
  const find = (panes) => panes.find((p) => p.title.toLowerCase() === VIEW_TITLE.toLowerCase());
  const panes = await probeUntil('sidebar', (value) => { const p = find(value); return p && p.welcome && p.welcome.includes(needle); }, ms);
  return { pane: find(panes) || null, titles: panes.map((p) => p.title) };
}

module.exports = [
  {
    name: 'welcome.files_waiting_for_approval',
    scenarios: ['trusted'],
    needsBrowser: true,
    run: async (ctx) => {
      const api = assertApi(ctx);
      // duplicate.json is never approved in this run, so there is always a file waiting
      const pending = api.listTools().filter((t) => t.source.kind === 'plugin' && t.state === 'pending').map((t) => t.name);
      const { pane, titles } = await pluginFilesPane('waiting for your approval');
      await screenshot('plugin-files-view', '.part.sidebar');
      const pass = pending.length > 0 && !!pane && pane.welcome.includes('waiting for your approval') && pane.welcomeButtons.includes('Approve…');
      return { pass, detail: { pending, pane, titles } };
    },
  },
  {
    name: 'welcome.no_plugin_files_yet',
    scenarios: ['trusted'],
    needsBrowser: true,
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const away = vscode.Uri.joinPath(wsFolder(), '.vscode', 'tools-e2e-away');
      const pluginState = () => api.listTools().some((t) => t.source.kind === 'plugin') || api.diagnostics().length > 0;
      await vscode.workspace.fs.rename(toolsDir(), away);
      let seen;
      try {
        await vscode.commands.executeCommand(F.commands.reload);
        const none = await poll(() => !pluginState(), 8000);
        seen = { none: !!none, ...(await pluginFilesPane('No plugin files yet')) };
      } finally {
        await vscode.workspace.fs.rename(away, toolsDir());
        await vscode.commands.executeCommand(F.commands.reload);
      }
      // the files come back as they were: same paths and content, so the approvals given earlier still hold
      const back = await poll(() => { const t = api.getTool(F.plugins.goodTools[0]); return t && t.state === 'active'; }, 8000);
      const { pane } = seen;
      const pass = seen.none && !!pane && pane.welcome.includes('No plugin files yet') && pane.welcomeButtons.includes('New Plugin File') && pane.welcomeButtons.includes('Import Tasks and Scripts…') && !!back;
      return { pass, detail: { ...seen, filesBackAndApproved: !!back } };
    },
  },
  {
    name: 'welcome.restricted_mode',
    scenarios: ['restricted'],
    needsBrowser: true,
    run: async () => {
      const { pane, titles } = await pluginFilesPane('Restricted Mode');
      const pass = !!pane && pane.welcome.includes('Restricted Mode') && pane.welcomeButtons.includes('Manage Workspace Trust');
      return { pass, detail: { pane, titles } };
    },
  },
];
