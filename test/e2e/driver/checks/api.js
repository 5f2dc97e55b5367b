'use strict';
// registerTools of the extension API, as another extension calls it (this driver is one): definitions in the
// plugin-file format checked by the same loader (a bad one throws), listed under the calling extension's name,
// waiting for approval like any plugin file, then served through the MCP door (the server VS Code started) and
// gone everywhere once the registration is disposed.
const vscode = require('vscode');
const { poll, invoke, assertApi } = require('../lib');
const { approve } = require('./tree');
const { startUntil } = require('./mcp');

const DRIVER_ID = 'workspace-tools-e2e.workspace-tools-e2e-driver';
const DRIVER_NAME = 'Workspace Tools E2E Driver (test only)';
const TOOL = 'e2e-ext-tool';
const OUTPUT = 'from-another-extension';
const MCP_NAME = /^mcp_.*e2e.?ext.?tool$/; // VS Code's name for it: mcp_<server>_<tool>

module.exports = [
  {
    name: 'api.register_tools_checked_listed_approved_served_and_disposed',
    scenarios: ['trusted'],
    needsDialogs: true, // "Approve", and VS Code's MCP "Run ...?"
    timeoutMs: 90000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const d = {};
      try { api.registerTools([{ name: 'bad name!', description: 'x', handler: { type: 'shell', command: ['true'] } }], { extensionId: DRIVER_ID, name: 'bad' }); d.badThrew = false; }
      catch (e) { d.badThrew = String(e.message || e); }
      const registration = api.registerTools([{ name: TOOL, description: 'Prints a marker (registered by the e2e driver)', tags: ['read'], handler: { type: 'shell', command: ['node', '-e', `process.stdout.write(${JSON.stringify(OUTPUT)})`] } }], { extensionId: DRIVER_ID });
      let disposed = false;
      try {
        const pending = await poll(() => { const t = api.getTool(TOOL); return t && t.state === 'pending' ? t : null; }, 10000);
        d.pending = pending && { pluginName: pending.source.pluginName, file: pending.source.file };
        if (pending) await approve(vscode.Uri.file(pending.source.file));
        d.active = !!(await poll(() => { const t = api.getTool(TOOL); return t && t.state === 'active'; }, 10000));
        // the MCP server watches the directory and the approval store: its tool list changes without a restart
        const served = await poll(() => vscode.lm.tools.find((t) => MCP_NAME.test(t.name)), 15000) || (await startUntil(MCP_NAME, 30000)).tool;
        d.mcpTool = served && served.name;
        d.invoked = served ? await invoke(served.name, {}, 30000) : null;
        registration.dispose();
        disposed = true;
        d.goneFromApi = !!(await poll(() => !api.getTool(TOOL), 10000));
        d.goneFromMcp = !!(await poll(() => !vscode.lm.tools.some((t) => t.name === d.mcpTool), 20000));
      } finally {
        if (!disposed) registration.dispose();
      }
      const pass = typeof d.badThrew === 'string' && /bad name!/.test(d.badThrew) && !!d.pending && d.pending.pluginName === DRIVER_NAME
        && d.active && !!d.mcpTool && !!d.invoked && !d.invoked.error && d.invoked.text.includes(OUTPUT) && d.goneFromApi && d.goneFromMcp;
      return { pass, detail: d };
    },
  },
];
