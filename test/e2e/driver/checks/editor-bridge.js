'use strict';
// The editor bridge (docs/editor-bridge.md) in the real VS Code: a small TypeScript project is written into the
// workspace and opened, VS Code's TypeScript features check it, and the MCP server (the installed extension's
// dist/mcp-server.js) is started as a child process with the environment an integrated terminal of this window has
// (dumped from a real terminal: what the extension put in its EnvironmentVariableCollection). Over MCP (JSON-RPC on
// stdio) it must answer the editor tools with what the editor knows; a process without the window's token gets
// nothing; the driver's own lm tool, listed in workspaceTools.bridge.extensionTools, is served and its confirmation
// shows in the window (the harness presses Enter on it: its text has "e2e-enter-key").
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { EDITOR_TOOL_LINE, EDITOR_TOOL_NAME, poll, sleep, wsFolder } = require('../lib');

const TRUSTED = ['trusted'];
const DIR = 'bridge-ts';
/** The driver's own lm tool (package.json languageModelTools, registered in extension.js). */
const ECHO_TOOL = 'e2e_bridge_echo';

const FILES = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'es2020', module: 'commonjs', noEmit: true }, include: ['*.ts'] }, null, 2) + '\n',
  // greet: line 1, its name at column 17
  'util.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
  // line 3: `message` at column 7, `greet` at column 17; line 4: a type error at `count` (TS2322)
  'main.ts': "import { greet } from './util';\n\nconst message = greet('bridge');\nconst count: number = greet('wrong');\nexport { message, count };\n",
};

const uriOf = (name) => vscode.Uri.joinPath(wsFolder(), DIR, name);
const serverScript = (ctx) => path.join(ctx.ext.extensionPath, 'dist', 'mcp-server.js');

/** Writes the TypeScript project, opens both files, and waits for TypeScript's error in main.ts. */
async function openProject(ctx) {
  if (ctx.state.bridgeProject) return ctx.state.bridgeProject;
  for (const [name, text] of Object.entries(FILES)) await vscode.workspace.fs.writeFile(uriOf(name), Buffer.from(text, 'utf8'));
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriOf('util.ts')), { preview: false });
  const main = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriOf('main.ts')), { preview: false });
  // the active editor's selection, for editor-open-files: `message` on line 3
  main.selection = new vscode.Selection(2, 6, 2, 13);
  const error = await poll(() => vscode.languages.getDiagnostics(uriOf('main.ts')).find((d) => String(typeof d.code === 'object' ? d.code.value : d.code) === '2322'), 45000, 500);
  ctx.state.bridgeProject = { tsError: error ? { message: error.message, line: error.range.start.line + 1 } : null };
  return ctx.state.bridgeProject;
}

/** The environment of a new integrated terminal of this window, as a program started there sees it. */
async function terminalEnvironment(ctx) {
  if (ctx.state.bridgeTerminalEnv) return ctx.state.bridgeTerminalEnv;
  const out = path.join(path.dirname(process.env.E2E_RESULT_FILE || require('os').tmpdir()), `terminal-env-${process.pid}.json`);
  fs.rmSync(out, { force: true });
  const terminal = vscode.window.createTerminal({ name: 'editor bridge e2e', cwd: wsFolder() });
  terminal.sendText(`node -e "require('fs').writeFileSync(process.argv[1], JSON.stringify(process.env))" '${out}'`);
  const text = await poll(() => { try { const t = fs.readFileSync(out, 'utf8'); return t.endsWith('}') ? t : null; } catch { return null; } }, 20000, 250);
  terminal.dispose();
  ctx.state.bridgeTerminalEnv = text ? JSON.parse(text) : null;
  return ctx.state.bridgeTerminalEnv;
}

