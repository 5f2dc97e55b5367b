'use strict';
// Workspace Trust: the scenario is what we expect, and in Restricted Mode no workspace plugin tool is served.
const vscode = require('vscode');
const F = require('../fixture');
const { sleep, poll, withTimeout, toolsDir, summarizeTools, assertApi } = require('../lib');

const isPluginTool = (t) => t.source && t.source.kind === 'plugin';

module.exports = [
  {
    name: 'trust.is_trusted_as_expected',
    timeoutMs: 30000,
    run: async (ctx) => {
      if (ctx.expectTrusted === true) await poll(() => vscode.workspace.isTrusted, 20000);
      if (ctx.expectTrusted === false) await sleep(2000); // must not flip by itself
      const pass = ctx.expectTrusted === undefined || vscode.workspace.isTrusted === ctx.expectTrusted;
      return { pass, detail: { expectTrusted: ctx.expectTrusted, isTrusted: vscode.workspace.isTrusted } };
    },
  },
  {
    name: 'trust.restricted_no_active_plugin_tools',
    scenarios: ['restricted'],
    run: async (ctx) => {
      const api = assertApi(ctx);
      await sleep(1000);
      const plugins = api.listTools().filter(isPluginTool);
      const active = plugins.filter((t) => t.state === 'active');
      return { pass: active.length === 0, detail: { pluginTools: summarizeTools(plugins) } };
    },
  },
  {
    // Restricted Mode serves no prompt either: the plugin file's prompt is listed (the user sees what the file
    // declares) but waits, and stays waiting after the approve command (trust.restricted_approve_does_not_activate).
    name: 'trust.restricted_no_active_plugin_prompts',
    scenarios: ['restricted'],
    run: async (ctx) => {
      const api = assertApi(ctx);
      await sleep(1000);
      const prompts = api.listPrompts();
      const active = prompts.filter((p) => p.state === 'active');
      return { pass: active.length === 0, detail: { prompts: prompts.map((p) => `${p.name}:${p.state}`) } };
    },
  },
  {
    name: 'trust.restricted_approve_does_not_activate',
    scenarios: ['restricted'],
    run: async (ctx) => {
      const api = assertApi(ctx);
      const good = vscode.Uri.joinPath(toolsDir(), F.plugins.good);
      let cmdError = null;
      try { await withTimeout(vscode.commands.executeCommand(F.commands.approveFile, good), 10000, 'approveFile'); } catch (e) { cmdError = String((e && e.message) || e); }
      await sleep(1500);
      const active = api.listTools().filter((t) => isPluginTool(t) && t.state === 'active');
      return { pass: active.length === 0, detail: { approveFileError: cmdError, activePluginTools: summarizeTools(active) } };
    },
  },
  {
    name: 'trust.restricted_mcp_server_not_started',
    scenarios: ['restricted'],
    timeoutMs: 25000,
    run: async () => {
      // VS Code itself refuses to start workspace-scoped provider MCP servers in Restricted Mode.
      let err = null;
      try {
        await withTimeout(vscode.commands.executeCommand('workbench.mcp.startServer', '*', { autoTrustChanges: true, waitForLiveTools: true, errorOnUserInteraction: true }), 15000, 'startServer');
      } catch (e) { err = String((e && e.message) || e); }
      const mcpPlugin = vscode.lm.tools.filter((t) => /^mcp_/.test(t.name) && /echo.?message/i.test(t.name));
      return { pass: mcpPlugin.length === 0, detail: { startServerError: err, mcpPluginTools: mcpPlugin.map((t) => t.name) } };
    },
  },
  // ---- "grant": Restricted Mode at start, then the user grants trust (the harness clicks "Trust Folder & Continue")
  {
    name: 'trust.grant_request_workspace_trust',
    scenarios: ['grant'],
    needsDialogs: true,
    timeoutMs: 40000,
    run: async () => {
      const before = vscode.workspace.isTrusted;
      // proposed API (workspaceTrust); code-server enables proposed API for every extension
      if (typeof vscode.workspace.requestWorkspaceTrust !== 'function') return { pass: false, detail: { before, error: 'vscode.workspace.requestWorkspaceTrust is not available' } };
      let granted, error = null;
      try { granted = await withTimeout(Promise.resolve(vscode.workspace.requestWorkspaceTrust({ message: 'e2e: grant trust to load the plugin tools', modal: true })), 30000, 'requestWorkspaceTrust'); }
      catch (e) { error = String((e && e.message) || e); }
      const after = await poll(() => vscode.workspace.isTrusted, 5000);
      return { pass: before === false && granted === true && after === true, detail: { isTrustedBefore: before, granted, error, isTrustedAfter: vscode.workspace.isTrusted } };
    },
  },
  {
    name: 'trust.grant_plugin_tools_load_pending',
    scenarios: ['grant'],
    timeoutMs: 20000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const ok = await poll(() => F.plugins.goodTools.every((n) => { const t = api.getTool(n); return t && t.state === 'pending'; }), 10000);
      return { pass: !!ok, detail: { pluginTools: summarizeTools(api.listTools().filter(isPluginTool)) } };
    },
  },
  {
    name: 'trust.grant_approve_activates',
    scenarios: ['grant'],
    needsDialogs: true,
    timeoutMs: 20000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const good = vscode.Uri.joinPath(toolsDir(), F.plugins.good);
      await withTimeout(vscode.commands.executeCommand(F.commands.approveFile, good), 10000, 'approveFile');
      const ok = await poll(() => { const t = api.getTool(F.plugins.goodTools[0]); return t && t.state === 'active'; }, 8000);
      return { pass: !!ok, detail: { pluginTools: summarizeTools(api.listTools().filter(isPluginTool)) } };
    },
  },
];
