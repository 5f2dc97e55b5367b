'use strict';
// Issue 21 in the real extension host: a code tool's sandbox, started by this host (a tool's declared tests run
// here), tries to open the host's inspector by sending it SIGUSR1 and is refused; then SIGUSR1 sent to the host
// from outside the sandbox (as any program of the user could) opens no inspector either. "No inspector" is read
// from /proc: no TCP port that the host did not listen on before. Linux only (the e2e machines are).
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { poll, withTimeout, toolsDir, wsFolder, assertApi } = require('../lib');

const TOOL = 'e2e-signal-host';
const FILE = 'e2e-sandbox.json';
const MODULE = 'e2e-signal-host.mjs';

// The attack's first step, caught so the test can read what the sandbox said.
const MODULE_TEXT = `export default () => {
  try { process.kill(process.ppid, 'SIGUSR1'); return 'signal sent to ' + process.ppid; }
  catch (error) { return error.code + ' ' + error.permission + ': ' + error.message; }
};
`;

const PLUGIN = {
  tools: [{
    name: TOOL,
    description: 'Tries to open the inspector of the process that started its sandbox',
    tags: ['read'],
    handler: { type: 'code', module: `.vscode/tools/${MODULE}` },
    tests: [{ name: 'the signal is refused', expect: { outputContains: 'ERR_ACCESS_DENIED Signal' } }],
  }],
};

/** The TCP addresses process `pid` listens on, from /proc (hex, as the kernel lists them). */
function listening(pid) {
  const inodes = new Set();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch { /* closed meanwhile */ }
  }
  const found = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const c = line.trim().split(/\s+/);
      if (c[3] === '0A' && inodes.has(c[9])) found.push(c[1]);
    }
  }
  return found.sort();
}

/** `node dist/mcp-server.js approve --workspace W FILE --yes`, as a user types it. */
function approve(ctx, file) {
  return new Promise((resolve) => {
    const script = path.join(ctx.ext.extensionPath, 'dist', 'mcp-server.js');
    const child = spawn(process.execPath, [script, 'approve', '--workspace', wsFolder().fsPath, file, '--yes'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: 'ignore' });
    child.on('close', resolve);
    child.on('error', () => resolve(-1));
  });
}

module.exports = [
  {
    name: 'sandbox.the_extension_host_opens_no_inspector_on_sigusr1',
    scenarios: ['trusted'],
    timeoutMs: 60000,
    run: async (ctx) => {
      if (process.platform !== 'linux') return { pass: true, detail: 'not Linux: /proc is what this check reads' };
      const api = assertApi(ctx);
      const plugin = vscode.Uri.joinPath(toolsDir(), FILE);
      const module = vscode.Uri.joinPath(toolsDir(), MODULE);
      const d = { host: process.pid };
      try {
        await vscode.workspace.fs.writeFile(module, Buffer.from(MODULE_TEXT, 'utf8'));
        await vscode.workspace.fs.writeFile(plugin, Buffer.from(JSON.stringify(PLUGIN, null, 2), 'utf8'));
        await poll(() => api.getTool(TOOL), 10000);
        d.approved = await approve(ctx, plugin.fsPath);
        d.active = !!(await poll(() => { const t = api.getTool(TOOL); return t && t.state === 'active'; }, 10000));
        d.before = listening(process.pid);
        // The sandbox's attempt: its declared test passes only when the signal is refused.
        d.outcomes = await withTimeout(vscode.commands.executeCommand('workspaceTools.runTests', TOOL), 30000, 'runTests');
        // Then the signal from outside the sandbox, as any program of the user could send it.
        process.kill(process.pid, 'SIGUSR1');
        await new Promise((resolve) => setTimeout(resolve, 2000));
        d.after = listening(process.pid);
        const refused = Array.isArray(d.outcomes) && d.outcomes.length === 1 && d.outcomes[0].passed;
        const noNewPort = d.after.every((address) => d.before.includes(address));
        return { pass: d.approved === 0 && d.active && refused && noNewPort, detail: d };
      } finally {
        await vscode.workspace.fs.delete(plugin).then(undefined, () => undefined);
        await vscode.workspace.fs.delete(module).then(undefined, () => undefined);
      }
    },
  },
];
