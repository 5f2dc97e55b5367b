'use strict';
// Plugin tools through the bundled MCP server (door 2), started by VS Code from the extension's
// McpServerDefinitionProvider. Invoking an MCP tool shows VS Code's modal "Run ...?" dialog: the
// browser harness clicks "Yes" (AUTO_CONFIRM).
const vscode = require('vscode');
const F = require('../fixture');
const { poll, withTimeout, invoke, toolsDir } = require('../lib');
const { ensureGoodApproved, approve } = require('./tree');

const findMcpTool = (re) => vscode.lm.tools.find((t) => /^mcp_/.test(t.name) && re.test(t.name));

/** workbench.mcp.startServer('*') until a tool matching `re` shows up (the first call can find no server yet). */
async function startUntil(re, ms = 30000) {
  const s0 = Date.now();
  let attempts = 0, lastError = null, tool = findMcpTool(re);
  while (!tool && Date.now() - s0 < ms) {
    attempts++;
    try {
      await withTimeout(vscode.commands.executeCommand('workbench.mcp.startServer', '*', { autoTrustChanges: true, waitForLiveTools: true }), 15000, 'workbench.mcp.startServer');
      lastError = null;
    } catch (e) { lastError = String((e && e.message) || e); }
    tool = await poll(() => findMcpTool(re), 2000);
  }
  return { tool, attempts, ms: Date.now() - s0, lastError };
}

module.exports = [
  {
    name: 'mcp.provider_contributed',
    run: async (ctx) => {
      const p = (ctx.ext.packageJSON.contributes || {}).mcpServerDefinitionProviders || [];
      return { pass: p.length > 0, detail: { mcpServerDefinitionProviders: p } };
    },
  },
  {
    name: 'mcp.plugin_tool_served',
    scenarios: ['trusted'],
    timeoutMs: 50000,
    run: async (ctx) => {
      const approved = await ensureGoodApproved(ctx);
      const r = await startUntil(/echo.?message/i);
      ctx.state.mcpEcho = r.tool;
      let defs;
      try { defs = vscode.lm.mcpServerDefinitions && vscode.lm.mcpServerDefinitions.map((d) => d.label); } catch (e) { defs = String(e); }
      return { pass: !!r.tool, detail: { echoMessageState: approved && approved.state, attempts: r.attempts, msUntilTool: r.ms, startServerError: r.lastError, tool: r.tool && { name: r.tool.name, tags: r.tool.tags, description: r.tool.description }, mcpServerDefinitions: defs, mcpTools: vscode.lm.tools.filter((t) => /^mcp_/.test(t.name)).map((t) => t.name) } };
    },
  },
  {
    name: 'mcp.plugin_tool_invoke_returns_real_output',
    scenarios: ['trusted'],
    timeoutMs: 40000,
    run: async (ctx) => {
      const tool = ctx.state.mcpEcho;
      if (!tool) return { pass: false, detail: 'no MCP echo-message tool (see mcp.plugin_tool_served)' };
      const message = `hello-from-e2e-${Date.now().toString(36)}`;
      const r = await invoke(tool.name, { message }, 30000);
      return { pass: !r.error && (r.text || '').includes(message), detail: { tool: tool.name, message, ...r } };
    },
  },
  {
    name: 'mcp.plugin_file_read_tool',
    scenarios: ['trusted'],
    timeoutMs: 40000,
    run: async (ctx) => {
      // read-notes is served from duplicate.json (first file in name order wins); it reads docs/notes.md
      await approve(vscode.Uri.joinPath(toolsDir(), F.plugins.duplicate));
      const tool = await poll(() => findMcpTool(/read.?notes/i), 10000);
      if (!tool) return { pass: false, detail: { mcpTools: vscode.lm.tools.filter((t) => /^mcp_/.test(t.name)).map((t) => t.name) } };
      const r = await invoke(tool.name, { path: 'notes.md' }, 30000);
      return { pass: !r.error && (r.text || '').includes(F.notes.marker), detail: { tool: tool.name, ...r } };
    },
  },
];
module.exports.startUntil = startUntil;
