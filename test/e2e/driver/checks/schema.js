'use strict';
// Plugin files in the editor: JSON Schema diagnostics (contributes.jsonValidation), the jsonc
// association (no "Comments are not permitted in JSON"), and the engine's own load errors.
const vscode = require('vscode');
const F = require('../fixture');
const { sleep, poll, toolsDir, assertApi } = require('../lib');

async function open(name) {
  const uri = vscode.Uri.joinPath(toolsDir(), name);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: false });
  return { uri, doc };
}
const view = (d) => ({ message: d.message, line: d.range.start.line, character: d.range.start.character, severity: d.severity, source: d.source });

module.exports = [
  {
    name: 'schema.good_file_is_jsonc_without_diagnostics',
    timeoutMs: 20000,
    run: async () => {
      const { uri, doc } = await open(F.plugins.good);
      await sleep(3000); // give the JSON language server time to report anything
      // The JSON language service's diagnostics: the extension's own (Problems panel) are checked in problems.js.
      const diags = vscode.languages.getDiagnostics(uri).filter((d) => d.source !== 'Workspace Tools').map(view);
      const comments = diags.filter((d) => /Comments are not permitted/i.test(d.message));
      return { pass: doc.languageId === 'jsonc' && diags.length === 0, detail: { languageId: doc.languageId, diagnostics: diags, commentsNotPermitted: comments.length } };
    },
  },
  {
    name: 'schema.broken_file_syntax_diagnostic',
    timeoutMs: 20000,
    run: async () => {
      const { uri } = await open(F.plugins.broken);
      const diags = (await poll(() => { const d = vscode.languages.getDiagnostics(uri); return d.length ? d : null; }, 10000) || []).map(view);
      const at = diags.find((d) => d.line === F.plugins.brokenPos.line - 1);
      return { pass: !!at, detail: { expectedLine0: F.plugins.brokenPos.line - 1, diagnostics: diags } };
    },
  },
  {
    name: 'schema.invalid_file_schema_diagnostic',
    timeoutMs: 20000,
    run: async () => {
      // valid JSONC that violates the schema: the extension flags it from the open file's text, as errors (issue 35
      // item 13: the JSON language service would say the same as a warning, so its schema reports nothing)
      const { uri, doc } = await open(F.plugins.invalid);
      const diags = (await poll(() => { const d = vscode.languages.getDiagnostics(uri); return d.length ? d : null; }, 10000) || []).map(view);
      const pass = diags.length > 0 && !diags.some((d) => /Comments are not permitted/i.test(d.message)) && diags.every((d) => d.severity === vscode.DiagnosticSeverity.Error && d.source === 'Workspace Tools');
      return { pass, detail: { languageId: doc.languageId, diagnostics: diags } };
    },
  },
  {
    name: 'engine.diagnostics_broken_file_position',
    scenarios: ['trusted'], // in Restricted Mode the workspace's plugin files are not loaded at all
    run: async (ctx) => {
      const api = assertApi(ctx);
      const all = api.diagnostics();
      const d = all.find((x) => x.file && x.file.endsWith(F.plugins.broken));
      const pass = !!d && d.line === F.plugins.brokenPos.line && d.column === F.plugins.brokenPos.column;
      return { pass, detail: { expected: F.plugins.brokenPos, found: d || null, all } };
    },
  },
  {
    name: 'engine.broken_file_does_not_take_down_others',
    scenarios: ['trusted'],
    run: async (ctx) => {
      const api = assertApi(ctx);
      const names = api.listTools().map((t) => t.name);
      const missing = F.plugins.goodTools.filter((n) => !names.includes(n));
      return { pass: missing.length === 0, detail: { missing, names } };
    },
  },
];
