'use strict';
// Settings: workspaceTools.disabledTools, toggled by the view's commands (a tool name as argument) and by a plain
// configuration update, decides the tool's state. Uses a built-in tool, so it runs in every scenario (built-ins
// work in Restricted Mode too). Runs after the MCP checks: the change rewrites .vscode/settings.json and the MCP server definition.
const vscode = require('vscode');
const { poll, withTimeout, assertApi, invoke } = require('../lib');
const { lmNameFor } = require('./lm-tools');

const TOOL = 'workspace-info';
const stateOf = (api, name) => { const t = api.getTool(name); return t ? `${t.state}/${t.enabled ? 'enabled' : 'not enabled'}` : 'missing'; };
const waitState = (api, name, state) => poll(() => { const t = api.getTool(name); return t && t.state === state && t.enabled === (state !== 'disabled'); }, 8000);
const disabledSetting = () => vscode.workspace.getConfiguration('workspaceTools').get('disabledTools');

module.exports = [
  {
    name: 'settings.disable_and_enable_tool_commands',
    timeoutMs: 30000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const d = { before: stateOf(api, TOOL) };
      await withTimeout(vscode.commands.executeCommand('workspaceTools.disableTool', TOOL), 10000, 'disableTool');
      d.disabled = !!(await waitState(api, TOOL, 'disabled'));
      d.afterDisable = stateOf(api, TOOL);
      d.settingAfterDisable = disabledSetting();
      await withTimeout(vscode.commands.executeCommand('workspaceTools.enableTool', TOOL), 10000, 'enableTool');
      d.enabled = !!(await waitState(api, TOOL, 'active'));
      d.afterEnable = stateOf(api, TOOL);
      d.settingAfterEnable = disabledSetting();
      // Enabling the last disabled tool removes the setting: no `"disabledTools": []` is left behind.
      d.workspaceValueAfterEnable = vscode.workspace.getConfiguration('workspaceTools').inspect('disabledTools').workspaceValue;
      const pass = d.before.startsWith('active') && d.disabled && d.enabled
        && Array.isArray(d.settingAfterDisable) && d.settingAfterDisable.includes(TOOL) && !(d.settingAfterEnable || []).includes(TOOL)
        && d.workspaceValueAfterEnable === undefined;
      return { pass, detail: d };
    },
  },
  {
    name: 'settings.disabled_tools_configuration_update',
    timeoutMs: 30000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const cfg = () => vscode.workspace.getConfiguration('workspaceTools');
      const d = { before: stateOf(api, TOOL) };
      try {
        await cfg().update('disabledTools', [TOOL], vscode.ConfigurationTarget.Workspace);
        d.disabled = !!(await waitState(api, TOOL, 'disabled'));
        d.afterUpdate = stateOf(api, TOOL);
      } finally {
        await cfg().update('disabledTools', undefined, vscode.ConfigurationTarget.Workspace);
      }
      d.enabled = !!(await waitState(api, TOOL, 'active'));
      d.afterReset = stateOf(api, TOOL);
      return { pass: d.before.startsWith('active') && d.disabled && d.enabled, detail: d };
    },
  },
  {
    // The lm door reads no setting of its own: the registry's typed refusal (disabled) is what chat gets.
    name: 'settings.disabled_builtin_is_refused_through_lm',
    timeoutMs: 40000,
    run: async (ctx) => {
      const api = assertApi(ctx);
      const cfg = () => vscode.workspace.getConfiguration('workspaceTools');
      const name = lmNameFor(ctx, TOOL);
      const d = { tool: name };
      try {
        await cfg().update('disabledTools', [TOOL], vscode.ConfigurationTarget.Workspace);
        d.disabled = !!(await waitState(api, TOOL, 'disabled'));
        d.whileDisabled = await invoke(name, {});
      } finally {
        await cfg().update('disabledTools', undefined, vscode.ConfigurationTarget.Workspace);
      }
      d.enabled = !!(await waitState(api, TOOL, 'active'));
      d.afterEnable = await invoke(name, {});
      const refused = /disabled by the user/.test(d.whileDisabled.error || '');
      const ranAgain = !d.afterEnable.error && /\bmain\b/.test(d.afterEnable.text || '');
      return { pass: d.disabled && refused && d.enabled && ranAgain, detail: d };
    },
  },
];
