'use strict';
// Plugin tools through the bundled MCP server (door 2), started by VS Code from the extension's
// McpServerDefinitionProvider. Invoking an MCP tool shows VS Code's modal "Run ...?" dialog: the
// browser harness clicks "Yes" (AUTO_CONFIRM).
const vscode = require('vscode');
const F = require('../fixture');
const { EDITOR_TOOL_NAME, sleep, poll, probe, probeUntil, withTimeout, invoke, toolsDir, assertApi } = require('../lib');
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
    needsDialogs: true, // "Approve" and VS Code's MCP "Run ...?"
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
    // A plugin file's resource as VS Code reads it from the server it runs: VS Code names an MCP server's resource
    // mcp-resource://<hex of the server definition's id>/<scheme>/<authority><path>, the id being
    // "<extension id, lower case>/<definition label>" (McpResourceURI.fromServer in VS Code's mcpTypes.ts).
    name: 'mcp.plugin_resource_read_by_vscode',
    scenarios: ['trusted'],
    needsDialogs: true, // "Approve"
    timeoutMs: 40000,
    run: async (ctx) => {
      if (!ctx.state.mcpEcho) return { pass: false, detail: 'no MCP server running (see mcp.plugin_tool_served)' };
      const labels = (vscode.lm.mcpServerDefinitions || []).map((d) => d.label);
      const d = { labels, tries: [] };
      const deadline = Date.now() + 30000;
      while (Date.now() < deadline && !d.text) {
        for (const label of labels) {
          const id = `${ctx.ext.id.toLowerCase()}/${label}`;
          const uri = vscode.Uri.parse(`mcp-resource://${Buffer.from(id, 'utf8').toString('hex')}/docs/notes`);
          try {
            const text = Buffer.from(await withTimeout(Promise.resolve(vscode.workspace.fs.readFile(uri)), 10000, 'readFile')).toString('utf8');
            if (text.includes(F.notes.marker)) { d.text = text.slice(0, 200); d.uri = uri.toString(); break; }
            d.tries.push({ uri: uri.toString(), text: text.slice(0, 200) });
          } catch (e) { d.tries.push({ uri: uri.toString(), error: String((e && e.message) || e).slice(0, 300) }); }
        }
        if (!d.text) await sleep(2000);
      }
      d.tries = d.tries.slice(-4);
      return { pass: !!d.text, detail: d };
    },
  },
  {
    // A plugin file's prompt as VS Code offers it from the server it runs: typing "/" in the chat input suggests each
    // MCP prompt as "/mcp.<server>.<prompt>" (VS Code's mcpPromptSlashCommands completion, from the prompts/list it
    // got). The harness types into the chat input and reads the suggestions, as a user sees them.
    name: 'mcp.plugin_prompt_offered_as_chat_slash_command',
    scenarios: ['trusted'],
    needsDialogs: true, // "Approve" and VS Code's MCP "Run ...?" (through mcp.plugin_tool_served)
    needsBrowser: true,
    timeoutMs: 45000,
    run: async (ctx) => {
      if (!ctx.state.mcpEcho) return { pass: false, detail: 'no MCP server running (see mcp.plugin_tool_served)' };
      const name = F.plugins.goodPrompt.name;
      const d = { tries: [] };
      const deadline = Date.now() + 30000;
      while (Date.now() < deadline && !d.suggestion) {
        try {
          await withTimeout(Promise.resolve(vscode.commands.executeCommand('workbench.action.chat.open')), 10000, 'workbench.action.chat.open');
          const shown = await probe('chatType', 15000, { text: '/mcp.' });
          d.tries.push(shown);
          d.suggestion = (shown.suggestions || []).find((s) => s.includes(`.${name}`));
        } catch (e) { d.tries.push({ error: String((e && e.message) || e).slice(0, 300) }); }
        if (!d.suggestion) await sleep(2000);
      }
      ctx.state.promptSuggested = !!d.suggestion;
      if (!d.suggestion) await closeChat();
      d.tries = d.tries.slice(-3);
      // short and readable (issue 35 item 14): the server's name is "workspace-tools", as in .mcp.json
      return { pass: !!d.suggestion && d.suggestion.includes(`/mcp.workspace-tools.${name}`), detail: d };
    },
  },
  {
    // Choosing the suggestion runs the prompt as a user would: VS Code asks for its required argument (offering the
    // values the server completes), gets the rendered prompt (prompts/get) and puts it into the chat input: the text
    // with the argument filled in, and the embedded docs/notes.md as an attached "Prompt Resource".
    name: 'mcp.plugin_prompt_rendered_into_chat_by_vscode',
    scenarios: ['trusted'],
    needsDialogs: true,
    needsBrowser: true,
    timeoutMs: 45000,
    run: async (ctx) => {
      if (!ctx.state.promptSuggested) return { pass: false, detail: 'the prompt was not suggested (see mcp.plugin_prompt_offered_as_chat_slash_command)' };
      const d = {};
      try {
        return await renderChosenPrompt(d);
      } finally {
        await probe('chatType', 10000, { text: '' }).catch(() => undefined); // leave the chat input empty
        await closeChat();
      }
    },
  },
  {
    name: 'mcp.plugin_tool_invoke_returns_real_output',
    scenarios: ['trusted'],
    needsDialogs: true, // "Approve" and VS Code's MCP "Run ...?"
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
    needsDialogs: true, // "Approve" and VS Code's MCP "Run ...?"
    timeoutMs: 40000,
    run: async () => {
      // read-notes is served from duplicate.json (first file in name order wins); it reads docs/notes.md
      await approve(vscode.Uri.joinPath(toolsDir(), F.plugins.duplicate));
      const tool = await poll(() => findMcpTool(/read.?notes/i), 10000);
      if (!tool) return { pass: false, detail: { mcpTools: vscode.lm.tools.filter((t) => /^mcp_/.test(t.name)).map((t) => t.name) } };
      const r = await invoke(tool.name, { path: 'notes.md' }, 30000);
      return { pass: !r.error && (r.text || '').includes(F.notes.marker), detail: { tool: tool.name, ...r } };
    },
  },
  {
    // Door 1 (the tree's approval) and door 2 (the MCP server VS Code runs) share the approval store: after the user
    // approves the edited file, the running server reloads it and serves the new behaviour.
    name: 'mcp.edited_plugin_file_new_behaviour_after_approval',
    scenarios: ['trusted'],
    needsDialogs: true,
    timeoutMs: 75000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      if (!ctx.state.mcpEcho) return { pass: false, detail: 'no MCP echo-message tool (see mcp.plugin_tool_served)' };
      const uri = vscode.Uri.joinPath(toolsDir(), F.plugins.good);
      const text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
      const from = '"command": ["echo", "{{message}}"]';
      const marker = `EDITED-${Date.now().toString(36)}`;
      if (!text.includes(from)) return { pass: false, detail: `${F.plugins.good} lacks ${from}` };
      const d = { marker };
      try {
        await vscode.workspace.fs.writeFile(uri, Buffer.from(text.replace(from, `"command": ["echo", "${marker}", "{{message}}"]`), 'utf8'));
        d.pendingAfterEdit = !!(await poll(() => { const t = api.getTool('echo-message'); return t && t.state === 'pending'; }, 8000));
        d.mcpToolWhilePending = (findMcpTool(/echo.?message/i) || {}).name || null; // informational: the server may drop it
        await approve(uri);
        d.activeAfterApprove = !!(await poll(() => { const t = api.getTool('echo-message'); return t && t.state === 'active'; }, 8000));
        const s0 = Date.now();
        const tries = [];
        let last;
        while (Date.now() - s0 < 40000) {
          const tool = findMcpTool(/echo.?message/i);
          if (tool) {
            last = await invoke(tool.name, { message: 'after-edit' }, 20000);
            tries.push({ tool: tool.name, ms: Date.now() - s0, text: (last.text || '').slice(0, 200), error: last.error });
            if ((last.text || '').includes(marker)) break;
          }
          await sleep(1500);
        }
        d.tries = tries;
        const pass = d.pendingAfterEdit && d.activeAfterApprove && !!last && !last.error && (last.text || '').includes(marker) && (last.text || '').includes('after-edit');
        return { pass, detail: d };
      } finally {
        try {
          await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
          await poll(() => { const t = api.getTool('echo-message'); return t && t.state === 'pending'; }, 5000);
          await approve(uri);
        } catch { /* the checks that follow report it */ }
      }
    },
  },
  {
    // Disabled tools reach the running server through its live settings file: toggling a tool in the tools view
    // changes the MCP tool list chat sees, with the server definition unchanged (no "restart the server?" prompt).
    name: 'mcp.toggling_a_tool_changes_the_mcp_list_live',
    scenarios: ['trusted'],
    timeoutMs: 45000,
    run: async (ctx) => {
      assertApi(ctx);
      if (!ctx.state.mcpEcho) return { pass: false, detail: 'no MCP echo-message tool (see mcp.plugin_tool_served)' };
      const versions = () => { try { return (vscode.lm.mcpServerDefinitions || []).map((d) => `${d.label}@${d.version}`); } catch (e) { return String(e); } };
      const d = { versionsBefore: versions() };
      const run = (cmd) => withTimeout(vscode.commands.executeCommand(cmd, 'echo-message'), 10000, cmd);
      const t0 = Date.now();
      await run('workspaceTools.disableTool');
      d.goneAfterMs = (await poll(() => !findMcpTool(/echo.?message/i), 10000, 100)) ? Date.now() - t0 : null;
      d.versionsWhileDisabled = versions();
      const t1 = Date.now();
      await run('workspaceTools.enableTool');
      d.backAfterMs = (await poll(() => findMcpTool(/echo.?message/i), 10000, 100)) ? Date.now() - t1 : null;
      d.versionsAfter = versions();
      const unchanged = JSON.stringify(d.versionsBefore) === JSON.stringify(d.versionsWhileDisabled) && JSON.stringify(d.versionsBefore) === JSON.stringify(d.versionsAfter);
      return { pass: d.goneAfterMs !== null && d.backAfterMs !== null && unchanged, detail: d };
    },
  },
  {
    // One server per client (issue 35 item 11): `init --claude` writes .mcp.json, which VS Code reads too. The extension
    // then publishes no server of its own: MCP: List Servers shows one workspace-tools, each plugin tool reaches
    // vscode.lm.tools once, from the server .mcp.json starts, and the tools view says that is the one; the editor tools
    // stay the extension's language model tools (no server VS Code starts can reach them). Removing the file brings the
    // extension's own server back.
    name: 'mcp.a_committed_mcp_json_is_the_only_server_and_each_tool_comes_once',
    scenarios: ['trusted'],
    needsDialogs: true, // VS Code's MCP "Run ...?"
    needsBrowser: true,
    timeoutMs: 150000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      if (!ctx.state.mcpEcho) return { pass: false, detail: 'no MCP echo-message tool (see mcp.plugin_tool_served)' };
      const ws = vscode.workspace.workspaceFolders[0].uri;
      const mcpJson = vscode.Uri.joinPath(ws, '.mcp.json');
      const claudeDir = vscode.Uri.joinPath(ws, '.claude');
      const d = {};
      // .mcp.json says "node": the "node" a user's PATH finds must be one the server runs on (22.14+). This machine's
      // is Node 20 (the server refuses it, saying which it needs); the extension host runs on Node 24: put it first,
      // for the processes this host starts, as a user with Node 22 installed has it.
      const pathBefore = process.env.PATH;
      let outcome;
      process.env.PATH = `${require('path').dirname(process.execPath)}${require('path').delimiter}${pathBefore}`;
      const pluginTools = api.listTools().filter((t) => t.source && t.source.kind === 'plugin' && t.state === 'active').map((t) => t.name);
      const served = (name) => vscode.lm.tools.filter((t) => /^mcp_/.test(t.name) && t.name.endsWith(`_${name}`)).map((t) => t.name);
      // A built-in reaches chat as the extension's language model tool or as the MCP server's tool, once either way.
      // The editor tools (editor-*, docs/editor-bridge.md) are the extension's language model tools only: they ask this
      // window's language services, and a server VS Code starts (the extension's or .mcp.json's) has no bridge to them
      // (only the integrated terminal's environment names it). So after .mcp.json each true built-in comes once through
      // its server, and each editor tool once as the extension's lm tool, never through MCP.
      // vscode.lm.tools lists every tool, even one whose `when` is false; chat's Configure Tools lists what chat offers:
      // its groups (tree level 1) are the extension's "Workspace Tools" and each MCP server.
      const isEditorTool = (name) => EDITOR_TOOL_NAME.test(name);
      const allBuiltins = api.listTools().filter((t) => t.source && t.source.kind === 'builtin').map((t) => t.name);
      const builtins = allBuiltins.filter((name) => !isEditorTool(name));
      const editorTools = allBuiltins.filter(isEditorTool);
      const lmToolsOf = (name) => vscode.lm.tools.filter((t) => !/^mcp_/.test(t.name) && t.name.startsWith('workspaceTools_') && t.name.endsWith(`_${name.replace(/-/g, '_')}`)).map((t) => t.name);
      // Configure Tools' groups stay collapsed, but filtered it lists only the groups with a tool that matches: "git"
      // finds the git built-ins (Git Status, Git Log, ...) and "editor" the editor tools (Editor Diagnostics, ...), so
      // the groups it then lists say who offers them.
      const groups = (items) => (Array.isArray(items) ? items : []).filter((item) => item.startsWith('1|')).map((item) => item.slice(2).split(',')[0]);
      try {
        d.rowBefore = await mcpServerRow('started by this extension');
        d.groupsBefore = groups(await configureToolsItems());
        // the true built-ins are the "Workspace Tools" group's while the extension's server serves the plugin tools
        d.gitGroupsBefore = groups(await configureToolsItems('git'));
        // init --claude --local: node <this extension's server> --workspace . (npx would need the network)
        d.init = await runInit(ctx, ws.fsPath);
        d.rowAfter = await mcpServerRow('from .mcp.json');
        // the extension's definition is withdrawn: its tools leave; then VS Code starts the project's server
        d.withdrawn = !!(await poll(() => served('echo-message').length === 0, 20000));
        const r = await startUntil(/echo.?message/i, 60000);
        d.start = { attempts: r.attempts, ms: r.ms, lastError: r.lastError };
        // settle: the extension's server (withdrawn) and the project's (started) must not both be listed
        await sleep(3000);
        d.perTool = Object.fromEntries(pluginTools.map((name) => [name, served(name)]));
        d.perBuiltin = Object.fromEntries(builtins.map((name) => [name, served(name)]));
        d.perEditorTool = Object.fromEntries(editorTools.map((name) => [name, { mcp: served(name), lm: lmToolsOf(name) }]));
        d.groups = groups(await configureToolsItems());
        d.gitGroups = groups(await configureToolsItems('git'));
        d.editorGroups = groups(await configureToolsItems('editor'));
        d.servers = await listServers();
        d.serversAsRead = listServers.last;
        d.mcpTools = vscode.lm.tools.filter((t) => /^mcp_/.test(t.name)).map((t) => t.name);
        const echo = findMcpTool(/echo.?message/i);
        const message = `from-mcp-json-${Date.now().toString(36)}`;
        d.invoked = echo ? await invoke(echo.name, { message }, 30000) : { error: 'no echo-message tool' };
        try { d.definitions = (vscode.lm.mcpServerDefinitions || []).map((x) => x.label); } catch (e) { d.definitions = String(e); }
        const pass = /workspace-tools, started by this extension/.test(d.rowBefore || '') && d.init.code === 0 && /workspace-tools from \.mcp\.json/.test(d.rowAfter || '') && d.withdrawn
          && pluginTools.length > 0 && pluginTools.every((name) => d.perTool[name].length === 1)
          && builtins.length > 0 && builtins.every((name) => d.perBuiltin[name].length === 1)
          && editorTools.length > 0 && editorTools.every((name) => d.perEditorTool[name].mcp.length === 0 && d.perEditorTool[name].lm.length === 1)
          // the "Workspace Tools" group stays, for the editor tools alone
          && d.groupsBefore.includes('Workspace Tools') && d.groups.includes('Workspace Tools') && d.groups.filter((group) => group === 'workspace-tools').length === 1
          && d.gitGroupsBefore.includes('Workspace Tools') && !d.gitGroups.includes('Workspace Tools') && d.gitGroups.includes('workspace-tools')
          && d.editorGroups.includes('Workspace Tools') && !d.editorGroups.includes('workspace-tools')
          && d.servers.filter((label) => /workspace.tools/i.test(label)).length === 1
          && !d.invoked.error && (d.invoked.text || '').includes(message);
        outcome = { pass, detail: d };
        return outcome;
      } finally {
        process.env.PATH = pathBefore;
        await vscode.workspace.fs.delete(mcpJson).then(undefined, () => undefined);
        await vscode.workspace.fs.delete(claudeDir, { recursive: true }).then(undefined, () => undefined);
        // the extension's own server is back for the checks that follow
        d.rowRestored = await mcpServerRow('started by this extension').catch((e) => String(e));
        d.restarted = !!(await startUntil(/echo.?message/i, 30000)).tool;
        // and the built-ins are the extension's language model tools again
        for (const end = Date.now() + 15000; Date.now() < end && !d.builtinsBack;) {
          d.groupsAfter = groups(await configureToolsItems());
          d.gitGroupsAfter = groups(await configureToolsItems('git'));
          // the group never left (the editor tools); the git built-ins are among its tools again
          d.builtinsBack = d.groupsAfter.includes('Workspace Tools') && d.gitGroupsAfter.includes('Workspace Tools');
          if (!d.builtinsBack) await sleep(2000);
        }
        // the returned outcome also needs the window as it was: the extension's server and its built-ins back
        if (outcome) outcome.pass = outcome.pass && d.restarted && !!d.builtinsBack;
      }
    },
  },
];
module.exports.startUntil = startUntil;
module.exports.mcpServerRow = mcpServerRow;
module.exports.listServers = listServers;

