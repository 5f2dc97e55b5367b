'use strict';
// One approval store for every door: a file approved in the tools view is served by a fresh standalone MCP server
// (as Claude Code starts one per session), and a file approved in a terminal with `mcp-server.js approve` is served
// in VS Code without a reload. The standalone processes run with the extension host's environment, so they read
// the same per-user store ($XDG_CONFIG_HOME/workspace-tools/approvals.json; run.sh sets one per scenario).
const vscode = require('vscode');
const path = require('path');
const { spawn } = require('child_process');
const { dialogsSeen, poll, wsFolder, toolsDir, assertApi } = require('../lib');
const { approve } = require('./tree');

const TRUSTED = ['trusted'];

/** A plugin file with one read-only shell tool that prints `output`. */
const pluginText = (name, output) =>
  `${JSON.stringify({ tools: [{ name, description: `prints ${output}`, tags: ['read'], handler: { type: 'shell', command: ['node', '-e', `process.stdout.write(${JSON.stringify(output)})`] } }] }, null, 2)}\n`;

const serverScript = (ctx) => path.join(ctx.ext.extensionPath, 'dist', 'mcp-server.js');

/** Runs `node mcp-server.js ...args` to completion; resolves to { code, stdout, stderr }. */
function runServerCommand(ctx, args, input = '') {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [serverScript(ctx), ...args], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.on('error', (e) => resolve({ code: -1, stdout, stderr: String(e) }));
    child.stdin.end(input);
  });
}

/**
 * A fresh stdio server for the workspace, spoken to in raw JSON-RPC as any MCP client does: initialize, tools/list,
 * then tools/call of `tool`. Resolves to the listed names and the call's text.
 */
async function freshServerSession(ctx, tool) {
  const lines = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: tool, arguments: {} } },
  ].map((m) => JSON.stringify(m)).join('\n') + '\n';
  const child = spawn(process.execPath, [serverScript(ctx), '--workspace', wsFolder().fsPath, '--no-builtins'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (c) => { stdout += c; });
  child.stdin.write(lines);
  const answers = () => stdout.split('\n').filter((l) => l.trim()).map((l) => { try { return JSON.parse(l); } catch { return {}; } });
  await poll(() => answers().some((m) => m.id === 3), 15000, 50);
  child.stdin.end();
  const byId = (id) => answers().find((m) => m.id === id) || {};
  const list = byId(2).result;
  const call = byId(3);
  return {
    names: list ? list.tools.map((t) => t.name) : null,
    text: call.result ? call.result.content.map((c) => c.text).join('') : call.error ? `error: ${call.error.message}` : null,
    isError: call.result ? !!call.result.isError : true,
  };
}

async function withPluginFile(name, text, body) {
  const uri = vscode.Uri.joinPath(toolsDir(), name);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  try { return await body(uri); } finally { await vscode.workspace.fs.delete(uri).then(undefined, () => undefined); }
}

module.exports = [
  {
    // run.sh tells the harness to press Enter (not click) in this file's approval dialog: Enter must not approve.
    // The dialog also shows the effective tags: a file-read tool without "tags" is [read].
    name: 'approval.enter_in_the_approval_dialog_does_not_approve',
    scenarios: TRUSTED,
    needsDialogs: true,
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const text = `${JSON.stringify({ tools: [{ name: 'e2e-enter-notes', description: 'reads notes', handler: { type: 'file-read', basePath: 'docs' } }] }, null, 2)}\n`;
      return withPluginFile('e2e-enter-key.json', text, async (uri) => {
        const pending = await poll(() => { const t = api.getTool('e2e-enter-notes'); return t && t.state === 'pending'; }, 10000);
        const returned = await vscode.commands.executeCommand('workspaceTools.approveFile', uri);
        await new Promise((r) => setTimeout(r, 1500)); // an approval, had there been one, reloads within this
        const state = (api.getTool('e2e-enter-notes') || {}).state;
        const dialog = dialogsSeen().find((d) => /e2e-enter-key/.test(d.message || ''));
        const opened = vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === uri.fsPath);
        const tagsShown = !!dialog && dialog.details.join('\n').includes('• e2e-enter-notes [read]');
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        const pass = !!pending && returned === false && state === 'pending' && !!dialog && dialog.clicked === '{Enter}' && opened && tagsShown;
        return { pass, detail: { pending: !!pending, returned, state, dialog, reviewFileOpened: opened, tagsShown } };
      });
    },
  },
  {
    name: 'approval.tree_approval_is_served_by_a_fresh_standalone_server',
    scenarios: TRUSTED,
    needsDialogs: true, // the harness clicks "Approve"
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      return withPluginFile('e2e-cross-door.json', pluginText('e2e-cross-door', 'served-across-doors'), async (uri) => {
        const pending = await poll(() => { const t = api.getTool('e2e-cross-door'); return t && t.state === 'pending'; }, 10000);
        const before = await freshServerSession(ctx, 'e2e-cross-door');
        await approve(uri);
        const active = await poll(() => { const t = api.getTool('e2e-cross-door'); return t && t.state === 'active'; }, 10000);
        const after = await freshServerSession(ctx, 'e2e-cross-door');
        const pass = !!pending && !!active && before.names && !before.names.includes('e2e-cross-door') && before.isError
          && after.names && after.names.includes('e2e-cross-door') && after.text === 'served-across-doors';
        return { pass, detail: { pending: !!pending, active: !!active, before, after } };
      });
    },
  },
  {
    name: 'approval.terminal_approval_is_served_in_vscode',
    scenarios: TRUSTED,
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      return withPluginFile('e2e-terminal-door.json', pluginText('e2e-terminal-door', 'approved-in-a-terminal'), async (uri) => {
        const pending = await poll(() => { const t = api.getTool('e2e-terminal-door'); return t && t.state === 'pending'; }, 10000);
        const refused = await runServerCommand(ctx, ['approve', '--workspace', wsFolder().fsPath, uri.fsPath]);
        const stillPending = (api.getTool('e2e-terminal-door') || {}).state === 'pending';
        const approved = await runServerCommand(ctx, ['approve', '--workspace', wsFolder().fsPath, uri.fsPath, '--yes']);
        // no reload command: the extension watches the store
        const active = await poll(() => { const t = api.getTool('e2e-terminal-door'); return t && t.state === 'active'; }, 10000);
        const pass = !!pending && refused.code === 1 && /--yes/.test(refused.stderr) && stillPending && approved.code === 0 && !!active;
        return { pass, detail: { pending: !!pending, refused, stillPending, approved, active: !!active } };
      });
    },
  },
];
