'use strict';
// E2E driver: runs inside the real (remote, Node) extension host of code-server, exercises
// workspace-tools.workspace-tools and writes a JSON result file for scripts/e2e/run.sh.
//
// Checks live in checks/<area>.js, each an array of { name, run(ctx) -> {pass, detail}, scenarios?, timeoutMs?, needsDialogs? }.
// `scenarios` (default: all) limits a check to E2E_SCENARIO values:
//   "trusted"     trusted folder (code-server: pre-trusted or trust off)
//   "restricted"  Restricted Mode
//   "grant"       starts in Restricted Mode, the checks grant trust (harness clicks "Trust Folder & Continue");
//                 runs only checks listing "grant" and checks without `scenarios`
//   "demo"        the README's first ten minutes walked in a copy of demo/workspace (checks/walk.js): runs only the
//                 checks listing "demo", and activation's
//   "desktop"     desktop VS Code under @vscode/test-electron (test/e2e/desktop): trusted, but nobody clicks
//                 modal dialogs, so checks with `needsDialogs: true` are not run (listed in info.notRun)
// `needsDialogs: true`: the check waits for a modal dialog to be answered (plugin file "Approve", MCP "Run ...?",
// trust request); in code-server the browser harness answers them.
// `needsBrowser: true`: the check asks the browser harness what the page shows (lib.probe: welcome views, the
// status bar); not run in desktop either.
// ctx: { ext, api, info, scenario, expectTrusted, state (free-form, shared between checks) }.
// To add a check, append an object to the area's array (or add a file and list it in AREAS).
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');
const F = require('./fixture');
const DEMO = require('./demo');
const { EDITOR_TOOL_NAME, sleep, withTimeout } = require('./lib');
const { startTiming } = require('./timing');

const AREAS = ['activation', 'trust', 'lm-tools', 'tree', 'schema', 'mcp', 'approval', 'testing', 'problems', 'history', 'settings', 'welcome', 'status', 'editor', 'commands', 'walkthrough', 'api', 'details-page', 'sandbox', 'newcomer', 'walk', 'editor-bridge', 'running'];

/**
 * E2E_ONLY (a regular expression): run only the checks whose name matches, and activation's (they find the extension),
 * while working on a few checks. The report then lists fewer checks: never for a full run.
 */
const ONLY = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : undefined;

/** Whether check `c` runs in `scenario` ("desktop" is a trusted run). */
function appliesTo(c, scenario) {
  if (ONLY && !ONLY.test(c.name) && !c.name.startsWith('activation.')) return false;
  // the demo workspace is not the fixture the other checks expect
  if (scenario === 'demo') return c.name.startsWith('activation.') || (c.scenarios || []).includes('demo');
  if (!c.scenarios) return true;
  if (scenario === 'desktop') return c.scenarios.includes('desktop') || c.scenarios.includes('trusted');
  return c.scenarios.includes(scenario);
}

/** What the Workspace Tools view should show now, for the harness's check of the rendered rows (scripts/e2e/report.js). */
function treeExpectation(api) {
  const tools = api.listTools();
  const diags = api.diagnostics();
  const files = new Set([...tools.filter((t) => t.source && t.source.kind === 'plugin').map((t) => t.source.file), ...diags.map((d) => d.file).filter(Boolean)]);
  return {
    trusted: vscode.workspace.isTrusted,
    builtins: tools.filter((t) => t.source && t.source.kind === 'builtin' && !EDITOR_TOOL_NAME.test(t.name)).length,
    // the editor tools (src/core/editor-bridge/editor-tool-specs.ts): built in too, in the view's own "Editor" group
    editorTools: tools.filter((t) => t.source && t.source.kind === 'builtin' && EDITOR_TOOL_NAME.test(t.name)).map((t) => t.name),
    files: files.size,
    tools: tools.map((t) => ({ name: t.name, state: t.state })),
    diagnostics: diags.length,
    resources: (api.listResources ? api.listResources() : []).map((r) => ({ address: r.address, state: r.state })),
    prompts: (api.listPrompts ? api.listPrompts() : []).map((p) => ({ name: p.name, state: p.state, file: require('path').basename(p.source.file) })),
  };
}

function writeJson(obj, final) {
  const p = process.env.E2E_RESULT_FILE;
  if (!p) { console.error('e2e-driver: E2E_RESULT_FILE is not set'); return; }
  const target = final ? p : p.replace(/\.json$/, '') + '.progress.json';
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target + '.tmp', JSON.stringify(obj, null, 2));
    fs.renameSync(target + '.tmp', target); // atomic: the harness never reads half a file
  } catch (e) { console.error('e2e-driver: cannot write ' + target + ': ' + e); }
}

