'use strict';
// Tree view, commands and the activate() API: listing, reload, editing a plugin file, approval.
const vscode = require('vscode');
const F = require('../fixture');
const { poll, withTimeout, toolsDir, summarizeTools, assertApi } = require('../lib');

async function approve(uri) {
  // command arg: the file's Uri (or its fsPath)
  try { return await withTimeout(vscode.commands.executeCommand(F.commands.approveFile, uri), 10000, 'approveFile(uri)'); }
  catch (e) { return withTimeout(vscode.commands.executeCommand(F.commands.approveFile, uri.fsPath), 10000, 'approveFile(fsPath)'); }
}

/** Approve good.json if its tools wait for approval (used by the MCP checks too). */
async function ensureGoodApproved(ctx) {
  const api = assertApi(ctx);
  const good = vscode.Uri.joinPath(toolsDir(), F.plugins.good);
  const t = api.getTool(F.plugins.goodTools[0]);
  if (!t || t.state !== 'active') {
    await approve(good);
    await poll(() => { const x = api.getTool(F.plugins.goodTools[0]); return x && x.state === 'active'; }, 8000);
  }
  return api.getTool(F.plugins.goodTools[0]);
}

const TRUSTED = ['trusted'];

module.exports = [
  {
    name: 'tree.commands_registered',
    run: async () => {
      const all = await vscode.commands.getCommands(true);
      const want = [F.commands.reload, F.commands.approveFile, F.viewContainerCommand, `${F.viewId}.focus`];
      const missing = want.filter((c) => !all.includes(c));
      return { pass: missing.length === 0, detail: { missing, workspaceToolsCommands: all.filter((c) => /workspaceTools/i.test(c)) } };
    },
  },
  {
    name: 'tree.view_opens',
    run: async () => {
      await withTimeout(vscode.commands.executeCommand(F.viewContainerCommand), 10000, F.viewContainerCommand);
      await withTimeout(vscode.commands.executeCommand(`${F.viewId}.focus`), 10000, `${F.viewId}.focus`);
      return { pass: true };
    },
  },
  {
    name: 'tree.plugin_tools_listed_awaiting_approval',
    scenarios: TRUSTED,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const tools = await poll(() => { const l = api.listTools().filter((t) => t.source && t.source.kind === 'plugin'); return l.length ? l : null; }, 8000) || [];
      // new (never approved) plugin files: their tools are listed, not served ("read-notes" comes from duplicate.json)
      const listed = F.plugins.goodTools.map((n) => tools.find((t) => t.name === n));
      const echo = listed[0];
      const pass = listed.every((t) => t && t.state === 'pending') && !!echo.source.file && echo.source.file.endsWith(F.plugins.good);
      return { pass, detail: { pluginTools: summarizeTools(tools) } };
    },
  },
  {
    // What the view lists is built from the registry (tree/nodes.ts) that the API reads too; the rendered rows are
    // compared with the API by scripts/e2e/report.js (ui.tree_view_rows_match_api, code-server only).
    name: 'tree.items_follow_plugin_files_on_disk',
    scenarios: TRUSTED,
    timeoutMs: 30000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const onDisk = (await vscode.workspace.fs.readDirectory(toolsDir())).filter(([n, t]) => t === vscode.FileType.File && n.endsWith('.json')).map(([n]) => n).sort();
      const fileOf = (p) => p && p.split(/[\\/]/).pop();
      const byFile = {};
      for (const t of api.listTools().filter((x) => x.source.kind === 'plugin')) (byFile[fileOf(t.source.file)] ||= []).push(t.name);
      for (const d of api.diagnostics()) byFile[fileOf(d.file)] ||= [];
      const known = Object.keys(byFile).sort();
      const sameFiles = JSON.stringify(known) === JSON.stringify(onDisk);
      const goodOk = (byFile[F.plugins.good] || []).includes(F.plugins.goodTools[0]) && (byFile[F.plugins.duplicate] || []).includes(F.plugins.duplicateTool);
      // a new file appears with its tool (awaiting approval), and goes away with it
      const extra = vscode.Uri.joinPath(toolsDir(), 'e2e-extra.json');
      const tool = 'e2e-extra-tool';
      await vscode.workspace.fs.writeFile(extra, Buffer.from(JSON.stringify({ name: 'e2e-extra', version: '1.0.0', tools: [{ name: tool, description: 'Added by the e2e driver', tags: ['read'], handler: { type: 'shell', command: ['echo', 'extra'] } }] }), 'utf8'));
      let appeared, gone;
      try {
        appeared = await poll(() => { const t = api.getTool(tool); return t && t.state === 'pending' && t.source.file.endsWith('e2e-extra.json') ? t : null; }, 8000);
      } finally {
        await vscode.workspace.fs.delete(extra);
        gone = await poll(() => !api.getTool(tool), 8000);
      }
      return { pass: sameFiles && goodOk && !!appeared && !!gone, detail: { onDisk, inApi: byFile, newFileToolPending: !!appeared, deletedFileToolGone: !!gone } };
    },
  },
  {
    name: 'tree.duplicate_refused_first_file_wins',
    scenarios: TRUSTED,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const same = api.listTools().filter((t) => t.name === F.plugins.duplicateTool);
      const diag = api.diagnostics().filter((d) => d.message.includes(F.plugins.duplicateTool) || d.tool === F.plugins.duplicateTool);
      const pass = same.length === 1 && same[0].source.file.endsWith(F.plugins.duplicate) && diag.length > 0;
      return { pass, detail: { listed: summarizeTools(same), diagnostics: diag } };
    },
  },
  {
    name: 'tree.approve_file_activates_its_tools',
    scenarios: TRUSTED,
    needsDialogs: true, // the "Approve" modal
    run: async (ctx) => {
      const api = assertApi(ctx);
      const good = vscode.Uri.joinPath(toolsDir(), F.plugins.good);
      await approve(good);
      const ok = await poll(() => F.plugins.goodTools.filter((n) => n !== F.plugins.duplicateTool).every((n) => { const t = api.getTool(n); return t && t.state === 'active'; }), 8000);
      return { pass: !!ok, detail: { tools: summarizeTools(api.listTools().filter((t) => t.source.kind === 'plugin')) } };
    },
  },
  {
    // The view shows each plugin resource under its file (scripts/e2e/report.js compares the rendered rows with
    // api.listResources()); its state follows the file's approval, like the file's tools.
    name: 'tree.plugin_resources_listed_with_state',
    scenarios: TRUSTED,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const resource = (api.listResources() || []).find((r) => r.address === 'docs://notes');
      const echo = api.getTool(F.plugins.goodTools[0]);
      const expected = echo && echo.state === 'active' ? 'served' : 'pending-approval';
      const pass = !!resource && resource.source.file.endsWith(F.plugins.good) && resource.state === expected && resource.reads === 'file docs/notes.md';
      return { pass, detail: { resource, echoState: echo && echo.state } };
    },
  },
  {
    // The view shows each plugin prompt under its file (scripts/e2e/report.js compares the rendered rows, and the file
    // row each prompt row sits under, with api.listPrompts()); its state follows the file's approval, like its tools.
    name: 'tree.plugin_prompts_listed_with_state',
    scenarios: TRUSTED,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const prompt = (api.listPrompts() || []).find((p) => p.name === F.plugins.goodPrompt.name);
      const echo = api.getTool(F.plugins.goodTools[0]);
      const expected = echo && echo.state === 'active' ? 'active' : 'pending-approval';
      const pass = !!prompt && prompt.source.file.endsWith(F.plugins.good) && prompt.state === expected
        && JSON.stringify(prompt.arguments.map((a) => a.name)) === JSON.stringify(F.plugins.goodPrompt.arguments);
      return { pass, detail: { prompt, echoState: echo && echo.state } };
    },
  },
  {
    name: 'tree.reload_command',
    run: async (ctx) => {
      const api = assertApi(ctx);
      const before = api.listTools().map((t) => `${t.name}:${t.state}`).sort();
      await withTimeout(vscode.commands.executeCommand(F.commands.reload), 15000, F.commands.reload);
      const after = api.listTools().map((t) => `${t.name}:${t.state}`).sort();
      return { pass: JSON.stringify(before) === JSON.stringify(after), detail: { before, after } };
    },
  },
  {
    name: 'tree.edited_plugin_file_waits_for_reapproval',
    scenarios: TRUSTED,
    needsDialogs: true, // the "Approve" modal
    timeoutMs: 40000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const uri = vscode.Uri.joinPath(toolsDir(), F.plugins.good);
      let changes = 0;
      const sub = api.onDidChangeTools(() => { changes++; });
      const text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
      try {
        if (!text.includes(F.plugins.insertMarker)) throw new Error(`${F.plugins.good} lacks the marker ${F.plugins.insertMarker}`);
        const added = `{ "name": "echo-added", "description": "Added by the e2e driver", "tags": ["read"], "handler": { "type": "shell", "command": ["echo", "added"] } },`;
        await vscode.workspace.fs.writeFile(uri, Buffer.from(text.replace(F.plugins.insertMarker, added), 'utf8'));
        // the file watcher should pick it up; the reload command must work regardless
        const seenByWatcher = await poll(() => api.getTool('echo-added'), 5000);
        if (!seenByWatcher) await vscode.commands.executeCommand(F.commands.reload);
        const pending = await poll(() => { const t = api.getTool('echo-added'); return t && t.state === 'pending' ? t : null; }, 8000);
        const echoAfterEdit = api.getTool('echo-message');
        await approve(uri);
        const active = await poll(() => { const t = api.getTool('echo-added'); return t && t.state === 'active' ? t : null; }, 8000);
        const echoAfterApprove = api.getTool('echo-message');
        const pass = !!pending && !!active && echoAfterEdit && echoAfterEdit.state === 'pending' && echoAfterApprove.state === 'active' && changes > 0;
        return { pass, detail: { seenByWatcher: !!seenByWatcher, pendingAfterEdit: !!pending, echoMessageAfterEdit: echoAfterEdit && echoAfterEdit.state, activeAfterApprove: !!active, echoMessageAfterApprove: echoAfterApprove && echoAfterApprove.state, onDidChangeToolsEvents: changes } };
      } finally {
        sub.dispose();
        // best effort: put the fixture back (and approve it again) for the checks that follow
        try {
          await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
          await vscode.commands.executeCommand(F.commands.reload);
          await approve(uri);
        } catch { /* reported by the checks that need it */ }
      }
    },
  },
];
module.exports.ensureGoodApproved = ensureGoodApproved;
module.exports.approve = approve;
