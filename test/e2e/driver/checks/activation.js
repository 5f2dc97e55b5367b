'use strict';
// Activation: the extension under test is installed, activates, and returns its API.
const vscode = require('vscode');
const F = require('../fixture');

module.exports = [
  {
    name: 'activation.extension_present',
    run: async (ctx) => {
      const ext = vscode.extensions.getExtension(F.extensionId);
      ctx.ext = ext;
      return { pass: !!ext, detail: ext ? { version: ext.packageJSON.version, extensionKind: ext.extensionKind, capabilities: ext.packageJSON.capabilities } : { installed: vscode.extensions.all.map((e) => e.id).filter((id) => !id.startsWith('vscode.')) } };
    },
  },
  {
    name: 'activation.activates',
    run: async (ctx) => {
      const s = Date.now();
      const api = await ctx.ext.activate();
      ctx.activateCallMs = Date.now() - s;
      ctx.api = api && typeof api === 'object' ? api : undefined;
      ctx.apiShape = api === undefined ? 'undefined' : Object.keys(api || {});
      // optional: the extension may export how long its activate() took
      const own = api && (api.activationMs ?? api.activationTimeMs ?? (api.stats && api.stats.activationMs));
      ctx.info.extension = { isActive: ctx.ext.isActive, activateCallMs: ctx.activateCallMs, reportedActivationMs: own ?? null, apiKeys: ctx.apiShape };
      return { pass: ctx.ext.isActive, detail: ctx.info.extension };
    },
  },
  {
    name: 'activation.api_shape',
    run: async (ctx) => {
      const api = ctx.api || {};
      const want = ['listTools', 'getTool', 'reload', 'diagnostics', 'onDidChangeTools'];
      const missing = want.filter((k) => typeof api[k] !== 'function');
      return { pass: missing.length === 0, detail: { missing, apiKeys: ctx.apiShape } };
    },
  },
  {
    name: 'activation.manifest_untrusted_workspaces_limited',
    run: async (ctx) => {
      const cap = ctx.ext.packageJSON.capabilities && ctx.ext.packageJSON.capabilities.untrustedWorkspaces;
      return { pass: !!cap && cap.supported === 'limited' && typeof cap.description === 'string', detail: { untrustedWorkspaces: cap } };
    },
  },
];