/** Leave a tidy window for the harness's screenshot: the Workspace Tools view and a plugin file. */
async function prepareScreenshot(result, ctx) {
  try {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    await vscode.commands.executeCommand('notifications.clearAll').then(undefined, () => undefined);
    const ws = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
    if (ws) {
      const file = ctx.scenario === 'demo' ? DEMO.files.workflows : F.plugins.good;
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(ws.uri, '.vscode', 'tools', file));
      await vscode.window.showTextDocument(doc, { preview: false });
    }
    await withTimeout(vscode.commands.executeCommand(F.viewContainerCommand), 5000, F.viewContainerCommand);
    await sleep(1500);
    result.info.screenshotView = 'shown';
    if (ctx.api) result.info.treeExpect = treeExpectation(ctx.api);
  } catch (e) { result.info.screenshotView = 'not shown: ' + String((e && e.message) || e); }
}

async function activate(context) {
  const t0 = Date.now();
  // "Another extension's" lm tool, which checks/editor-bridge.js lists in workspaceTools.bridge.extensionTools: its
  // confirmation has "e2e-enter-key", so the harness answers it with Enter.
  context.subscriptions.push(vscode.lm.registerTool('e2e_bridge_echo', {
    prepareInvocation: () => ({ invocationMessage: 'Echoing', confirmationMessages: { title: 'Run the e2e bridge echo?', message: 'e2e-enter-key: bridge echo for an agent in a terminal' } }),
    invoke: (options) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`echo: ${options.input && options.input.text}`)]),
  }));
  const scenario = process.env.E2E_SCENARIO || 'trusted';
  const et = process.env.E2E_EXPECT_TRUSTED;
  const result = { startedAt: new Date().toISOString(), info: {}, checks: [] };
  result.info = {
    scenario,
    vscodeVersion: vscode.version, appName: vscode.env.appName,
    uiKind: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop', remoteName: vscode.env.remoteName,
    node: process.version, platform: process.platform,
    isTrustedAtDriverActivation: vscode.workspace.isTrusted,
    msSinceHostStart: Math.round(process.uptime() * 1000),
    workspaceFolder: vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0].uri.fsPath,
    startTiming: startTiming(F.extensionId, F.lmToolPrefix),
  };
  const ctx = { ext: undefined, api: undefined, info: result.info, scenario, expectTrusted: et === 'true' ? true : et === 'false' ? false : undefined, state: {} };

  const notRun = [];
  for (const area of AREAS) {
    let checks;
    try { checks = require(`./checks/${area}`); }
    catch (e) { result.checks.push({ name: `${area}.load`, pass: false, ms: 0, error: String((e && e.stack) || e) }); continue; }
    for (const c of checks) {
      if (!appliesTo(c, scenario)) continue;
      if ((c.needsDialogs || c.needsBrowser) && scenario === 'desktop') { notRun.push(c.name); continue; }
      const rec = { name: c.name, pass: false };
      const s = Date.now();
      if (!ctx.ext && c.name !== 'activation.extension_present') {
        rec.error = `extension ${F.extensionId} is not installed`;
      } else {
        try {
          const r = await withTimeout(Promise.resolve().then(() => c.run(ctx)), c.timeoutMs || 30000, c.name);
          rec.pass = !!(r && r.pass);
          if (r && r.detail !== undefined) rec.detail = r.detail;
        } catch (e) { rec.error = String((e && e.stack) || e); }
      }
      rec.ms = Date.now() - s;
      result.checks.push(rec);
      writeJson(result, false);
    }
  }

  if (notRun.length) result.info.notRun = { reason: 'not run in desktop: needs a dialog click or a look at the page (covered by the code-server run)', checks: notRun };
  await prepareScreenshot(result, ctx);
  result.info.isTrustedAtEnd = vscode.workspace.isTrusted;
  result.info.lmToolsFinal = vscode.lm.tools.map((t) => t.name).filter((n) => /workspaceTools|^mcp_/.test(n));
  result.info.totalMs = Date.now() - t0;
  result.finishedAt = new Date().toISOString();
  result.passed = result.checks.filter((c) => c.pass).length;
  result.failed = result.checks.length - result.passed;
  writeJson(result, true);
}

function deactivate() {}
module.exports = { activate, deactivate };
