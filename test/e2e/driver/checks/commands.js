'use strict';
// The view's commands as a user (or a keybinding, or another extension) runs them: Run Tool, New Plugin File and
// Write .mcp.json, each judged by what it leaves behind (an editor, a file on disk, the API's tools). The scripted
// arguments ({ name, input? }, { name, folder? }) stand in for the input boxes, which nobody can type into here.
// Trusted only (plugin files do not load in Restricted Mode). Runs last and removes what it created.
const vscode = require('vscode');
const F = require('../fixture');
const { dialogsSeen, poll, probe, probeUntil, typeInQuickInput, screenshot, withTimeout, wsFolder, toolsDir, summarizeTools, assertApi } = require('../lib');

const TRUSTED = ['trusted'];
const NEW_FILE = 'e2e-new-tools';        // New Plugin File's name: creates .vscode/tools/e2e-new-tools.json
const NEW_TOOL = `${NEW_FILE}-todos`;    // the one tool of the template (src/core/plugins/scaffold.ts)
const CODE_FILE = 'e2e-code-tools';      // New Plugin File with template "code": .json, .ts and the types file
const CODE_TOOL = `${CODE_FILE}-text-stats`; // the one tool of the code template (src/extension/view-text/code-scaffold.ts)
const SERVER = 'workspace-tools';        // our entry in .mcp.json (MCP_SERVER_NAME)
const OTHER_SERVER = 'e2e-other-server';
const MCP_COMMENT = '// E2E-MCP-JSON-COMMENT-5b1e';

const run = (cmd, ...args) => withTimeout(vscode.commands.executeCommand(cmd, ...args), 20000, cmd);
const newFileUri = () => vscode.Uri.joinPath(toolsDir(), `${NEW_FILE}.json`);
const codeFileUri = () => vscode.Uri.joinPath(toolsDir(), `${CODE_FILE}.json`);
const codeModuleUri = () => vscode.Uri.joinPath(toolsDir(), `${CODE_FILE}.ts`);
const typesUri = () => vscode.Uri.joinPath(toolsDir(), 'workspace-tools.d.ts');
const mcpJsonUri = () => vscode.Uri.joinPath(wsFolder(), '.mcp.json');
const claudeSettingsUri = () => vscode.Uri.joinPath(wsFolder(), '.claude', 'settings.json');
const readText = async (uri) => Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
const exists = async (uri) => vscode.workspace.fs.stat(uri).then(() => true, () => false);

const RESULT_SCHEME = 'workspace-tools-result'; // Run Tool's read-only result documents (commands/run-results.ts)

/** Result documents opened since `before` (a Set of documents) whose text contains `needle`. */
function newResultsWith(before, needle) {
  return vscode.workspace.textDocuments.filter((d) => !before.has(d) && d.uri.scheme === RESULT_SCHEME && d.getText().includes(needle));
}

/** Documents opened since `before` that are untitled or dirty: Run Tool must leave none (closing them asks "Save?"). */
function newDirtyOrUntitled(before) {
  return vscode.workspace.textDocuments.filter((d) => !before.has(d) && (d.isUntitled || d.isDirty)).map((d) => d.uri.toString());
}

/** Closes result documents: they are read-only and never dirty, so nothing asks "Save?". */
async function closeAll(documents) {
  for (const document of documents) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  }
}

/** Runs Run Tool with `args`; returns what the command resolved to and the result documents it opened (then closed). */
async function runToolCommand(args, needle) {
  const before = new Set(vscode.workspace.textDocuments);
  const returned = await run(F.commands.runTool, ...args);
  const opened = await poll(() => { const l = newResultsWith(before, needle); return l.length ? l : null; }, returned ? 5000 : 1000) || [];
  const uris = opened.map((d) => d.uri.toString());
  const dirty = newDirtyOrUntitled(before);
  await closeAll(opened);
  return { returned, opened: uris, dirty };
}

