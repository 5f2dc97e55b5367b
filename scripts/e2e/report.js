'use strict';
// Prints one scenario's driver result (test/e2e/driver) and, as the last line, "PASSED FAILED".
// Usage: node report.js RESULT_JSON SCENARIO
const [file, sc] = process.argv.slice(2);
const r = JSON.parse(require('fs').readFileSync(file, 'utf8'));
const i = r.info || {}, e = i.extension || {};
console.log(`    VS Code ${i.vscodeVersion} (${i.appName}, ${i.uiKind}, remote=${i.remoteName}), ext host node ${i.node}; isTrusted=${i.isTrustedAtEnd}; ` +
  `activate() ${e.activateCallMs ?? '?'} ms, reported activation ${e.reportedActivationMs ?? 'n/a'} ms; driver total ${i.totalMs} ms`);
// The Workspace Tools view as rendered in the browser (rows read by harness/browser.js) against the API's tools at
// the same moment (info.treeExpect, written by the driver after it showed the view).
if (i.treeExpect) r.checks.push(treeRowsCheck(i.treeExpect, require('path').join(require('path').dirname(file), 'tree-rows.json')));
if (i.notRun) console.log(`    ${i.notRun.reason}: ${i.notRun.checks.join(', ')}`);
for (const c of r.checks) {
  console.log(`${c.pass ? 'PASS' : 'FAIL'}  [${sc}] ${c.name}  (${c.ms} ms)`);
  if (!c.pass) {
    // an error: its first line (the stack stays in result.json); else the check's detail
    const why = c.error ? String(c.error).split('\n')[0] : JSON.stringify(c.detail === undefined ? null : c.detail);
    console.log('      ' + why.slice(0, 700));
  }
}
function treeRowsCheck(exp, rowsFile) {
  const name = 'ui.tree_view_rows_match_api';
  let rows;
  try { rows = JSON.parse(require('fs').readFileSync(rowsFile, 'utf8')); } catch (e) { return { name, pass: false, detail: `no rows captured: ${e.message}` }; }
  // An import's tools sit one level deeper, under the row of the file they come from ("package.json · imported").
  const importGroups = rows.filter((x, i) => x.level === 2 && rows[i + 1] && rows[i + 1].level === 3);
  const top = rows.filter((x) => x.level === 1), kids = rows.filter((x) => (x.level === 2 && !importGroups.includes(x)) || x.level === 3);
  const restricted = top.filter((x) => /^Restricted Mode/.test(x.label));
  const builtin = top.filter((x) => x.label === 'Built-in');
  // The editor tools' group (src/extension/tree/nodes.ts editorGroup): collapsed at first, so its tools may not be drawn.
  const editor = top.filter((x) => x.label === 'Editor');
  const editorTools = exp.editorTools || [];
  // Which MCP server VS Code uses (src/extension/view-text/mcp-server-text.ts MCP_SERVER_ROW_LABEL): not a file.
  const mcpServer = top.filter((x) => x.label === 'MCP server');
  const fileRows = top.filter((x) => !restricted.includes(x) && !builtin.includes(x) && !editor.includes(x) && !mcpServer.includes(x));
  const diagRows = kids.filter((x) => /^\d+:\d+$/.test(x.label));
  // A resource row's label is its URI or template (no tool name has a ':').
  const resourceRows = kids.filter((x) => x.label.includes('://'));
  // A prompt row's description starts with "prompt" (after "(awaiting approval) " while its file waits).
  const promptRows = kids.filter((x) => /^(\(awaiting approval\) )?prompt( · |$)/.test(x.description || ''));
  const toolRows = kids.filter((x) => !diagRows.includes(x) && !resourceRows.includes(x) && !promptRows.includes(x));
  const shownState = (x) => (/^\(disabled\)/.test(x.description) ? 'disabled' : /^\(awaiting approval\)/.test(x.description) ? 'pending' : 'active');
  const seen = toolRows.map((x) => `${x.label}:${shownState(x)}`).sort();
  // The Editor group collapsed: none of its tools drawn, and the API's list without them; expanded: all of them.
  const editorCollapsed = !toolRows.some((x) => editorTools.includes(x.label));
  const want = exp.tools.filter((t) => !(editorCollapsed && editorTools.includes(t.name))).map((t) => `${t.name}:${t.state}`).sort();
  const problems = [];
  if (restricted.length !== (exp.trusted ? 0 : 1)) problems.push(`Restricted Mode row: ${restricted.length}, trusted=${exp.trusted}`);
  if (builtin.length !== (exp.builtins > 0 ? 1 : 0)) problems.push('Built-in group row');
  if (editor.length !== (editorTools.length > 0 ? 1 : 0) || (editor.length === 1 && editor[0].description !== `${editorTools.length} tool${editorTools.length === 1 ? '' : 's'}`)) problems.push(`Editor group row ${JSON.stringify(editor)}, API has ${editorTools.length} editor tools`);
  if (mcpServer.length > (exp.trusted ? 1 : 0)) problems.push(`${mcpServer.length} MCP server rows (trusted=${exp.trusted})`);
  if (fileRows.length !== exp.files) problems.push(`${fileRows.length} file rows, API has ${exp.files} files`);
  if (JSON.stringify(seen) !== JSON.stringify(want)) problems.push('tool rows (name:state) differ from api.listTools()');
  if (diagRows.length !== exp.diagnostics) problems.push(`${diagRows.length} problem rows, API has ${exp.diagnostics} diagnostics`);
  const resourceState = (x) => (/^\(awaiting approval\)/.test(x.description) ? 'pending-approval' : /^\(not served/.test(x.description) ? 'duplicate' : 'served');
  const seenResources = resourceRows.map((x) => `${x.label}:${resourceState(x)}`).sort();
  const wantResources = (exp.resources || []).map((r) => `${r.address}:${r.state}`).sort();
  if (JSON.stringify(seenResources) !== JSON.stringify(wantResources)) problems.push(`resource rows ${JSON.stringify(seenResources)} differ from api.listResources() ${JSON.stringify(wantResources)}`);
  // Each prompt row with its state and the file row above it (whose description has the file's path: "… · .vscode/tools/good.json · 2 tools …").
  const fileAbove = (x) => { const above = rows.slice(0, rows.indexOf(x)).filter((y) => y.level === 1).pop(); return (((above && above.description) || '').split(' · ').find((part) => part.endsWith('.json')) || '?').split('/').pop(); };
  const seenPrompts = promptRows.map((x) => `${x.label}:${/^\(awaiting approval\)/.test(x.description) ? 'pending-approval' : 'active'}@${fileAbove(x)}`).sort();
  const wantPrompts = (exp.prompts || []).map((p) => `${p.name}:${p.state}@${p.file}`).sort();
  if (JSON.stringify(seenPrompts) !== JSON.stringify(wantPrompts)) problems.push(`prompt rows ${JSON.stringify(seenPrompts)} differ from api.listPrompts() ${JSON.stringify(wantPrompts)}`);
  return { name, pass: problems.length === 0, ms: 0, detail: { problems, rows: rows.map((x) => `${x.level}|${x.label}|${x.description}`), apiTools: want } };
}
const passed = r.checks.filter((c) => c.pass).length;
console.log(`${passed} ${r.checks.length - passed}`);