/** Runs `node <extension>/dist/mcp-server.js init --claude --local --workspace <ws>` as a terminal would. */
function runInit(ctx, workspace) {
  return new Promise((resolve) => {
    const script = require('path').join(ctx.ext.extensionPath, 'dist', 'mcp-server.js');
    const child = require('child_process').spawn(process.execPath, [script, 'init', '--claude', '--local', '--workspace', workspace], { cwd: workspace, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('close', (code) => resolve({ code, stdout: stdout.slice(0, 400), stderr: stderr.slice(0, 400) }));
    child.on('error', (e) => resolve({ code: -1, stdout, stderr: String(e) }));
  });
}

/** The tools view's "MCP server" row as the page shows it ("MCP server · <description>"), once it has `want`. */
async function mcpServerRow(want) {
  await withTimeout(Promise.resolve(vscode.commands.executeCommand(F.viewContainerCommand)), 5000, F.viewContainerCommand);
  const rowOf = (panes) => {
    for (const pane of panes || []) {
      const row = (pane.details || []).find((x) => x.label === 'MCP server');
      if (row) return `${row.label} · ${row.description}`;
    }
    return null;
  };
  const panes = await probeUntil('sidebar', (value) => (rowOf(value) || '').includes(want), 20000);
  return rowOf(panes);
}

/**
 * What chat's Configure Tools picker lists (as read by a screen reader), then closes it; with `filter` typed, only
 * the groups with a tool that matches it.
 */
async function configureToolsItems(filter) {
  try {
    await withTimeout(Promise.resolve(vscode.commands.executeCommand('workbench.action.chat.open')), 10000, 'chat.open');
    void vscode.commands.executeCommand('workbench.action.chat.configureTools');
    let shown = await probeUntil('quickInput', (q) => q.visible && (q.itemLabels || []).length > 0, 10000);
    if (filter && shown && shown.visible) {
      await probe('type', 10000, { text: filter });
      shown = await probeUntil('quickInput', (q) => q.visible && q.value === filter, 5000);
    }
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    return shown && shown.itemLabels;
  } catch (e) { return String(e); } finally {
    await withTimeout(Promise.resolve(vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar')), 5000, 'closeAuxiliaryBar').catch(() => undefined);
  }
}

/** The servers MCP: List Servers offers (its quick pick's items), then closes it. */
async function listServers() {
  await withTimeout(Promise.resolve(vscode.commands.executeCommand('workbench.mcp.listServer')), 5000, 'workbench.mcp.listServer').catch(() => undefined);
  const shown = await probeUntil('quickInput', (q) => q.visible && (q.items || []).length > 0, 10000);
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  listServers.last = shown && shown.itemLabels;
  return (shown && shown.items) || [];
}

/** Closes the secondary side bar the chat opened in: the checks that follow (the walkthrough's layout) want the width. */
async function closeChat() {
  await withTimeout(Promise.resolve(vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar')), 5000, 'closeAuxiliaryBar').catch(() => undefined);
}

/** Enter on the suggested prompt, "typos" for its argument, then the chat input until it shows the rendered prompt and its file. */
async function renderChosenPrompt(d) {
  d.afterEnter = await probe('chatType', 15000, { key: 'Enter' });
  d.argumentAsked = await poll(async () => { const q = (await probe('chatInput')).quickInput; return q && q.visible ? q : null; }, 10000, 500);
  if (d.argumentAsked) d.afterArgument = await probe('type', 10000, { text: 'typos', key: 'Enter' });
  // The argument's values are offered from the server's completion/complete (prompts/list does not carry an enum).
  d.valuesOffered = ['clarity', 'typos'].every((value) => ((d.argumentAsked && d.argumentAsked.items) || []).includes(value));
  // The rendered text in the input (soft-wrapped lines joined), and the embedded notes file attached as a prompt resource.
  const wanted = 'Review the notes below with a focus on typos.';
  const rendered = (shown) => shown.found && (shown.text || '').replace(/\s+/g, ' ').includes(wanted) && (shown.attachments || []).some((a) => /Prompt Resource/.test(a));
  d.input = await poll(async () => { const shown = await probe('chatInput'); return rendered(shown) ? shown : null; }, 15000, 1000);
  if (!d.input) d.lastInput = await probe('chatInput');
  return { pass: d.valuesOffered && !!d.input, detail: d };
}

