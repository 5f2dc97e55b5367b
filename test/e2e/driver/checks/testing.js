'use strict';
// Tests declared in a plugin file, run in the real VS Code: from the Testing view (the test controller's run
// profile, through testing.runAll) and from the tools view's Run Tests command, which returns the outcomes to
// scripted callers. A file's tests run only once it is approved; in Restricted Mode there are none.
const vscode = require('vscode');
const { poll, withTimeout, toolsDir, assertApi } = require('../lib');
const { approve } = require('./tree');

const TOOL = 'e2e-tested';
const FILE = {
  tools: [{
    name: TOOL,
    description: 'Prints hello',
    tags: ['read'],
    handler: { type: 'shell', command: ['echo', 'hello'] },
    tests: [
      { name: 'says hello', expect: { outputContains: 'hello' } },
      { name: 'expects goodbye', expect: { outputContains: 'goodbye' } },
    ],
  }],
};

module.exports = [
  {
    name: 'testing.declared_tests_run_from_the_testing_view_and_the_tools_view',
    scenarios: ['trusted'],
    needsDialogs: true, // the harness clicks "Approve"
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const uri = vscode.Uri.joinPath(toolsDir(), 'e2e-tested.json');
      await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(FILE, null, 2), 'utf8'));
      const d = {};
      try {
        d.pending = !!(await poll(() => { const t = api.getTool(TOOL); return t && t.state === 'pending'; }, 10000));
        // not approved: the tools view's Run Tests runs nothing
        d.beforeApproval = await withTimeout(vscode.commands.executeCommand('workspaceTools.runTests', TOOL), 20000, 'runTests');
        await approve(uri);
        d.active = !!(await poll(() => { const t = api.getTool(TOOL); return t && t.state === 'active'; }, 10000));
        // the Testing view: run every test the controller lists
        await withTimeout(vscode.commands.executeCommand('testing.runAll'), 30000, 'testing.runAll');
        d.fromTestingView = await poll(() => api.testSummary(TOOL), 20000);
        // the tools view's action, as a keybinding or another extension calls it
        d.fromToolsView = await withTimeout(vscode.commands.executeCommand('workspaceTools.runTests', TOOL), 20000, 'runTests');
        const outcomes = d.fromToolsView || [];
        const passed = outcomes.find((o) => o.test === 'says hello');
        const failed = outcomes.find((o) => o.test === 'expects goodbye');
        const pass = d.pending && d.active && Array.isArray(d.beforeApproval) && d.beforeApproval.length === 0
          && d.fromTestingView && d.fromTestingView.passed === 1 && d.fromTestingView.failed === 1
          && passed && passed.passed && failed && !failed.passed && /does not contain "goodbye"/.test(failed.message);
        return { pass: !!pass, detail: d };
      } finally {
        await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
      }
    },
  },
  {
    name: 'testing.restricted_mode_runs_no_tests',
    scenarios: ['restricted'],
    run: async () => {
      const outcomes = await withTimeout(vscode.commands.executeCommand('workspaceTools.runTests'), 20000, 'runTests');
      return { pass: Array.isArray(outcomes) && outcomes.length === 0, detail: { outcomes } };
    },
  },
];
