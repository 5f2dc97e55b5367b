'use strict';
// What a newcomer tripped over in VS Code (issue 27), each checked where it showed: Run Tool's questions, the test
// gutter, squiggles, problems one stage at a time, the Plugin Files pane's size, cancelling, the palette, approval
// while a file is being written, and the polish (the MCP group, History's words and times, JSON results, a failure
// notification that stayed, picks, New Plugin File's name box, the walkthrough in a normal window). Each check
// removes what it wrote.
const vscode = require('vscode');
const http = require('http');
const F = require('../fixture');
const { poll, probe, probeUntil, typeInQuickInput, pressKey, clickNotification, setViewport, sleep, withTimeout, toolsDir, assertApi } = require('../lib');
const { approve, ensureGoodApproved } = require('./tree');

const TRUSTED = ['trusted'];
const run = (cmd, ...args) => withTimeout(vscode.commands.executeCommand(cmd, ...args), 20000, cmd);
const uriOf = (name) => vscode.Uri.joinPath(toolsDir(), name);
const write = (name, value) => vscode.workspace.fs.writeFile(uriOf(name), Buffer.from(typeof value === 'string' ? value : JSON.stringify(value, null, 2), 'utf8'));
const remove = (...names) => Promise.all(names.map((name) => vscode.workspace.fs.delete(uriOf(name)).then(undefined, () => undefined)));
const ours = (uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Workspace Tools');
const stateOf = (api, tool) => { const t = api.getTool(tool); return t ? t.state : undefined; };
const untilState = (api, tool, state, ms = 10000) => poll(() => stateOf(api, tool) === state, ms);
const toasts = async (needle) => (await probe('notifications')).filter((t) => t.message.includes(needle));
const resultDocs = (needle) => vscode.workspace.textDocuments.filter((doc) => doc.uri.scheme === 'workspace-tools-result' && doc.getText().includes(needle));

/** A plugin file of one read-only shell tool. */
const shellTool = (name, command, extra = {}) => ({ tools: [{ name, description: `${name} (e2e)`, tags: ['read'], handler: { type: 'shell', command }, ...extra }] });

/** Writes a plugin file and approves it; resolves once its tool is served. */
async function approved(api, file, value, tool) {
  await write(file, value);
  await untilState(api, tool, 'pending');
  await approve(uriOf(file));
  return untilState(api, tool, 'active');
}

/** The text a diagnostic's range covers, read from `text` (the file as written). */
function underlined(text, range) {
  const lines = text.split('\n');
  if (range.start.line !== range.end.line) return `(lines ${range.start.line + 1}-${range.end.line + 1})`;
  return (lines[range.start.line] || '').slice(range.start.character, range.end.character);
}

/** Closes the editors of result and history documents (read-only: nothing asks to save). */
async function closeReadOnlyTabs() {
  for (const group of vscode.window.tabGroups.all) {
    const tabs = group.tabs.filter((tab) => tab.input && tab.input.uri && /^workspace-tools-(result|history)$/.test(tab.input.uri.scheme));
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }
}

module.exports = [
  {
    // 2. a required string left empty used to run the tool with ""
    name: 'newcomer.run_tool_refuses_an_empty_required_text',
    scenarios: TRUSTED,
    needsBrowser: true,
    needsDialogs: true, // "Approve" for good.json, if no check approved it yet
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      await ensureGoodApproved(ctx);
      const started = Date.now();
      const d = {};
      const running = vscode.commands.executeCommand(F.commands.runTool, 'echo-message');
      d.asked = (await probeUntil('quickInput', (q) => q.visible && /: message \(/.test(q.title), 10000)).title;
      d.enterOnEmpty = await typeInQuickInput('', 'Enter');
      d.enterOnSpaces = await typeInQuickInput('   ', 'Enter');
      await typeInQuickInput('', 'Escape');
      d.returned = await withTimeout(running, 10000, 'runTool');
      await api.recentCalls(1); // the history is flushed before it is read
      d.ranSince = (await api.recentCalls(20)).filter((c) => c.tool === 'echo-message' && Date.parse(c.time) >= started).length;
      const refused = (q) => q.visible && /: message \(/.test(q.title) && /"message" is required/.test(q.message);
      const pass = refused(d.enterOnEmpty) && refused(d.enterOnSpaces) && d.returned === undefined && d.ranSince === 0;
      return { pass, detail: d };
    },
  },
  {
    // 3. the gutter icon of a passing test showed the tool's (failed) result
    name: 'newcomer.each_test_has_its_own_gutter_icon',
    scenarios: TRUSTED,
    needsBrowser: true,
    needsDialogs: true,
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const file = 'e2e-gutter.json';
      const text = [
        '{',
        '  "tools": [',
        '    {',
        '      "name": "e2e-gutter",',
        '      "description": "Prints hello (e2e)",',
        '      "tags": ["read"],',
        '      "handler": { "type": "shell", "command": ["echo", "hello"] },',
        '      "tests": [',
        '        { "name": "says hello", "expect": { "outputContains": "hello" } },',
        '        { "name": "expects goodbye", "expect": { "outputContains": "goodbye" } }',
        '      ]',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n');
      const lineOf = (needle) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;
      const d = {};
      try {
        d.active = !!(await approved(api, file, text, 'e2e-gutter'));
        d.outcomes = ((await run('workspaceTools.runTests', 'e2e-gutter')) || []).map((o) => `${o.test}:${o.passed}`);
        await vscode.window.showTextDocument(uriOf(file), { preview: false });
        const at = (glyphs, line) => (glyphs.find((g) => g.line === line) || {}).state;
        d.gutter = await probeUntil('gutter', (glyphs) => at(glyphs, lineOf('says hello')) === 'passed' && at(glyphs, lineOf('expects goodbye')) === 'failed', 15000);
        d.lines = { tool: text.split('\n').indexOf('    {') + 1, passing: lineOf('says hello'), failing: lineOf('expects goodbye') };
        // the tool's own icon, on its own line, carries the worst result of its tests
        const pass = d.active && at(d.gutter, d.lines.passing) === 'passed' && at(d.gutter, d.lines.failing) === 'failed' && at(d.gutter, d.lines.tool) === 'failed';
        return { pass, detail: d };
      } finally {
        await run('workbench.action.closeActiveEditor').catch(() => undefined);
        await remove(file);
      }
    },
  },
  {
    // 4. squiggles were one character wide, on the opening quote
    name: 'newcomer.squiggles_cover_the_offending_text',
    scenarios: TRUSTED,
    timeoutMs: 30000,
    run: async () => {
      const file = 'e2e-ranges.json';
      const text = [
        '{',
        '  "tools": [',
        '    { "name": "r-typo", "description": "x", "handler": { "type": "shell", "comand": ["ls"] } },',
        '    { "name": "r-value", "description": "x", "handler": { "type": "shel", "command": ["ls"] } },',
        '    { "name": "r-pipe", "description": "x", "handler": { "type": "shell", "command": "ls src | wc -l" } },',
        '    { "name": "r-placeholder", "description": "x", "handler": { "type": "shell", "command": ["echo", "{{ message }}"] } }',
        '  ]',
        '}',
        '',
      ].join('\n');
      try {
        await write(file, text);
        // the file is not open: these are the problems as loaded, in the Problems panel and on the file
        const found = await poll(() => { const list = ours(uriOf(file)); return list.length >= 4 ? list : null; }, 15000) || ours(uriOf(file));
        const covered = found.map((diagnostic) => underlined(text, diagnostic.range)).sort();
        const pass = JSON.stringify(covered) === JSON.stringify(['"comand"', '"shel"', '{{ message }}', '|'].sort());
        return { pass, detail: { covered, messages: found.map((x) => x.message.slice(0, 80)) } };
      } finally {
        await remove(file);
      }
    },
  },
  {
    // 5. problems arrived one stage at a time; Convert to script hid an undeclared placeholder; no quick fix declared
    // it; a misspelt property was reported twice (three times: the JSON language service's two and ours)
    name: 'newcomer.all_problems_at_once_each_once_and_fixed_by_quick_fixes',
    scenarios: TRUSTED,
    needsBrowser: true,
    timeoutMs: 90000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const file = 'e2e-three.json';
      const uri = uriOf(file);
      const text = [
        '{',
        '  "tools": [',
        '    {',
        '      "name": "e2e-three",',
        '      "description": "Count the notes that match a pattern (e2e)",',
        '      "handler": { "type": "shell", "comand": "grep -c {{pattern}} notes.txt | wc -l" }',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n');
      const d = {};
      const fixAt = async (range, title) => {
        const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri, range);
        const action = (actions || []).find((a) => a.title.startsWith(title));
        d.fixes = [...(d.fixes || []), action ? action.title : `(none of ${(actions || []).map((a) => a.title).join(' / ')})`];
        return action && action.edit ? vscode.workspace.applyEdit(action.edit) : false;
      };
      try {
        await write(file, text);
        const first = await poll(() => { const list = ours(uri); return list.length >= 3 ? list : null; }, 15000) || ours(uri);
        d.atOnce = first.map((x) => underlined(text, x.range));
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc, { preview: false });
        await sleep(3000); // the JSON language service checks the open file
        const all = vscode.languages.getDiagnostics(uri);
        d.aboutTheTypo = all.filter((x) => /comand/i.test(x.message) || underlined(text, x.range).includes('comand')).map((x) => `${x.source}: ${x.message.slice(0, 60)}`);
        d.missingProperty = all.filter((x) => /missing property/i.test(x.message)).map((x) => x.message);
        const typo = ours(uri).find((x) => /comand/.test(x.message));
        await fixAt(typo.range, 'Change "comand" to "command"');
        // the open file is checked again as typed: wait for that before placing the next fix
        const pipe = await poll(() => !ours(uri).some((x) => /comand/.test(x.message)) && ours(uri).find((x) => /shell operator/.test(x.message)), 5000);
        await fixAt(pipe.range, 'Convert to "script"');
        await doc.save();
        const hidden = await poll(() => ours(uri).find((x) => /\{\{pattern\}\} in "script" names no property/.test(x.message)), 10000);
        d.stillReported = !!hidden;
        if (hidden) await fixAt(hidden.range, 'Declare "pattern" as a parameter');
        await doc.save();
        d.clean = !!(await poll(() => ours(uri).length === 0 && stateOf(api, 'e2e-three') === 'pending', 10000));
        d.final = doc.getText();
        const pass = JSON.stringify([...d.atOnce].sort()) === JSON.stringify(['"comand"', '{{pattern}}', '|'].sort()) && d.aboutTheTypo.length === 1 && d.missingProperty.length === 0
          && d.stillReported && d.clean && /\\"\$INPUT_PATTERN\\"/.test(d.final) && /"required": \[\s*"pattern"\s*\]/.test(d.final);
        return { pass, detail: d };
      } finally {
        await run('workbench.action.closeActiveEditor').catch(() => undefined);
        await remove(file);
      }
    },
  },
  {
    // 6. the Plugin Files welcome pane took three quarters of the sidebar
    name: 'newcomer.plugin_files_pane_leaves_the_tools_in_view',
    scenarios: TRUSTED,
    needsBrowser: true,
    run: async (ctx) => {
      const api = assertApi(ctx);
      // A file of its own that waits for approval (other checks approve and remove files as they go),
      // so the Plugin Files pane shows its "files wait" welcome.
      const file = 'e2e-pane-waits.json';
      try {
        await write(file, shellTool('e2e-pane-waits', ['true']));
        const waiting = !!(await untilState(api, 'e2e-pane-waits', 'pending'));
        await run(F.viewContainerCommand);
        const panes = await probeUntil('sidebar', (list) => list.some((p) => /plugin files/i.test(p.title) && p.welcome) && list.some((p) => /^tools$/i.test(p.title) && p.rows.length > 0), 10000);
        const files = panes.find((p) => /plugin files/i.test(p.title));
        const tools = panes.find((p) => /^tools$/i.test(p.title));
        const pass = waiting && !!files && !!tools && tools.expanded && tools.height > 2 * files.height && tools.rows.length >= 8;
        return { pass, detail: { waiting, panes: panes.map((p) => ({ title: p.title, height: p.height, rows: p.rows.length, expanded: p.expanded })) } };
      } finally {
        await remove(file);
      }
    },
  },
  {
    // 7. a cancelled run was reported as a failure ("killed.."), and results showed no elapsed time
    name: 'newcomer.cancel_says_cancelled_and_how_long_it_ran',
    scenarios: TRUSTED,
    needsBrowser: true,
    needsDialogs: true,
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const file = 'e2e-slow.json';
      const d = {};
      try {
        d.active = !!(await approved(api, file, shellTool('e2e-slow', ['sleep', '30']), 'e2e-slow'));
        await run('notifications.clearAll');
        const running = vscode.commands.executeCommand(F.commands.runTool, { name: 'e2e-slow' });
        await sleep(1500);
        d.cancel = await poll(async () => (await clickNotification('Running e2e-slow', 'Cancel')).clicked, 8000, 500);
        d.returned = await withTimeout(running, 15000, 'runTool');
        const doc = await poll(() => resultDocs('e2e-slow')[0], 5000);
        d.head = doc ? doc.getText().split('\n')[0] : null;
        d.notification = (await probeUntil('notifications', (list) => list.some((t) => t.message.includes('e2e-slow')), 5000)).filter((t) => t.message.includes('e2e-slow')).map((t) => t.message);
        const echo = await run(F.commands.runTool, { name: 'echo-message', input: { message: 'timed' } });
        const done = await poll(() => resultDocs('timed')[0], 5000);
        d.succeeded = echo && done ? done.getText().split('\n')[0] : null;
        const pass = d.active && d.cancel && /^# e2e-slow cancelled after \d+(\.\d)? s$/.test(d.head || '') && !/failed/.test(doc.getText())
          && d.notification.some((m) => /^e2e-slow was cancelled after \d+(\.\d)? s\.$/.test(m)) && !d.notification.some((m) => /failed|killed/.test(m))
          && /^# echo-message succeeded in \d+ ms$/.test(d.succeeded || '');
        return { pass, detail: d };
      } finally {
        await closeReadOnlyTabs();
        await remove(file);
      }
    },
  },
  {
    // 8. "Run Tests" named the context key "workspaceTrusted" (never set) and "Open the Latest Call Record" was hidden
    name: 'newcomer.palette_offers_run_tests_when_trusted_and_the_latest_call_record',
    scenarios: ['trusted', 'restricted'],
    needsBrowser: true,
    timeoutMs: 30000,
    run: async (ctx) => {
      const look = async (title) => {
        await run('workbench.action.showCommands');
        const q = await typeInQuickInput(`>Workspace Tools: ${title}`);
        const found = await probeUntil('quickInput', (state) => state.items.some((item) => (item || '').includes(title)), 3000);
        await pressKey('Escape');
        return (found.items || []).some((item) => (item || '').includes(title)) || (q.items || []).some((item) => (item || '').includes(title));
      };
      const d = { runTests: await look('Run Tests'), latestCall: await look('Open the Latest Call Record') };
      const pass = d.latestCall && d.runTests === (ctx.scenario !== 'restricted');
      return { pass, detail: d };
    },
  },
  {
    // 9. a new empty file asked for approval; every save of a file being written asked again, and the notice returned
    name: 'newcomer.a_file_being_written_asks_once_and_keeps_its_approval_across_rewording',
    scenarios: TRUSTED,
    needsBrowser: true,
    needsDialogs: true,
    timeoutMs: 120000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const file = 'e2e-authoring.json';
      const uri = uriOf(file);
      const tool = (command, description = 'Says hi (e2e)') => ({ name: 'e2e-authoring', description, tags: ['read'], handler: { type: 'shell', command } });
      const d = {};
      const settle = () => sleep(1500); // a save reaches a reload within the watcher's debounce
      const notices = async () => (await toasts('e2e-authoring')).length;
      try {
        await run('notifications.clearAll');
        // a file just created: nothing to approve, nothing wrong
        await write(file, '');
        await settle();
        d.empty = { problems: api.diagnostics().filter((x) => x.file.endsWith(file)).length, notices: await notices() };
        // written by someone else (an agent's file tools): announced once, also across a half-done edit
        await write(file, { tools: [tool(['echo', 'hi'])] });
        d.pendingAfterWrite = !!(await untilState(api, 'e2e-authoring', 'pending'));
        d.firstNotice = (await probeUntil('notifications', (list) => list.some((t) => t.message.includes('e2e-authoring')), 5000)).filter((t) => t.message.includes('e2e-authoring')).length;
        await run('notifications.clearAll');
        await write(file, '{ "tools": [ { "name": "e2e-authoring",');
        await settle();
        await write(file, { tools: [tool(['echo', 'hello'])] });
        d.pendingAgain = !!(await untilState(api, 'e2e-authoring', 'pending'));
        await settle();
        d.noticesWhileWriting = await notices();
        // approved, then reworded (a comment, the description): what runs is the same, so it stays approved
        await approve(uri);
        d.active = !!(await untilState(api, 'e2e-authoring', 'active'));
        await write(file, `// greets\n${JSON.stringify({ tools: [tool(['echo', 'hello'], 'Greets the person who asks (e2e)')] }, null, 4)}`);
        await settle();
        d.afterRewording = (await poll(() => stateOf(api, 'e2e-authoring') !== 'active', 3000)) ? stateOf(api, 'e2e-authoring') : 'active';
        // what runs changes: it waits again, and the notification says so
        await write(file, { tools: [tool(['echo', 'bye'])] });
        d.afterCommandChange = (await untilState(api, 'e2e-authoring', 'pending')) ? 'pending' : stateOf(api, 'e2e-authoring');
        d.noticeForTheChange = (await probeUntil('notifications', (list) => list.some((t) => t.message.includes('e2e-authoring')), 5000)).some((t) => t.message.includes('e2e-authoring'));
        // saved from the editor by the person: it waits, without a notification (the lens above the tool says Approve…)
        await approve(uri);
        await untilState(api, 'e2e-authoring', 'active');
        await run('notifications.clearAll');
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc, { preview: false });
        const edit = new vscode.WorkspaceEdit();
        edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), JSON.stringify({ tools: [tool(['echo', 'edited'])] }, null, 2));
        await vscode.workspace.applyEdit(edit);
        await doc.save();
        d.afterEditorSave = (await untilState(api, 'e2e-authoring', 'pending')) ? 'pending' : stateOf(api, 'e2e-authoring');
        await settle();
        d.noticesAfterEditorSave = await notices();
        const pass = d.empty.problems === 0 && d.empty.notices === 0 && d.pendingAfterWrite && d.firstNotice === 1 && d.pendingAgain && d.noticesWhileWriting === 0
          && d.active && d.afterRewording === 'active' && d.afterCommandChange === 'pending' && d.noticeForTheChange
          && d.afterEditorSave === 'pending' && d.noticesAfterEditorSave === 0;
        return { pass, detail: d };
      } finally {
        await run('workbench.action.closeActiveEditor').catch(() => undefined);
        await remove(file);
      }
    },
  },
  {
    // 10. two "Workspace Tools" groups in chat's Configure Tools, the MCP one empty
    name: 'newcomer.the_mcp_server_has_its_own_name_and_is_listed_only_with_something_to_serve',
    scenarios: TRUSTED,
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const labels = () => { try { return (vscode.lm.mcpServerDefinitions || []).map((x) => x.label); } catch (e) { return [String(e)]; } };
      const mine = (list) => list.filter((label) => /workspace.tools/i.test(label));
      const d = { withApprovedFiles: await poll(() => { const l = mine(labels()); return l.length ? l : null; }, 10000) };
      const away = vscode.Uri.joinPath(toolsDir(), '..', 'tools-e2e-away-mcp');
      await vscode.workspace.fs.rename(toolsDir(), away);
      try {
        await run(F.commands.reload);
        d.withoutPluginFiles = await poll(() => { const l = mine(labels()); return l.length === 0 ? l : null; }, 10000) || mine(labels());
      } finally {
        await vscode.workspace.fs.rename(away, toolsDir());
        await run(F.commands.reload);
      }
      d.back = await poll(() => { const l = mine(labels()); return l.length ? l : null; }, 10000);
      await poll(() => stateOf(api, 'echo-message') === 'active', 8000);
      // The name it has in .mcp.json and every client: VS Code's slash commands read /mcp.workspace-tools.<prompt>.
      const pass = JSON.stringify(d.withApprovedFiles) === JSON.stringify(['workspace-tools']) && d.withoutPluginFiles.length === 0 && !!d.back;
      return { pass, detail: d };
    },
  },
  {
    // 10. "door: run-tool" and UTC ISO times in the History view and tab titles
    name: 'newcomer.history_and_results_say_where_and_when_in_plain_words_and_local_time',
    scenarios: TRUSTED,
    needsDialogs: true,
    timeoutMs: 40000,
    run: async (ctx) => {
      await ensureGoodApproved(ctx);
      const d = {};
      const marker = `plain-${Date.now()}`;
      await run(F.commands.runTool, { name: 'echo-message', input: { message: marker } });
      const tabLabels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input && t.input.uri && /^workspace-tools-(result|history)$/.test(t.input.uri.scheme)).map((t) => `${t.input.uri.scheme}: ${t.label}`);
      d.resultTabs = await poll(() => { const l = tabLabels(); return l.length ? l : null; }, 5000);
      await poll(async () => (await assertApi(ctx).recentCalls(1))[0].input.message === marker, 5000);
      await run('workspaceTools.refreshHistory');
      await run('workspaceTools.openHistoryRecord');
      const editor = await poll(() => { const e = vscode.window.activeTextEditor; return e && e.document.uri.scheme === 'workspace-tools-history' ? e : null; }, 5000);
      d.record = editor ? editor.document.getText().split('\n').slice(0, 5) : null;
      d.tabs = [...new Set([...(d.resultTabs || []), ...tabLabels()])];
      const localTime = /· \d{1,2}:\d{2}(:\d{2})?( ?[AP]M)?$/;
      const pass = d.tabs.length >= 2 && d.tabs.every((label) => localTime.test(label) && !/\d{4}-\d\d-\d\dT|Z$|\.md$/.test(label))
        && !!d.record && d.record.some((line) => line === '- From: Run Tool') && !d.record.some((line) => /door|run-tool/.test(line));
      await closeReadOnlyTabs();
      return { pass, detail: d };
    },
  },
  {
    // 10. an HTTP JSON result was one long line
    name: 'newcomer.an_http_json_result_is_indented',
    scenarios: TRUSTED,
    needsDialogs: true, // "Approve", then "Run" (an http tool is not read-only)
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const server = http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ name: 'e2e-json', versions: ['1.0.0', '1.1.0'] })); });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const file = 'e2e-http.json';
      const d = {};
      try {
        const value = { tools: [{ name: 'e2e-http', description: 'A local JSON endpoint (e2e)', handler: { type: 'http', method: 'GET', url: `http://127.0.0.1:${server.address().port}/info` } }] };
        d.active = !!(await approved(api, file, value, 'e2e-http'));
        d.returned = await run(F.commands.runTool, { name: 'e2e-http' });
        const doc = await poll(() => resultDocs('e2e-json')[0], 5000);
        d.text = doc ? doc.getText() : null;
        const pass = d.active && !!d.text && d.text.includes('HTTP 200 OK\n\n```json\n{\n  "name": "e2e-json",\n  "versions": [\n    "1.0.0",');
        return { pass, detail: { ...d, text: d.text && d.text.slice(-300) } };
      } finally {
        server.close();
        await closeReadOnlyTabs();
        await remove(file);
      }
    },
  },
  {
    // 10. a failure notification stayed after the file was fixed (an error notification with a button never goes)
    name: 'newcomer.a_failed_run_notification_can_go_by_itself',
    scenarios: TRUSTED,
    needsBrowser: true,
    needsDialogs: true,
    timeoutMs: 40000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const file = 'e2e-fails.json';
      const d = {};
      try {
        d.active = !!(await approved(api, file, shellTool('e2e-fails', ['false']), 'e2e-fails'));
        await run('notifications.clearAll');
        await run(F.commands.runTool, { name: 'e2e-fails' });
        // The progress toast ("Running e2e-fails…") comes first: wait for the one that reports the end.
        d.notification = (await probeUntil('notifications', (list) => list.some((t) => t.message.startsWith('e2e-fails failed')), 8000)).filter((t) => t.message.startsWith('e2e-fails'));
        const [toast] = d.notification;
        const pass = d.active && !!toast && /^e2e-fails failed \(exit code 1\) after \d+ m?s: /.test(toast.message) && !/\.\./.test(toast.message) && toast.buttons.length === 0;
        return { pass, detail: d };
      } finally {
        await closeReadOnlyTabs();
        await remove(file);
      }
    },
  },
  {
    // 10. a boolean parameter's pick opened on `false`
    name: 'newcomer.an_optional_pick_opens_on_skip',
    scenarios: TRUSTED,
    needsBrowser: true,
    timeoutMs: 30000,
    run: async () => {
      const running = vscode.commands.executeCommand(F.commands.runTool, 'git-diff-summary');
      const pick = await probeUntil('quickInput', (q) => q.visible && /: staged \(/.test(q.title), 10000);
      await pressKey('Escape');
      await withTimeout(running, 10000, 'runTool').catch(() => undefined);
      const pass = pick.active === 'Skip' && pick.items.includes('true') && pick.items.includes('false');
      return { pass, detail: { title: pick.title, items: pick.items, active: pick.active } };
    },
  },
  {
    // 10. New Plugin File's name box rejected Enter on its hint
    name: 'newcomer.new_plugin_file_takes_its_suggested_name_on_enter',
    scenarios: TRUSTED,
    needsBrowser: true,
    timeoutMs: 40000,
    run: async () => {
      const d = {};
      const creating = vscode.commands.executeCommand(F.commands.newPluginFile);
      const box = await probeUntil('quickInput', (q) => q.visible && q.title === 'New Plugin File' && !!q.value, 10000);
      d.suggested = box.value;
      d.afterEnter = await pressKey('Enter'); // the name as suggested
      await probeUntil('quickInput', (q) => q.visible && q.items.length > 0, 5000);
      await pressKey('Enter'); // the first kind: a shell example
      const created = await withTimeout(creating, 10000, 'newPluginFile').catch((e) => String(e));
      d.created = created && created.fsPath;
      try {
        const pass = /^team-tools(-\d+)?$/.test(d.suggested) && !!d.created && d.created.endsWith(`${d.suggested}.json`);
        return { pass, detail: d };
      } finally {
        await run('workbench.action.closeActiveEditor').catch(() => undefined);
        if (d.created) await vscode.workspace.fs.delete(vscode.Uri.file(d.created)).then(undefined, () => undefined);
      }
    },
  },
  {
    // 10. the walkthrough pages needed a 1920-px-wide window: VS Code hides a step's page when the editor is 950 px
    // wide or less (a 1280 x 800 window with chat open), so each step must say what matters itself; where the
    // page shows, in a column beside the steps, it must read without tables or side-scrolling
    name: 'newcomer.walkthrough_works_in_a_normal_window',
    scenarios: TRUSTED,
    needsBrowser: true,
    timeoutMs: 120000,
    run: async (ctx) => {
      const id = `${F.extensionId}#gettingStarted`;
      const steps = ((ctx.ext.packageJSON.contributes.walkthroughs || [])[0] || { steps: [] }).steps;
      const headingOf = (step) => require('fs').readFileSync(require('path').join(ctx.ext.extensionPath, step.media.markdown), 'utf8').split('\n')[0].replace(/^#\s*/, '');
      // what each step must say without its page: the action and what follows from it
      const says = {
        builtinTools: [/without asking/, /#gitStatus/],
        createPluginTool: [/\.vscode\/tools/, /New Plugin File writes one/, /checks it as you type/],
        approvePluginFile: [/Enter never approves/, /comments, descriptions\) keeps the approval/, /changing what it runs asks again/],
        runTool: [/cannot be left empty/, /how long it took/, /Cancel/],
        claudeCode: [/\.mcp\.json/, /read-only tools/],
      };
      const d = { normal: [], wide: [] };
      const open = (step) => run('workbench.action.openWalkthrough', { category: id, step: step.id }, false);
      try {
        d.normalViewport = await setViewport(1280, 800);
        for (const step of steps) {
          await open(step);
          const shown = await probeUntil('walkthroughStep', (s) => !!s && s.id.endsWith(`#${step.id}`), 5000);
          const missing = (says[step.id] || [/./]).filter((re) => !re.test((shown && shown.text) || '')).map(String);
          d.normal.push({ step: step.id, mediaShown: shown && shown.mediaShown, missing });
        }
        d.wideViewport = await setViewport(1920, 1080);
        for (const step of steps) {
          const heading = headingOf(step);
          await open(step);
          const page = await poll(async () => ((await probe('walkthroughMedia')) || []).find((m) => m.heading === heading && m.width > 0), 6000, 500);
          d.wide.push({ step: step.id, heading, ...(page || { missing: true }) });
        }
      } finally {
        await setViewport(1400, 1100);
        await run('workbench.action.closeAllEditors').catch(() => undefined);
      }
      const pass = d.normal.length === steps.length && d.normal.every((s) => s.missing.length === 0)
        && d.wide.length === steps.length && d.wide.every((p) => !p.missing && p.width >= 300 && p.tables === 0 && p.wide.length === 0);
      return { pass, detail: d };
    },
  },
  {
    // Issue 35 item 13: a tool that does not load ("timeout": "10") was a yellow schema warning while its file was open
    // and a red error when closed, and the status bar said "1 error" while Problems counted 0 errors
    name: 'newcomer.a_tool_that_does_not_load_is_an_error_open_or_closed_and_the_status_bar_agrees',
    scenarios: TRUSTED,
    needsBrowser: true,
    timeoutMs: 60000,
    run: async () => {
      const file = 'e2e-wrongtypes.json';
      const uri = uriOf(file);
      const text = `${JSON.stringify({ tools: [{ name: 'wrongtypes', description: 'A timeout given as text (e2e)', handler: { type: 'shell', command: ['echo', 'x'], timeout: '10' } }] }, null, 2)}\n`;
      const severities = (list) => list.map((x) => `${x.source}:${vscode.DiagnosticSeverity[x.severity]}:${underlined(text, x.range)}`);
      const counts = async () => {
        const items = await probe('statusbar');
        const ourItem = items.find((i) => /workspaceTools\.status$/.test(i.id)) || {};
        const problems = items.find((i) => /status\.problems$/.test(i.id)) || {};
        // VS Code's own item: "Errors: 5", "Errors: 5, Warnings: 1", "No Problems"
        const said = problems.aria || problems.text || '';
        const count = (what) => Number((new RegExp(`${what}: (\\d+)`).exec(said) || [])[1] || 0);
        return { ours: ourItem.text, problems: said, ourErrors: Number((/(\d+) errors?/.exec(ourItem.text || '') || [])[1] || 0), problemErrors: count('Errors'), problemWarnings: count('Warnings') };
      };
      // the Problems panel's errors that are not of plugin files (another check's task problems): not ours to count
      const others = () => vscode.languages.getDiagnostics().reduce((sum, [u, list]) => sum + (/[\\/]\.vscode[\\/]tools[\\/][^\\/]+\.json$/.test(u.fsPath) ? 0 : list.filter((x) => x.severity === vscode.DiagnosticSeverity.Error && x.source !== 'Workspace Tools').length), 0);
      const d = {};
      const one = (list) => list.length === 1 && list[0] === 'Workspace Tools:Error:"10"';
      const agree = (c) => c.ourErrors > 0 && c.ourErrors === c.problemErrors - c.others && c.problemWarnings === 0;
      // Both items count after the diagnostics change (ours 150 ms later, VS Code's on its own
      // schedule): they must agree within a few seconds, not at the instant the diagnostic lands.
      const settledCounts = async () => {
        let last;
        await poll(async () => { last = { ...(await counts()), others: others() }; return agree(last); }, 5000);
        return last;
      };
      try {
        await write(file, text);
        d.closed = severities(await poll(() => { const list = vscode.languages.getDiagnostics(uri); return list.length > 0 ? list : null; }, 15000) || []);
        d.closedCounts = await settledCounts();
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc, { preview: false });
        await sleep(3000); // the JSON language service and the extension check the open file
        d.open = severities(vscode.languages.getDiagnostics(uri));
        d.openCounts = await settledCounts();
        return { pass: one(d.closed) && one(d.open) && agree(d.closedCounts) && agree(d.openCounts), detail: d };
      } finally {
        await run('workbench.action.closeActiveEditor').catch(() => undefined);
        await remove(file);
      }
    },
  },
  {
    // Issue 35 item 14: no quick fix for "type": "bash", though the walkthrough promises the light bulb fixes slips
    name: 'newcomer.an_unknown_handler_type_gets_a_quick_fix',
    scenarios: TRUSTED,
    timeoutMs: 45000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const file = 'e2e-bash.json';
      const uri = uriOf(file);
      const text = `${JSON.stringify({ tools: [{ name: 'e2e-bash', description: 'Lists the files (e2e)', tags: ['read'], handler: { type: 'bash', command: ['ls'] } }] }, null, 2)}\n`;
      const d = {};
      try {
        await write(file, text);
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc, { preview: false });
        const problem = await poll(() => ours(uri).find((x) => /handler type/.test(x.message)), 15000);
        d.problem = problem && { message: problem.message, severity: vscode.DiagnosticSeverity[problem.severity], underlined: underlined(text, problem.range) };
        const actions = problem ? await vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri, problem.range) : [];
        const fix = (actions || []).find((a) => a.title === 'Change "bash" to "shell"');
        d.actions = (actions || []).map((a) => `${a.title}${a.isPreferred ? ' (preferred)' : ''}`);
        if (fix && fix.edit) await vscode.workspace.applyEdit(fix.edit);
        await doc.save();
        d.fixed = /"type": "shell"/.test(doc.getText());
        d.loads = !!(await poll(() => stateOf(api, 'e2e-bash') === 'pending' && ours(uri).length === 0, 10000));
        const pass = !!d.problem && /did you mean "shell"/.test(d.problem.message) && d.problem.severity === 'Error' && d.problem.underlined === '"bash"'
          && !!fix && fix.isPreferred === true && d.fixed && d.loads;
        return { pass, detail: d };
      } finally {
        await run('workbench.action.closeActiveEditor').catch(() => undefined);
        await remove(file);
      }
    },
  },
  {
    // Issue 35 item 16: editing only a test's expected text asked for approval again, and the Testing view offered no
    // Approve; test runs filled the History view; the approval dialog showed an imported task's command twice; Reload
    // said nothing
    name: 'newcomer.tests_keep_the_approval_testing_offers_approve_and_history_leaves_test_runs_out',
    scenarios: TRUSTED,
    needsBrowser: true,
    needsDialogs: true, // "Approve", clicked by the harness
    timeoutMs: 120000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const file = 'e2e-expect.json';
      const tool = 'e2e-expect';
      const value = (expected, word = 'hello') => ({ tools: [{ name: tool, description: 'Says a word (e2e)', tags: ['read'], handler: { type: 'shell', command: ['echo', word] }, tests: [{ name: 'says it', expect: { outputContains: expected } }] }] });
      const d = {};
      try {
        d.approved = !!(await approved(api, file, value('hello'), tool));
        await write(file, value('hell'));
        await sleep(1500); // the file watcher's reload
        await run(F.commands.reload);
        d.keptAfterExpectEdit = stateOf(api, tool);
        await write(file, value('bye', 'bye'));
        d.waitsAfterCommandEdit = !!(await untilState(api, tool, 'pending'));
        // the Testing view: the file's item says so (its label is the file's path), and carries Approve
        await run('workbench.view.testing.focus');
        const fileLabel = `.vscode/tools/${file}`;
        const isFileRow = (row) => row.label.startsWith(fileLabel);
        const panes = await probeUntil('sidebar', (value) => (value || []).some((pane) => (pane.details || []).some((row) => isFileRow(row) && /awaiting approval/.test(`${row.label} ${row.aria}`))), 10000);
        d.testingRows = (panes || []).flatMap((pane) => pane.details || []);
        d.testingRow = d.testingRows.find(isFileRow);
        d.clicked = await probe('clickRowAction', 20000, { pane: 'Test', label: fileLabel, action: 'Approve' });
        d.activeAfterTestingApprove = !!(await untilState(api, tool, 'active'));
        // runs of the tests stay out of the History view, which says how many it leaves out; Show Test Runs shows them
        await run('workspaceTools.runTests', tool);
        await run(F.commands.runTool, { name: tool });
        await api.recentCalls(1);
        await run('workbench.view.extension.workspaceTools');
        await run('workspaceTools.history.focus');
        const historyPane = async (test) => ((await probeUntil('sidebar', (value) => { const pane = (value || []).find((p) => p.title === 'History'); return !!pane && test(pane); }, 10000)) || []).find((p) => p.title === 'History');
        const doors = (pane) => (pane ? pane.details : []).filter((row) => row.label === tool).map((row) => row.description.split(' · ')[0]);
        const hidden = await historyPane((pane) => doors(pane).includes('Run Tool') && /test runs? hidden/.test(pane.description));
        d.hiddenDoors = doors(hidden);
        d.hiddenNote = hidden && hidden.description;
        await run('workspaceTools.showTestRunsInHistory');
        d.shownDoors = doors(await historyPane((pane) => doors(pane).includes('test')));
        await run('workspaceTools.hideTestRunsInHistory');
        // Reload says what it loaded
        d.reloaded = await run(F.commands.reload);
        const statusItems = await probeUntil('statusbar', (items) => items.some((item) => /Reloaded/.test(item.text || '')), 5000);
        d.reloadStatus = (statusItems.find((item) => /Reloaded/.test(item.text || '')) || {}).text;
        const pass = d.approved && d.keptAfterExpectEdit === 'active' && d.waitsAfterCommandEdit
          && !!d.testingRow && /awaiting approval/.test(`${d.testingRow.label} ${d.testingRow.aria}`) && d.testingRow.actions.some((action) => /^Approve/.test(action))
          && d.clicked.clicked && d.activeAfterTestingApprove
          && d.hiddenDoors.includes('Run Tool') && !d.hiddenDoors.includes('test') && d.shownDoors.includes('test')
          && /^Reloaded \d+ plugin files?: \d+ tools? offered to chat/.test(d.reloaded || '') && /Reloaded/.test(d.reloadStatus || '');
        return { pass, detail: d };
      } finally {
        await remove(file);
        await closeReadOnlyTabs();
      }
    },
  },
  {
    // Issue 35 item 16: the approval dialog showed an imported task's command twice
    name: 'newcomer.approving_an_imported_task_shows_its_command_once',
    scenarios: TRUSTED,
    needsDialogs: true,
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const marker = `e2e-once-${Date.now().toString(36)}`;
      const tasks = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, '.vscode', 'tasks.json');
      const file = 'e2e-import-once.json';
      const d = {};
      try {
        await vscode.workspace.fs.writeFile(tasks, Buffer.from(JSON.stringify({ version: '2.0.0', tasks: [{ label: 'e2e once', type: 'shell', command: `echo ${marker}` }] }, null, 2), 'utf8'));
        await write(file, { import: [{ from: 'tasks', include: ['e2e once'] }] });
        await untilState(api, 'task-e2e-once', 'pending');
        await approve(uriOf(file));
        d.active = !!(await untilState(api, 'task-e2e-once', 'active'));
        const dialogsFile = require('path').join(require('path').dirname(process.env.E2E_RESULT_FILE || '.'), 'dialogs.jsonl');
        const dialogs = require('fs').readFileSync(dialogsFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
        const shown = dialogs.reverse().find((dialog) => (dialog.details || []).join('\n').includes(marker));
        d.text = shown && (shown.details || []).join('\n').split('\n').filter((line) => line.includes(marker) || line.includes('task-e2e-once') || line.includes('imports "e2e once"'));
        const times = shown ? (shown.details || []).join('\n').split(`echo ${marker}`).length - 1 : -1;
        d.times = times;
        return { pass: d.active && times === 1, detail: d };
      } finally {
        await remove(file);
        await vscode.workspace.fs.delete(tasks).then(undefined, () => undefined);
      }
    },
  },
];
