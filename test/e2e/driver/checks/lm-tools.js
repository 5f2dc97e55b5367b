'use strict';
// Built-in tools through the lm tool API (door 1). The lm names are read from the extension's own
// package.json (contributes.languageModelTools) so this file hard-codes no lm tool names.
// These run in every scenario: built-ins must work in Restricted Mode too.
const vscode = require('vscode');
const F = require('../fixture');
const { poll, invoke, norm, assertApi } = require('../lib');

const contributed = (ctx) => ((ctx.ext.packageJSON.contributes || {}).languageModelTools || []).map((t) => t.name);

/** The contributed lm tool for a built-in (e.g. "git-status" -> "workspaceTools_git_status"), by normalized name. */
function lmNameFor(ctx, builtin) {
  const key = norm(builtin);
  const names = contributed(ctx).filter((n) => norm(n).includes(key));
  // prefer the shortest match ("gitstatus" vs a longer name that also contains it)
  names.sort((a, b) => a.length - b.length);
  if (!names.length) throw new Error(`no contributed lm tool for built-in "${builtin}" among ${JSON.stringify(contributed(ctx))}`);
  return names[0];
}

module.exports = [
  {
    name: 'lm.tools_contributed_with_prefix',
    run: async (ctx) => {
      const names = contributed(ctx);
      const bad = names.filter((n) => !n.startsWith(F.lmToolPrefix));
      const missingBuiltins = F.builtins.filter((b) => !names.some((n) => norm(n).includes(norm(b))));
      return { pass: names.length > 0 && bad.length === 0 && missingBuiltins.length === 0, detail: { contributed: names, withoutPrefix: bad, missingBuiltins } };
    },
  },
  {
    name: 'lm.tools_registered_in_vscode_lm_tools',
    run: async (ctx) => {
      const names = contributed(ctx);
      const missing = await poll(() => { const m = names.filter((n) => !vscode.lm.tools.some((t) => t.name === n)); return m.length ? null : m; }, 10000) || names.filter((n) => !vscode.lm.tools.some((t) => t.name === n));
      return { pass: names.length > 0 && missing.length === 0, detail: { contributed: names, missing, registered: vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith(F.lmToolPrefix)) } };
    },
  },
  {
    name: 'lm.builtins_listed_by_api',
    run: async (ctx) => {
      const api = assertApi(ctx);
      const builtins = api.listTools().filter((t) => t.source && t.source.kind === 'builtin');
      const missing = F.builtins.filter((b) => !builtins.some((t) => t.name === b && t.state === 'active'));
      return { pass: missing.length === 0, detail: { missing, builtins: builtins.map((t) => `${t.name}:${t.state}`) } };
    },
  },
  {
    name: 'lm.git_status_reports_fixture_changes',
    run: async (ctx) => {
      const name = lmNameFor(ctx, 'git-status');
      const r = await invoke(name, {});
      const text = r.text || '';
      return { pass: !r.error && text.includes(F.git.modified) && text.includes(F.git.untracked), detail: { tool: name, ...r, text: text.slice(0, 1500) } };
    },
  },
  {
    name: 'lm.git_diff_summary_names_modified_file',
    run: async (ctx) => {
      const name = lmNameFor(ctx, 'git-diff-summary');
      const r = await invoke(name, {});
      return { pass: !r.error && (r.text || '').includes(F.git.modified), detail: { tool: name, ...r } };
    },
  },
  {
    name: 'lm.workspace_info_names_branch',
    run: async (ctx) => {
      const name = lmNameFor(ctx, 'workspace-info');
      const r = await invoke(name, {});
      return { pass: !r.error && /\bmain\b/.test(r.text || ''), detail: { tool: name, ...r } };
    },
  },
  {
    name: 'lm.file_reader_reads_file',
    run: async (ctx) => {
      const name = lmNameFor(ctx, 'file-reader');
      const r = await invoke(name, { path: F.readme.path });
      return { pass: !r.error && (r.text || '').includes(F.readme.marker), detail: { tool: name, ...r } };
    },
  },
  {
    name: 'lm.file_reader_invalid_input_is_an_error',
    run: async (ctx) => {
      const name = lmNameFor(ctx, 'file-reader');
      const r = await invoke(name, { path: F.readme.path, startLine: 'x' });
      // either invokeTool rejects (schema validation by VS Code or a thrown error) or the tool returns an error text
      const pass = !!r.error || (/startLine|invalid|must be|error/i.test(r.text || '') && !(r.text || '').includes(F.readme.marker));
      return { pass, detail: { tool: name, ...r } };
    },
  },
  {
    name: 'lm.file_reader_refuses_path_outside_workspace',
    run: async (ctx) => {
      const name = lmNameFor(ctx, 'file-reader');
      const r = await invoke(name, { path: '../../../../../../etc/passwd' });
      const pass = !!r.error || (!/root:.*:0:0:/.test(r.text || '') && /outside|not allowed|refus|denied|error/i.test(r.text || ''));
      return { pass, detail: { tool: name, ...r } };
    },
  },
  {
    // An image read by file-reader reaches chat as a LanguageModelDataPart (VS Code after 1.101 has
    // it; the extension looks for it at run time), its bytes exact, beside a line naming the file.
    name: 'lm.file_reader_returns_an_image_as_a_data_part',
    run: async (ctx) => {
      const name = lmNameFor(ctx, 'file-reader');
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
      const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'e2e-red-pixel.png');
      await vscode.workspace.fs.writeFile(file, png);
      const cts = new vscode.CancellationTokenSource();
      try {
        const result = await vscode.lm.invokeTool(name, { input: { path: 'e2e-red-pixel.png' }, toolInvocationToken: undefined }, cts.token);
        const parts = result.content.map((part) =>
          part instanceof vscode.LanguageModelTextPart ? { text: part.value } : vscode.LanguageModelDataPart && part instanceof vscode.LanguageModelDataPart ? { mimeType: part.mimeType, bytes: Buffer.from(part.data).toString('base64') } : { other: String(part && part.constructor && part.constructor.name) },
        );
        const image = parts.find((part) => part.mimeType === 'image/png');
        const pass = typeof vscode.LanguageModelDataPart === 'function' && image !== undefined && image.bytes === png.toString('base64') && parts.some((part) => part.text === 'e2e-red-pixel.png (image/png, 70 bytes)');
        return { pass, detail: { tool: name, vscode: vscode.version, hasDataPart: typeof vscode.LanguageModelDataPart, parts } };
      } finally {
        cts.dispose();
        await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
      }
    },
  },
];
module.exports.lmNameFor = lmNameFor;