/** `node dist/mcp-server.js` with `env`, spoken to as an MCP client does (2025-11-25: initialize, then requests). */
function startServer(ctx, env, args = []) {
  const child = spawn(process.execPath, [serverScript(ctx), '--workspace', wsFolder().fsPath, ...args], { env: { ...env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let buffered = '', stderr = '', nextId = 1;
  const waiting = new Map();
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const line of lines) {
      let message; try { message = JSON.parse(line); } catch { continue; }
      const w = waiting.get(message.id);
      if (w) { waiting.delete(message.id); w(message); }
    }
  });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const request = (method, params, ms = 30000) => new Promise((resolve, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => { waiting.delete(id); reject(new Error(`${method}: no answer within ${ms} ms; stderr: ${stderr.slice(-500)}`)); }, ms);
    waiting.set(id, (m) => { clearTimeout(timer); m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result); });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
  const ready = request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'editor-bridge-e2e', version: '1' } })
    .then((r) => { child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n'); return r; });
  return {
    pid: child.pid,
    ready,
    listNames: async () => (await request('tools/list', {})).tools.map((t) => t.name),
    call: (name, args, ms) => request('tools/call', { name, arguments: args }, ms),
    stderr: () => stderr,
    close: () => { child.stdin.end(); setTimeout(() => child.kill(), 2000); },
  };
}

/** Runs `node dist/mcp-server.js list` with `env` to completion. */
function runList(ctx, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [serverScript(ctx), 'list', '--workspace', wsFolder().fsPath], { env: { ...env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Calls `name` until `ok(structuredContent)` (TypeScript answers once its project is loaded). */
async function callUntil(server, name, args, ok, ms = 45000) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    last = await server.call(name, args);
    if ((!last.isError && ok(last.structuredContent || {})) || Date.now() >= end) return last;
    await sleep(1000);
  }
}

const textOf = (result) => (result && result.content ? result.content.map((c) => c.text || '').join('\n') : String(result));
const where = (list) => (list || []).map((l) => `${l.path}:${l.line}:${l.column}`);

/** The server started with the terminal's environment, shared by the checks below. */
async function bridgedServer(ctx) {
  if (ctx.state.bridgeServer) return ctx.state.bridgeServer;
  await openProject(ctx);
  const env = await terminalEnvironment(ctx);
  if (!env || !env.WORKSPACE_TOOLS_BRIDGE || !env.WORKSPACE_TOOLS_BRIDGE_TOKEN) throw new Error(`the terminal has no bridge: ${JSON.stringify(env && { address: env.WORKSPACE_TOOLS_BRIDGE, off: env.WORKSPACE_TOOLS_BRIDGE_OFF })}`);
  const server = startServer(ctx, env);
  await server.ready;
  ctx.state.bridgeServer = server;
  return server;
}

module.exports = [
  {
    name: 'editor-bridge.terminal_gets_address_and_token',
    scenarios: TRUSTED,
    timeoutMs: 40000,
    run: async (ctx) => {
      const env = await terminalEnvironment(ctx);
      const address = env && env.WORKSPACE_TOOLS_BRIDGE;
      const token = env && env.WORKSPACE_TOOLS_BRIDGE_TOKEN;
      let folderMode = null;
      try { folderMode = (fs.statSync(path.dirname(address)).mode & 0o777).toString(8); } catch (e) { folderMode = String(e); }
      return { pass: !!address && !!token && token.length >= 40 && folderMode === '700', detail: { address, tokenLength: token && token.length, folderMode } };
    },
  },
  {
    name: 'editor-bridge.mcp_lists_editor_tools',
    scenarios: TRUSTED,
    timeoutMs: 90000,
    run: async (ctx) => {
      await vscode.workspace.getConfiguration('workspaceTools').update('bridge.extensionTools', [ECHO_TOOL], vscode.ConfigurationTarget.Global);
      const server = await bridgedServer(ctx);
      const names = await server.listNames();
      const want = ['editor-diagnostics', 'editor-definition', 'editor-references', 'editor-symbols', 'editor-hover', 'editor-open-files', ECHO_TOOL];
      return { pass: want.every((n) => names.includes(n)), detail: { missing: want.filter((n) => !names.includes(n)), names, tsError: ctx.state.bridgeProject && ctx.state.bridgeProject.tsError } };
    },
  },
  {
    name: 'editor-bridge.diagnostic_of_a_type_error',
    scenarios: TRUSTED,
    timeoutMs: 60000,
    run: async (ctx) => {
      const server = await bridgedServer(ctx);
      const r = await callUntil(server, 'editor-diagnostics', { path: `${DIR}/main.ts`, severity: 'error' }, (s) => (s.diagnostics || []).some((d) => d.code === '2322'));
      const d = (r.structuredContent && r.structuredContent.diagnostics || []).find((x) => x.code === '2322');
      return { pass: !!d && d.path === `${DIR}/main.ts` && d.line === 4 && d.column === 7 && d.severity === 'error' && /not assignable to type 'number'/.test(d.message), detail: { diagnostic: d, text: textOf(r) } };
    },
  },
  {
    name: 'editor-bridge.definition_and_references_across_files',
    scenarios: TRUSTED,
    timeoutMs: 70000,
    run: async (ctx) => {
      const server = await bridgedServer(ctx);
      const def = await callUntil(server, 'editor-definition', { path: `${DIR}/main.ts`, line: 3, column: 17 }, (s) => (s.definitions || []).length > 0);
      const refs = await callUntil(server, 'editor-references', { path: `${DIR}/util.ts`, symbol: 'greet' }, (s) => (s.references || []).length >= 4);
      const defs = where(def.structuredContent && def.structuredContent.definitions);
      const uses = where(refs.structuredContent && refs.structuredContent.references);
      const wantUses = [`${DIR}/main.ts:1:10`, `${DIR}/main.ts:3:17`, `${DIR}/main.ts:4:23`, `${DIR}/util.ts:1:17`];
      return { pass: defs.includes(`${DIR}/util.ts:1:17`) && wantUses.every((u) => uses.includes(u)), detail: { definitions: defs, references: uses, definitionText: textOf(def) } };
    },
  },
  {
    name: 'editor-bridge.workspace_symbol_hover_and_open_editors',
    scenarios: TRUSTED,
    timeoutMs: 70000,
    run: async (ctx) => {
      const server = await bridgedServer(ctx);
      // TypeScript names a function "greet()" in a workspace search
      const isGreet = (x) => x.name.replace(/\(.*\)$/, '') === 'greet';
      const symbols = await callUntil(server, 'editor-symbols', { query: 'greet' }, (s) => (s.symbols || []).some(isGreet));
      const greet = (symbols.structuredContent && symbols.structuredContent.symbols || []).find(isGreet);
      const hover = await callUntil(server, 'editor-hover', { path: `${DIR}/main.ts`, line: 3, column: 7 }, (s) => /message: string/.test(s.hover || ''));
      const open = await server.call('editor-open-files', {});
      const o = open.structuredContent || {};
      const openPaths = (o.open || []).map((f) => f.path);
      const pass = !!greet && greet.path === `${DIR}/util.ts` && greet.kind === 'Function' &&
        /const message: string/.test(hover.structuredContent && hover.structuredContent.hover || '') &&
        openPaths.includes(`${DIR}/main.ts`) && openPaths.includes(`${DIR}/util.ts`) &&
        !!o.active && o.active.path === `${DIR}/main.ts` && o.active.selectedText === 'message';
      // and a symbol's name finds it (workspace search, then the outline for the name's place)
      const bySymbol = await server.call('editor-definition', { symbol: 'greet' });
      const found = where(bySymbol.structuredContent && bySymbol.structuredContent.definitions);
      return { pass: pass && found.includes(`${DIR}/util.ts:1:17`), detail: { symbol: greet, symbolsText: textOf(symbols), bySymbol: found, hover: hover.structuredContent, open: o } };
    },
  },
  {
    name: 'editor-bridge.no_token_no_tools',
    scenarios: TRUSTED,
    timeoutMs: 60000,
    run: async (ctx) => {
      const env = await terminalEnvironment(ctx);
      const wrong = await runList(ctx, { ...env, WORKSPACE_TOOLS_BRIDGE_TOKEN: 'not-the-token' });
      const withoutToken = { ...env };
      delete withoutToken.WORKSPACE_TOOLS_BRIDGE_TOKEN;
      const none = await runList(ctx, withoutToken);
      const server = startServer(ctx, { ...env, WORKSPACE_TOOLS_BRIDGE_TOKEN: 'not-the-token' });
      let names = [];
      try { await server.ready; names = await server.listNames(); } finally { server.close(); }
      const pass = /Editor tools: no editor tools: The VS Code window's bridge at .* refused the token/.test(wrong.stdout) && !EDITOR_TOOL_LINE.test(wrong.stdout) &&
        /Editor tools: no editor tools: WORKSPACE_TOOLS_BRIDGE is set but WORKSPACE_TOOLS_BRIDGE_TOKEN is not/.test(none.stdout) &&
        !names.some((n) => EDITOR_TOOL_NAME.test(n));
      return { pass, detail: { wrongToken: wrong.stdout.split('\n').filter((l) => /Editor tools/.test(l)), noToken: none.stdout.split('\n').filter((l) => /Editor tools/.test(l)), servedWithWrongToken: names } };
    },
  },
  {
    name: 'editor-bridge.listed_extension_tool_served_with_confirmation',
    scenarios: TRUSTED,
    needsDialogs: true, // the tool's own confirmation, which the harness answers with Enter ("e2e-enter-key")
    timeoutMs: 60000,
    run: async (ctx) => {
      const server = await bridgedServer(ctx);
      const result = await server.call(ECHO_TOOL, { text: 'from the terminal' }, 45000);
      const dialogFile = path.join(path.dirname(process.env.E2E_RESULT_FILE || '.'), 'dialogs.jsonl');
      let dialogs = [];
      try { dialogs = fs.readFileSync(dialogFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)); } catch { /* none */ }
      const confirmation = dialogs.find((d) => [d.message, ...(d.details || [])].join('\n').includes('e2e-enter-key: bridge echo'));
      const records = ctx.api ? await ctx.api.recentCalls(50) : [];
      const recorded = records.find((r) => r.tool === ECHO_TOOL && r.door === 'bridge');
      const hoverRecorded = records.find((r) => r.tool === 'editor-hover' && r.door === 'bridge');
      const pass = !result.isError && textOf(result) === 'echo: from the terminal' && !!confirmation && !!recorded && /workspace-tools-mcp .*\(serve\), pid \d+/.test(recorded.caller || '') && !!hoverRecorded;
      return { pass, detail: { result, confirmation, recorded, hoverRecorded: hoverRecorded && { door: hoverRecorded.door, caller: hoverRecorded.caller } } };
    },
  },
  {
    // Restricted Mode opens no bridge: the terminal is told why, and a server started there serves no editor tool.
    name: 'editor-bridge.restricted_mode_opens_none',
    scenarios: ['restricted'],
    timeoutMs: 40000,
    run: async (ctx) => {
      const env = await terminalEnvironment(ctx);
      const listed = env ? await runList(ctx, env) : { stdout: '' };
      const line = listed.stdout.split('\n').find((l) => /^Editor tools:/.test(l));
      const pass = !!env && !env.WORKSPACE_TOOLS_BRIDGE && !env.WORKSPACE_TOOLS_BRIDGE_TOKEN && /Restricted Mode/.test(env.WORKSPACE_TOOLS_BRIDGE_OFF || '') &&
        line === 'Editor tools: no editor tools: the VS Code window opened no bridge: the workspace is in Restricted Mode: trust it (Manage Workspace Trust) and open a new terminal' &&
        !EDITOR_TOOL_LINE.test(listed.stdout);
      return { pass, detail: { off: env && env.WORKSPACE_TOOLS_BRIDGE_OFF, address: env && env.WORKSPACE_TOOLS_BRIDGE, line } };
    },
  },
  {
    // After trust.grant_request_workspace_trust: the bridge opens once the workspace is trusted, and a new terminal gets it.
    name: 'editor-bridge.opens_when_trust_is_granted',
    scenarios: ['grant'],
    timeoutMs: 40000,
    run: async (ctx) => {
      const trusted = await poll(() => vscode.workspace.isTrusted, 15000, 250);
      const env = await poll(async () => { ctx.state.bridgeTerminalEnv = undefined; const e = await terminalEnvironment(ctx); return e && e.WORKSPACE_TOOLS_BRIDGE ? e : null; }, 20000, 1000);
      const listed = env ? await runList(ctx, env) : { stdout: '' };
      const line = listed.stdout.split('\n').find((l) => /^Editor tools:/.test(l));
      const pass = !!trusted && !!env && !!env.WORKSPACE_TOOLS_BRIDGE_TOKEN && !env.WORKSPACE_TOOLS_BRIDGE_OFF && /^Editor tools: editor tools from the VS Code window ".*": 6 editor tools, 0 extension tools$/.test(line || '');
      return { pass, detail: { trusted, address: env && env.WORKSPACE_TOOLS_BRIDGE, off: env && env.WORKSPACE_TOOLS_BRIDGE_OFF, line } };
    },
  },
  {
    name: 'editor-bridge.cleanup',
    scenarios: TRUSTED,
    run: async (ctx) => {
      if (ctx.state.bridgeServer) ctx.state.bridgeServer.close();
      await vscode.workspace.getConfiguration('workspaceTools').update('bridge.extensionTools', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(wsFolder(), DIR), { recursive: true }).then(undefined, () => undefined);
      return { pass: true };
    },
  },
];
