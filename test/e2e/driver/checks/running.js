'use strict';
// The tools view's Running rows (issue 39, item 3): a slow plugin tool started by Run Tool (in the extension host)
// and through the MCP server VS Code runs (vscode.lm.invokeTool on its mcp_ tool) shows as a row with who started it
// and its latest output line; the row's inline Cancel (clicked by the browser harness) cancels the call and its
// `sleep` is gone; the row goes away; the History view's record says the door.
const vscode = require('vscode');
const fs = require('fs');
const F = require('../fixture');
const { poll, probe, probeUntil, withTimeout, toolsDir, assertApi, invoke } = require('../lib');
const { approve } = require('./tree');

const FILE = 'e2e-running.json';
const TOOL = 'e2e-slow-sleeper';
/** A sleep with a length nobody else uses, found in /proc by it. */
const SECONDS = { runTool: '917', mcp: '918' };

const PLUGIN = {
  tools: [{
    name: TOOL,
    description: 'Prints a line, then sleeps in a child process (the e2e Running rows).',
    tags: ['read'],
    inputSchema: { type: 'object', properties: { seconds: { type: 'string', pattern: '^[0-9]+$' } }, required: ['seconds'] },
    handler: { type: 'shell', command: ['sh', '-c', 'echo "sleeping-for-$1"; sleep "$1"', 'sh', '{{seconds}}'], timeout: 600000 },
  }],
};

/** The pids of `sleep <seconds>` processes (Linux /proc). */
function sleepPids(seconds) {
  const pids = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (/(^|\/)sleep$/.test(argv[0]) && argv[1] === seconds) pids.push(Number(entry));
    } catch { /* gone meanwhile */ }
  }
  return pids;
}

/** The slow sleeper's plugin file written and approved: the tool when it is active (its state in `d`), else undefined. */
async function ensureFile(ctx, d) {
  const api = assertApi(ctx);
  const uri = vscode.Uri.joinPath(toolsDir(), FILE);
  if (!fs.existsSync(uri.fsPath)) {
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(PLUGIN, null, 2), 'utf8'));
    await poll(() => api.getTool(TOOL), 10000);
  }
  const tool = api.getTool(TOOL);
  if (tool && tool.state !== 'active') {
    await approve(uri);
    await poll(() => { const t = api.getTool(TOOL); return t && t.state === 'active'; }, 10000);
  }
  const ready = api.getTool(TOOL);
  d.state = ready && ready.state;
  return ready && ready.state === 'active' ? ready : undefined;
}

const toolsPane = (panes) => (panes || []).find((pane) => pane.title === 'Tools');
/** The sleeper's Running row in the Tools pane, started by `who` (any door: /(?:)/). */
const runningRow = (panes, who) => ((toolsPane(panes) || {}).details || []).find((row) => row.label === TOOL && who.test(row.description || '') && /sleeping-for-/.test(row.description || ''));
const ANY_DOOR = /(?:)/;

/** Shows the row, clicks its Cancel, and checks the sleep and the row are gone. */
async function cancelFromRow(d, seconds, who) {
  await vscode.commands.executeCommand('workbench.view.extension.workspaceTools');
  const panes = await probeUntil('sidebar', (value) => !!runningRow(value, who), 20000);
  d.row = runningRow(panes, who) || ((toolsPane(panes) || {}).details || []).slice(0, 4);
  d.pidsBefore = sleepPids(seconds);
  if (!runningRow(panes, who) || d.pidsBefore.length === 0) return false;
  d.clicked = await probe('clickRowAction', 20000, { pane: 'Tools', label: TOOL, action: 'Cancel' });
  d.sleepGone = !!(await poll(() => sleepPids(seconds).length === 0, 15000));
  const after = await probeUntil('sidebar', (value) => !runningRow(value, ANY_DOOR), 10000);
  d.rowGone = !runningRow(after, ANY_DOOR);
  return d.clicked && d.clicked.clicked && d.sleepGone && d.rowGone;
}

module.exports = [
  {
    name: 'running.run_tool_call_listed_with_progress_and_cancelled_from_its_row',
    scenarios: ['trusted'],
    needsDialogs: true, // "Approve"
    needsBrowser: true,
    timeoutMs: 90000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const d = {};
      if (!(await ensureFile(ctx, d))) return { pass: false, detail: d };
      const call = Promise.resolve(vscode.commands.executeCommand(F.commands.runTool, { name: TOOL, input: { seconds: SECONDS.runTool } }));
      const ok = await cancelFromRow(d, SECONDS.runTool, /^Run Tool · /);
      const result = await withTimeout(call, 20000, 'Run Tool after Cancel').catch((e) => ({ error: String(e) }));
      d.result = result && { isError: result.isError, text: String(result.text || result.error || '').slice(0, 300) };
      // the history is written in batches after each result
      const record = await poll(async () => (await api.recentCalls(5)).find((r) => r.tool === TOOL && r.door === 'run-tool'), 10000);
      d.history = record && { tool: record.tool, door: record.door, isError: record.isError, exitCode: record.exitCode };
      return { pass: ok && !!result && result.isError === true && !!record, detail: d };
    },
  },
  {
    name: 'running.mcp_server_call_listed_with_progress_and_cancelled_from_its_row',
    scenarios: ['trusted'],
    needsDialogs: true, // "Approve" and VS Code's MCP "Run ...?"
    needsBrowser: true,
    timeoutMs: 120000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const d = {};
      if (!(await ensureFile(ctx, d))) return { pass: false, detail: d };
      const find = () => vscode.lm.tools.find((t) => /^mcp_/.test(t.name) && /slow.?sleeper/i.test(t.name));
      let mcpTool = await poll(find, 5000);
      const s0 = Date.now();
      while (!mcpTool && Date.now() - s0 < 40000) {
        await withTimeout(vscode.commands.executeCommand('workbench.mcp.startServer', '*', { autoTrustChanges: true, waitForLiveTools: true }), 15000, 'startServer').catch(() => undefined);
        mcpTool = await poll(find, 3000);
      }
      d.mcpTool = mcpTool && mcpTool.name;
      if (!mcpTool) return { pass: false, detail: { ...d, mcpTools: vscode.lm.tools.filter((t) => /^mcp_/.test(t.name)).map((t) => t.name) } };
      const call = invoke(mcpTool.name, { seconds: SECONDS.mcp }, 60000);
      const ok = await cancelFromRow(d, SECONDS.mcp, /^MCP (call|task) · /);
      const result = await withTimeout(call, 20000, 'the MCP call after Cancel').catch((e) => ({ error: String(e) }));
      d.result = { text: String(result.text || '').slice(0, 300), error: result.error };
      const record = await poll(async () => (await api.recentCalls(5)).find((r) => r.tool === TOOL && r.door === 'mcp'), 10000);
      d.history = record && { tool: record.tool, door: record.door, isError: record.isError };
      // the other checks' fixture has no such file
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(toolsDir(), FILE)).then(undefined, () => undefined);
      return { pass: ok && !!record && record.isError === true, detail: d };
    },
  },
];