/** Runs `node dist/mcp-server.js ...args` (as a terminal would) to completion: { code, stdout, stderr }. */
function runServerCommand(ctx, args) {
  return new Promise((resolve) => {
    const script = require('path').join(ctx.ext.extensionPath, 'dist', 'mcp-server.js');
    const child = require('child_process').spawn(process.execPath, [script, ...args], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.on('error', (e) => resolve({ code: -1, stdout, stderr: String(e) }));
  });
}

/**
 * .mcp.json as JSON (its comments are whole lines here), and our server's entry: the portable npx form of the
 * installed extension's version, with no path of this machine (a team commits the file).
 */
function parseMcpJson(text, version) {
  const json = JSON.parse(text.replace(/^\s*\/\/.*$/gm, ''));
  const ours = json.mcpServers && json.mcpServers[SERVER];
  const want = { type: 'stdio', command: 'npx', args: ['-y', `workspace-tools-mcp@${version}`, '--workspace', '.'] };
  return { json, serverPath: ours, serverOk: JSON.stringify(ours) === JSON.stringify(want) };
}

module.exports = [
  {
    name: 'commands.run_tool_builtin_opens_result',
    scenarios: TRUSTED,
    run: async () => {
      // { name } alone: no input box (git-status has parameters, so the interactive form would ask)
      const { returned, opened, dirty } = await runToolCommand([{ name: 'git-status' }], F.git.modified);
      const pass = !!returned && !returned.isError && returned.text.includes(F.git.modified) && opened.length === 1 && dirty.length === 0;
      return { pass, detail: { returned, openedDocuments: opened, dirty } };
    },
  },
  {
    name: 'commands.run_tool_name_plus_input',
    scenarios: TRUSTED,
    run: async () => {
      // the input reaches the tool: limited to src/, the untracked file at the root is not listed
      const { returned, opened, dirty } = await runToolCommand(['git-status', { path: 'src' }], F.git.modified);
      const pass = !!returned && !returned.isError && returned.text.includes(F.git.modified) && !returned.text.includes(F.git.untracked) && opened.length === 1 && dirty.length === 0;
      return { pass, detail: { returned, openedDocuments: opened, dirty } };
    },
  },
  {
    // A person's Run Tool: one question per parameter (the harness types into the quick input), a wrong number
    // refused as typed, an optional parameter skipped, and the result in a read-only document of its own.
    name: 'commands.run_tool_asks_each_parameter_and_shows_a_read_only_result',
    scenarios: TRUSTED,
    needsBrowser: true,
    timeoutMs: 60000,
    run: async () => {
      const before = new Set(vscode.workspace.textDocuments);
      const d = { steps: [] };
      const ask = async (parameter) => {
        // the title is "Run file-reader: path (1/4)"
        const state = await probeUntil('quickInput', (q) => q.visible && q.title.includes(`: ${parameter} (`), 10000);
        d.steps.push({ title: state.title, steps: state.steps, value: state.value, message: state.message });
        return state;
      };
      // a tool name alone is not scripted: it asks for the input
      const running = vscode.commands.executeCommand(F.commands.runTool, 'file-reader');
      await ask('path');
      await typeInQuickInput(F.readme.path, 'Enter');
      await ask('startLine');
      d.wrongNumber = (await typeInQuickInput('abc')).message;
      await screenshot('run-tool-step', '.quick-input-widget');
      await typeInQuickInput('5', 'Enter');
      await ask('endLine');
      await typeInQuickInput('7', 'Enter');
      d.folderPrompt = (await ask('folder')).message;
      await typeInQuickInput('', 'Enter'); // optional: skipped
      d.returned = await withTimeout(running, 20000, 'runTool');
      const results = await poll(() => { const l = newResultsWith(before, F.readme.marker); return l.length ? l : null; }, 5000) || [];
      const doc = results[0];
      d.result = doc && { uri: doc.uri.toString(), isDirty: doc.isDirty, languageId: doc.languageId, head: doc.getText().split('\n').slice(0, 4) };
      d.dirtyOrUntitled = newDirtyOrUntitled(before);
      if (doc) {
        // read-only: typing into its editor, as a person would, changes nothing
        await vscode.window.showTextDocument(doc);
        // the picture first: typing into a read-only editor leaves a "Cannot edit" hint on it
        await screenshot('run-tool-result', '.part.editor');
        const text = doc.getText();
        await vscode.commands.executeCommand('type', { text: 'typed-by-e2e' });
        d.unchangedAfterTyping = doc.getText() === text && !doc.isDirty;
      }
      await closeAll(results);
      const titles = ['path (1/4)', 'startLine (2/4)', 'endLine (3/4)', 'folder (4/4)'].map((t) => `Run file-reader: ${t}`);
      const pass = JSON.stringify(d.steps.map((x) => x.title)) === JSON.stringify(titles) && /whole number/.test(d.wrongNumber || '') && /optional/.test(d.folderPrompt || '')
        && !!d.returned && !d.returned.isError && results.length === 1 && !!d.result && !d.result.isDirty
        && d.result.languageId === 'markdown' && /^# file-reader succeeded/.test(d.result.head[0]) && d.dirtyOrUntitled.length === 0 && d.unchangedAfterTyping;
      return { pass, detail: d };
    },
  },
  {
    name: 'commands.new_plugin_file_loads_pending_without_problems',
    scenarios: TRUSTED,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const returned = await run(F.commands.newPluginFile, { name: NEW_FILE });
      const created = await exists(newFileUri());
      await run(F.commands.reload);
      const tool = await poll(() => { const t = api.getTool(NEW_TOOL); return t && t.state === 'pending' ? t : null; }, 8000);
      const problems = api.diagnostics().filter((d) => d.file && d.file.endsWith(`${NEW_FILE}.json`));
      const editorOpen = vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === newFileUri().fsPath);
      const pass = created && !!returned && returned.fsPath === newFileUri().fsPath && !!tool && tool.source.file.endsWith(`${NEW_FILE}.json`) && problems.length === 0 && editorOpen;
      return { pass, detail: { returned: returned && returned.fsPath, created, editorOpen, tool: tool && summarizeTools([tool])[0], problems } };
    },
  },
  {
    name: 'commands.new_plugin_file_never_overwrites',
    scenarios: TRUSTED,
    run: async () => {
      // the template again would look the same: mark the file first, so an overwrite shows
      const marked = (await readText(newFileUri())) + '\n// E2E-KEEP-ME\n';
      await vscode.workspace.fs.writeFile(newFileUri(), Buffer.from(marked, 'utf8'));
      const returned = await run(F.commands.newPluginFile, { name: NEW_FILE });
      const after = await readText(newFileUri());
      return { pass: returned === undefined && after === marked, detail: { returned, unchanged: after === marked } };
    },
  },
  {
    name: 'commands.run_tool_refuses_pending_tool',
    scenarios: TRUSTED,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const state = api.getTool(NEW_TOOL) && api.getTool(NEW_TOOL).state;
      const scripted = await runToolCommand([{ name: NEW_TOOL, input: { pattern: 'TODO' } }], NEW_TOOL);
      const byName = await runToolCommand([NEW_TOOL, { pattern: 'TODO' }], NEW_TOOL);
      const pass = state === 'pending' && [scripted, byName].every((r) => r.returned === undefined && r.opened.length === 0);
      return { pass, detail: { state, scripted: { returned: scripted.returned, opened: scripted.opened.length }, byName: { returned: byName.returned, opened: byName.opened.length } } };
    },
  },
  {
    name: 'commands.run_tool_refuses_disabled_tool',
    scenarios: TRUSTED,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const tool = 'workspace-info';
      await run('workspaceTools.disableTool', tool);
      try {
        const disabled = await poll(() => { const t = api.getTool(tool); return t && t.state === 'disabled'; }, 8000);
        const r = await runToolCommand([{ name: tool }], tool);
        return { pass: !!disabled && r.returned === undefined && r.opened.length === 0, detail: { disabled: !!disabled, returned: r.returned, opened: r.opened.length } };
      } finally {
        await run('workspaceTools.enableTool', tool);
        await poll(() => { const t = api.getTool(tool); return t && t.state === 'active'; }, 8000);
      }
    },
  },
  {
    // one folder open: the command must not ask which (a folder pick nobody answers would time out here)
    name: 'commands.write_mcp_json_keeps_other_servers_and_comments',
    scenarios: TRUSTED,
    run: async (ctx) => {
      const other = { command: 'node', args: ['other-server.js'] };
      const original = `${MCP_COMMENT}\n${JSON.stringify({ mcpServers: { [OTHER_SERVER]: other } }, null, 2)}\n`;
      await vscode.workspace.fs.writeFile(mcpJsonUri(), Buffer.from(original, 'utf8'));
      await run(F.commands.writeMcpJson);
      const text = await readText(mcpJsonUri());
      const { json, serverPath, serverOk } = parseMcpJson(text, ctx.ext.packageJSON.version);
      const otherKept = JSON.stringify(json.mcpServers[OTHER_SERVER]) === JSON.stringify(other);
      return { pass: serverOk && otherKept && text.includes(MCP_COMMENT), detail: { serverPath, serverOk, otherKept, commentKept: text.includes(MCP_COMMENT), text } };
    },
  },
  {
    // the same command writes Claude Code's allow list: the read-only tools, keeping the user's own entries
    name: 'commands.write_mcp_json_writes_claude_allow_list',
    scenarios: TRUSTED,
    run: async () => {
      await vscode.workspace.fs.writeFile(claudeSettingsUri(), Buffer.from('{ "permissions": { "allow": ["Bash(npm test)"] } }\n', 'utf8'));
      await run(F.commands.writeMcpJson);
      const allow = JSON.parse(await readText(claudeSettingsUri())).permissions.allow;
      const want = ['Bash(npm test)', `mcp__${SERVER}__git-status`, `mcp__${SERVER}__file-reader`];
      const writeToolListed = allow.includes(`mcp__${SERVER}__write-note`);
      return { pass: want.every((name) => allow.includes(name)) && !writeToolListed, detail: { allow } };
    },
  },
  {
    name: 'commands.write_mcp_json_creates_file',
    scenarios: TRUSTED,
    run: async (ctx) => {
      await vscode.workspace.fs.delete(mcpJsonUri());
      await run(F.commands.writeMcpJson);
      const created = await exists(mcpJsonUri());
      const parsed = created ? parseMcpJson(await readText(mcpJsonUri()), ctx.ext.packageJSON.version) : undefined;
      const servers = parsed && Object.keys(parsed.json.mcpServers || {});
      return { pass: !!parsed && parsed.serverOk && servers.length === 1, detail: { created, serverPath: parsed && parsed.serverPath, servers } };
    },
  },
  {
    name: 'commands.run_tool_scripted_write_tool_asks_first',
    scenarios: TRUSTED,
    needsDialogs: true,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const writer = vscode.Uri.joinPath(toolsDir(), 'writer.json');
      await run(F.commands.approveFile, writer); // the harness clicks "Approve"
      const active = await poll(() => { const t = api.getTool('write-note'); return t && t.state === 'active'; }, 8000);
      const target = vscode.Uri.joinPath(wsFolder(), 'e2e-written.txt');
      // the harness clicks "Run"; runToolCommand closes the result document
      const { returned } = await runToolCommand([{ name: 'write-note', input: { file: 'e2e-written.txt' } }], 'write-note');
      const asked = dialogsSeen().filter((d) => /Run "write-note"\?/.test(d.message || ''));
      const written = await exists(target);
      if (written) { await vscode.workspace.fs.delete(target); }
      // The confirmation shows the exact command this input makes, one argument a line (issue 11), not only the template.
      const details = asked.length === 1 ? (asked[0].details || []).join('\n') : '';
      const exact = /It will run:/.test(details) && /program: touch/.test(details) && /arg 1: e2e-written\.txt/.test(details);
      return { pass: !!active && written && asked.length === 1 && asked[0].clicked === 'Run' && exact && !!returned && !returned.isError, detail: { active: !!active, written, asked, exact, returned } };
    },
  },
  {
    // The code template: plugin file, module and types file; the tool loads (types stripped in the extension host),
    // waits for approval, and once approved runs its module in a sandbox process started by the extension host.
    name: 'commands.new_plugin_file_code_tool_runs_once_approved',
    scenarios: TRUSTED,
    needsDialogs: true, // the tool is not read-only (network): the harness clicks "Run"
    timeoutMs: 60000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const returned = await run(F.commands.newPluginFile, { name: CODE_FILE, template: 'code' });
      const created = { plugin: await exists(codeFileUri()), module: await exists(codeModuleUri()), types: await exists(typesUri()) };
      const moduleOpen = vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === codeModuleUri().fsPath);
      await run(F.commands.reload);
      const pending = await poll(() => { const t = api.getTool(CODE_TOOL); return t && t.state === 'pending' ? t : null; }, 8000);
      const problems = api.diagnostics().filter((d) => d.file && d.file.endsWith(`${CODE_FILE}.json`));
      const approved = await runServerCommand(ctx, ['approve', '--workspace', wsFolder().fsPath, codeFileUri().fsPath, '--yes']);
      const active = await poll(() => { const t = api.getTool(CODE_TOOL); return t && t.state === 'active' ? t : null; }, 10000);
      const { returned: result } = await runToolCommand([{ name: CODE_TOOL, input: { text: 'one two\nthree' } }], '2 lines, 3 words');
      const pass = !!returned && returned.fsPath === codeFileUri().fsPath && created.plugin && created.module && created.types && moduleOpen
        && !!pending && problems.length === 0 && approved.code === 0 && !!active
        && !!result && !result.isError && result.text.includes('2 lines, 3 words, 13 characters');
      return { pass, detail: { returned: returned && returned.fsPath, created, moduleOpen, pending: !!pending, problems, approved, active: !!active, result } };
    },
  },
  {
    // Issue 35 item 12: Import Tasks and Scripts lists what the workspace declares (tasks.json tasks, npm scripts,
    // Makefile targets), each with the tool it becomes and what it runs, and one that cannot be served with why; the
    // tasks ticked become a new plugin file's import section, which loads them (waiting for approval) and no other.
    // New Plugin File offers the same as its third kind.
    name: 'commands.import_tasks_lists_what_the_workspace_declares_and_writes_an_import_file',
    scenarios: TRUSTED,
    needsBrowser: true,
    timeoutMs: 90000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const ws = wsFolder();
      const sources = {
        'package.json': JSON.stringify({ name: 'e2e-fixture', scripts: { test: 'node -e "console.log(1)"', lint: 'node -e "console.log(2)"' } }, null, 2),
        Makefile: 'build:\n\t@echo made\n',
        '.vscode/tasks.json': JSON.stringify({ version: '2.0.0', tasks: [{ label: 'Build', type: 'shell', command: 'echo task-ran' }, { label: 'watch', type: 'shell', command: 'tsc -w', isBackground: true }] }, null, 2),
      };
      const written = vscode.Uri.joinPath(toolsDir(), 'imported-tasks.json');
      const d = {};
      try {
        for (const [name, text] of Object.entries(sources)) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(ws, ...name.split('/')), Buffer.from(text, 'utf8'));
        const command = Promise.resolve(vscode.commands.executeCommand('workspaceTools.importTasks'));
        const pick = await probeUntil('quickInput', (q) => q.visible && q.title === 'Import Tasks and Scripts' && (q.items || []).length >= 5, 20000);
        d.listed = pick.itemLabels;
        for (const label of ['Build', 'test', 'build']) d[`ticked ${label}`] = (await probe('checkQuickPickItem', 10000, { label })).checked;
        // Enter in the pick's box (a click leaves the focus on the row's checkbox) accepts the ticked rows
        await typeInQuickInput('', 'Enter');
        const nameBox = await probeUntil('quickInput', (q) => q.visible && q.title === 'New Plugin File', 10000);
        d.suggestedName = nameBox.value;
        await probe('key', 10000, { key: 'Enter' });
        d.afterName = await probe('quickInput');
        d.returned = String(await withTimeout(command, 20000, 'importTasks').catch((e) => `not resolved: ${e}`));
        d.text = await readText(written).catch((e) => String(e));
        d.loaded = await poll(() => {
          const mine = api.listTools().filter((t) => t.source && t.source.file === written.fsPath).map((t) => `${t.name}:${t.state}`).sort();
          return mine.length >= 3 ? mine : null;
        }, 15000);
        d.problems = api.diagnostics().filter((x) => x.file === written.fsPath || /tasks\.json|package\.json|Makefile/.test(x.file)).map((x) => x.message);
        // New Plugin File: the same as its third kind
        const again = Promise.resolve(vscode.commands.executeCommand(F.commands.newPluginFile));
        await probeUntil('quickInput', (q) => q.visible && q.title === 'New Plugin File' && !!q.value, 10000);
        await probe('key', 10000, { key: 'Enter' });
        const kinds = await probeUntil('quickInput', (q) => q.visible && (q.items || []).includes('Import tasks/scripts'), 10000);
        d.kinds = kinds.items;
        await probe('key', 10000, { key: 'Escape' });
        d.cancelled = (await withTimeout(again, 10000, 'newPluginFile')) === undefined;
        const listedText = (d.listed || []).join('\n');
        const pass = /Build.*task-build.*runs: echo task-ran/.test(listedText) && /test.*npm-test.*runs: npm run test/.test(listedText) && /lint/.test(listedText)
          && /build.*make-build.*runs: make build/.test(listedText) && /watch.*cannot be served.*background/.test(listedText)
          && d['ticked Build'] && d['ticked test'] && d['ticked build'] && d.suggestedName === 'imported-tasks'
          && JSON.stringify(d.loaded) === JSON.stringify(['make-build:pending', 'npm-test:pending', 'task-build:pending']) && d.problems.length === 0
          && /"import": \[/.test(d.text) && d.kinds.includes('Shell tool') && d.kinds.includes('Code tool') && d.cancelled;
        return { pass, detail: d };
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        await vscode.workspace.fs.delete(written).then(undefined, () => undefined);
        for (const name of Object.keys(sources)) await vscode.workspace.fs.delete(vscode.Uri.joinPath(ws, ...name.split('/'))).then(undefined, () => undefined);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        await run(F.commands.reload).catch(() => undefined);
      }
    },
  },
  {
    // leave the fixture as the other areas' checks and the screenshot expect it
    name: 'commands.cleanup',
    scenarios: TRUSTED,
    run: async (ctx) => {
      const api = assertApi(ctx);
      // no untitled or dirty editor is left (Run Tool's results are read-only), so closing asks nothing
      await withTimeout(vscode.commands.executeCommand('workbench.action.closeAllEditors'), 10000, 'closeAllEditors');
      for (const uri of [mcpJsonUri(), claudeSettingsUri(), newFileUri(), codeFileUri(), codeModuleUri(), typesUri()]) {
        if (await exists(uri)) await vscode.workspace.fs.delete(uri);
      }
      await run(F.commands.reload);
      const gone = await poll(() => !api.getTool(NEW_TOOL) && !api.getTool(CODE_TOOL), 8000);
      return { pass: !!gone };
    },
  },
];
