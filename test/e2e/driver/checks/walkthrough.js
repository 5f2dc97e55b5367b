'use strict';
// The Get Started walkthrough: contributed with its steps, each step's buttons name commands that exist, and doing what
// each step asks (chat using a built-in tool, the step's commands run scripted as in commands.js) completes the steps on
// their real events, as the rendered walkthrough shows (lib.probe asks the harness). Runs after the commands area (it
// writes .mcp.json too) and removes what it created.
const vscode = require('vscode');
const F = require('../fixture');
const { poll, invoke, probeUntil, screenshot, withTimeout, wsFolder, toolsDir, assertApi } = require('../lib');
const { approve } = require('./tree');

const NAME = 'e2e-walkthrough';
const run = (cmd, ...args) => withTimeout(vscode.commands.executeCommand(cmd, ...args), 20000, cmd);

module.exports = [
  {
    name: 'walkthrough.contributed_and_its_commands_exist',
    run: async (ctx) => {
      const [walkthrough] = ctx.ext.packageJSON.contributes.walkthroughs || [];
      const steps = (walkthrough && walkthrough.steps) || [];
      const commands = steps.flatMap((s) => [...s.description.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]));
      const all = new Set(await vscode.commands.getCommands(true));
      const missing = commands.filter((c) => !all.has(c));
      const pass = !!walkthrough && steps.length >= 4 && steps.every((s) => s.completionEvents && s.completionEvents.length > 0 && s.media && s.media.markdown) && commands.length >= steps.length && missing.length === 0;
      return { pass, detail: { id: walkthrough && walkthrough.id, steps: steps.map((s) => s.id), commands, missing } };
    },
  },
  {
    name: 'walkthrough.steps_complete_when_their_commands_run',
    scenarios: ['trusted'],
    needsDialogs: true, // the harness clicks "Approve"
    needsBrowser: true,
    timeoutMs: 90000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const file = vscode.Uri.joinPath(toolsDir(), `${NAME}.json`);
      const mcpJson = vscode.Uri.joinPath(wsFolder(), '.mcp.json');
      const claude = vscode.Uri.joinPath(wsFolder(), '.claude', 'settings.json');
      const d = {};
      try {
        // the walkthrough is open (registered) before the events, as when a person follows it
        await run('workspaceTools.openWalkthrough');
        d.openedBefore = (await probeUntil('walkthrough', (steps) => steps.length >= 4, 10000)).map((s) => `${s.id.split('#').pop()}:${s.done}`);
        d.chat = await invoke('workspaceTools_get_git_status', {});
        d.created = !!(await run(F.commands.newPluginFile, { name: NAME }));
        d.pending = !!(await poll(() => { const t = api.getTool(`${NAME}-todos`); return t && t.state === 'pending'; }, 10000));
        await approve(file);
        d.active = !!(await poll(() => { const t = api.getTool(`${NAME}-todos`); return t && t.state === 'active'; }, 10000));
        const result = await run(F.commands.runTool, { name: `${NAME}-todos` });
        d.ran = !!result && !result.isError;
        await run(F.commands.writeMcpJson);
        await run('workbench.action.closeAllEditors');
        await run('workspaceTools.openWalkthrough');
        d.steps = await probeUntil('walkthrough', (steps) => steps.length >= 4 && steps.every((s) => s.done), 15000);
        await screenshot('walkthrough', '.part.editor');
      } finally {
        await run('workbench.action.closeAllEditors').catch(() => undefined);
        for (const uri of [file, mcpJson, claude]) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
        await run(F.commands.reload);
      }
      const pass = !!d.chat && !d.chat.error && d.created && d.pending && d.active && d.ran && d.steps.length >= 4 && d.steps.every((s) => s.done);
      return { pass, detail: d };
    },
  },
];
