import * as vscode from 'vscode';
import { countOf, fileDescription, promptTooltipMarkdown, toolTooltipMarkdown } from '../view-text/describe-file';
import type { McpServing } from '../view-text/mcp-server-text';
import { mcpServerRow } from '../view-text/mcp-server-text';
import type { PluginFileStatus, RegisteredPrompt, RegisteredTool } from '../../core/registry/snapshot';
import type { ResourceInfo } from '../../core/resources/resource-catalog';
import type { PluginDiagnostic, ToolTag } from '../../core/types';
import type { SandboxView } from '../../core/sandbox/tool-sandbox-text';
import { formatDiagnostic } from '../../core/types';
import type { RunningRow, ToolsNode } from './nodes';
import { runningRowText } from '../../core/running/running-calls';
import { awaitsApproval } from '../../core/registry/snapshot';
import { TOOLS_COMMANDS } from './nodes';

/** How a path is shown: relative to its workspace folder when it is inside one. */
export type DisplayPath = (file: string) => string;

/** The latest test run's counts for a tool, if its tests ran. */
export type TestSummaryOf = (tool: string) => { readonly passed: number; readonly failed: number } | undefined;

const DISABLED = new vscode.ThemeColor('disabledForeground');

/** The icon of a tool by what it does; the strongest tag wins. */
const TAG_ICONS: readonly (readonly [ToolTag, string])[] = [
  ['execute', 'terminal'],
  ['write', 'edit'],
  ['network', 'globe'],
  ['read', 'eye'],
];

/** The tree item of a node. Pure mapping: no UI calls, no I/O. */
export function toTreeItem(node: ToolsNode, displayPath: DisplayPath, testSummary: TestSummaryOf, sandboxView: SandboxView): vscode.TreeItem {
  switch (node.kind) {
    case 'runningGroup':
      return runningGroupItem(node.calls.length);
    case 'running':
      return runningItem(node.call);
    case 'restricted':
      return restrictedItem();
    case 'builtinGroup':
      return builtinGroupItem(node.tools);
    case 'editorGroup':
      return editorGroupItem(node.tools);
    case 'mcpServer':
      return mcpServerItem(node.serving);
    case 'file':
      return fileItem(node.file, displayPath);
    case 'tool':
      return toolItem(node.tool, testSummary(node.tool.definition.name), sandboxView);
    case 'importSource':
      return importSourceItem(node, displayPath);
    case 'resource':
      return resourceItem(node.resource);
    case 'prompt':
      return promptItem(node.prompt);
    case 'diagnostic':
      return diagnosticItem(node.diagnostic, node.index);
  }
}

function runningGroupItem(count: number): vscode.TreeItem {
  const item = new vscode.TreeItem('Running', vscode.TreeItemCollapsibleState.Expanded);
  item.id = 'running';
  item.description = countOf(count, 'call');
  item.iconPath = new vscode.ThemeIcon('loading~spin');
  item.tooltip = 'Tool calls in progress in this window: chat, Run Tool, terminal agents through the editor bridge, and the MCP server\'s calls and tasks.';
  item.contextValue = 'runningGroup';
  return item;
}

/** A call in progress; its inline Cancel stops it (and its process tree). */
function runningItem(call: RunningRow): vscode.TreeItem {
  const text = runningRowText(call, Date.now());
  const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
  item.id = `running:${call.source}:${call.id}`;
  item.description = text.description;
  item.tooltip = text.tooltip;
  item.iconPath = new vscode.ThemeIcon('sync~spin');
  item.contextValue = 'runningCall';
  return item;
}

function restrictedItem(): vscode.TreeItem {
  const item = new vscode.TreeItem('Restricted Mode: plugin tools are off', vscode.TreeItemCollapsibleState.None);
  item.id = 'restricted';
  item.iconPath = new vscode.ThemeIcon('workspace-untrusted', new vscode.ThemeColor('notificationsWarningIcon.foreground'));
  item.tooltip = new vscode.MarkdownString(
    'This workspace is not trusted, so no tool from its `.vscode/tools` is loaded or offered to chat: ' +
      'a plugin tool runs programs, and an untrusted repository could define any.\n\n' +
      'The read-only built-in tools still work. Click to manage Workspace Trust.',
  );
  item.contextValue = 'restrictedMode';
  item.command = { command: 'workbench.trust.manage', title: 'Manage Workspace Trust' };
  return item;
}

function builtinGroupItem(tools: readonly RegisteredTool[]): vscode.TreeItem {
  return toolGroupItem('Built-in', 'builtins', 'builtinGroup', tools, {
    expanded: true,
    icon: 'package',
    tooltip: 'Read-only git and workspace tools that come with the extension.',
  });
}

/**
 * The editor tools: collapsed, as they need nothing from the user (no file, no approval), so the
 * plugin files below stay in view.
 */
function editorGroupItem(tools: readonly RegisteredTool[]): vscode.TreeItem {
  return toolGroupItem('Editor', 'editorTools', 'editorGroup', tools, {
    expanded: false,
    icon: 'symbol-method',
    tooltip: "Read-only tools that ask this window's language services (problems, definitions, references, symbols, hovers, open editors): chat uses them here, and agents in the integrated terminal through the editor bridge.",
  });
}

/** A group of tools that come with the extension: its label, its tool count, what it holds. */
function toolGroupItem(label: string, id: string, contextValue: string, tools: readonly RegisteredTool[], look: { readonly expanded: boolean; readonly icon: string; readonly tooltip: string }): vscode.TreeItem {
  const item = new vscode.TreeItem(label, look.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
  item.id = id;
  item.description = countOf(tools.length, 'tool');
  item.iconPath = new vscode.ThemeIcon(look.icon);
  item.tooltip = look.tooltip;
  item.contextValue = contextValue;
  return item;
}

/** Which MCP server VS Code uses; a project file's opens at its entry when clicked. */
function mcpServerItem(serving: McpServing): vscode.TreeItem {
  const row = mcpServerRow(serving);
  const item = new vscode.TreeItem(row?.label ?? '', vscode.TreeItemCollapsibleState.None);
  item.id = 'mcpServer';
  item.description = row?.description;
  item.tooltip = row?.tooltip;
  item.iconPath = new vscode.ThemeIcon('server');
  item.contextValue = `mcpServer.${serving.kind}`;
  if (serving.kind === 'project') {
    item.command = openDefinition({ file: serving.absoluteFile, line: serving.server.line, column: serving.server.column });
  }
  return item;
}

function fileItem(file: PluginFileStatus, displayPath: DisplayPath): vscode.TreeItem {
  const pending = awaitsApproval(file);
  const problems = file.diagnostics.length;
  const item = new vscode.TreeItem(file.pluginName, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `file:${file.file}`;
  const state = [pending ? 'awaiting approval' : '', problems > 0 ? countOf(problems, 'problem') : ''].filter(Boolean);
  // State first: a narrow sidebar cuts the description from the right.
  item.description = [...state, fileDescription(displayPath(file.file), file.tools.length, { prompts: file.prompts.length, resources: file.loaded.resources?.length ?? 0 })].join(' · ');
  item.iconPath = pending
    ? new vscode.ThemeIcon('shield', new vscode.ThemeColor('notificationsWarningIcon.foreground'))
    : problems > 0
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
      : new vscode.ThemeIcon('json');
  item.tooltip = fileTooltip(file, displayPath(file.file), pending);
  item.contextValue = pending ? 'pluginFile.pending' : 'pluginFile';
  return item;
}

function fileTooltip(file: PluginFileStatus, shownPath: string, pending: boolean): vscode.MarkdownString {
  const lines = [`**${file.pluginName}** · \`${shownPath}\``, [countOf(file.tools.length, 'tool'), ...(file.prompts.length === 0 ? [] : [countOf(file.prompts.length, 'prompt')])].join(' · ')];
  if (pending) {
    lines.push('*Awaiting approval: this file is new or changed since you approved it, so none of its tools is served. Approve it to see what it runs and turn its tools on.*');
  }
  if (file.diagnostics.length > 0) {
    lines.push(`${countOf(file.diagnostics.length, 'problem')}: expand to see where.`);
  }
  return new vscode.MarkdownString(lines.join('\n\n'));
}

/** A source file of imported tasks (tasks.json, package.json, ...): its tools under it; a click opens the file. */
function importSourceItem(node: Extract<ToolsNode, { kind: 'importSource' }>, displayPath: DisplayPath): vscode.TreeItem {
  const shown = displayPath(node.source);
  const item = new vscode.TreeItem(shown, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `import:${node.pluginFile}:${node.source}`;
  item.description = `imported · ${countOf(node.tools.length, 'tool')}`;
  item.iconPath = new vscode.ThemeIcon('tasklist');
  item.tooltip = new vscode.MarkdownString(`Tasks declared in \`${shown}\`, served as tools by this file's \`import\` section. Editing \`${shown}\` puts them back to waiting for approval.`);
  item.contextValue = 'importSource';
  item.command = { command: 'vscode.open', title: 'Open Source File', arguments: [vscode.Uri.file(node.source)] };
  return item;
}

function toolItem(tool: RegisteredTool, tests: ReturnType<TestSummaryOf>, sandboxView: SandboxView): vscode.TreeItem {
  const { definition, state } = tool;
  const item = new vscode.TreeItem(definition.name, vscode.TreeItemCollapsibleState.None);
  item.id = `tool:${definition.name}`;
  const note = state === 'disabled' ? '(disabled) ' : state === 'pending-approval' ? '(awaiting approval) ' : '';
  const tested = tests === undefined ? '' : tests.failed > 0 ? `✗ ${tests.failed} of ${tests.passed + tests.failed} tests failed · ` : `✓ ${countOf(tests.passed, 'test')} passed · `;
  item.description = `${note}${tested}${firstSentence(definition.description)}`;
  const iconId = TAG_ICONS.find(([tag]) => definition.tags.includes(tag))?.[1] ?? 'tools';
  item.iconPath = new vscode.ThemeIcon(iconId, state === 'active' ? undefined : DISABLED);
  item.tooltip = new vscode.MarkdownString(toolTooltipMarkdown(tool, sandboxView));
  const kind = definition.source.kind === 'builtin' ? 'builtinTool' : 'pluginTool';
  // `.tested`: the tool declares tests (the Run Tests action).
  item.contextValue = `${kind}.${state === 'pending-approval' ? 'pending' : state}${(definition.tests?.length ?? 0) > 0 ? '.tested' : ''}`;
  if (definition.source.kind === 'plugin') {
    item.command = { command: TOOLS_COMMANDS.openDefinition, title: 'Open Definition', arguments: [{ kind: 'tool', tool }] };
  }
  return item;
}

const RESOURCE_NOTES: Readonly<Record<ResourceInfo['state'], string>> = {
  served: '',
  'pending-approval': '(awaiting approval) ',
  duplicate: '(not served: duplicate URI) ',
};

/** A plugin resource: its URI (or template), state and what it reads; click to open its definition. */
function resourceItem(resource: ResourceInfo): vscode.TreeItem {
  const item = new vscode.TreeItem(resource.address, vscode.TreeItemCollapsibleState.None);
  item.id = `resource:${resource.source.file}:${resource.source.line}:${resource.source.column}`;
  item.description = `${RESOURCE_NOTES[resource.state]}${resource.reads}`;
  item.iconPath = new vscode.ThemeIcon('book', resource.state === 'served' ? undefined : DISABLED);
  const lines = [`**${resource.title ?? resource.name}** · \`${resource.address}\``, resource.reads];
  if (resource.description !== undefined) {
    lines.push(resource.description);
  }
  if (resource.state === 'pending-approval') {
    lines.push('*Awaiting approval: MCP clients cannot list or read it until its file is approved.*');
  }
  item.tooltip = new vscode.MarkdownString(lines.join('\n\n'));
  item.contextValue = `pluginResource.${resource.state === 'pending-approval' ? 'pending' : resource.state}`;
  item.command = openDefinition(resource.source);
  return item;
}

/** A prompt of a plugin file: served once its file is approved; clicking opens its definition. */
function promptItem(prompt: RegisteredPrompt): vscode.TreeItem {
  const { definition, state } = prompt;
  const item = new vscode.TreeItem(definition.name, vscode.TreeItemCollapsibleState.None);
  item.id = `prompt:${definition.name}`;
  const note = state === 'pending-approval' ? '(awaiting approval) ' : '';
  item.description = `${note}prompt${definition.description === undefined ? '' : ` · ${firstSentence(definition.description)}`}`;
  item.iconPath = new vscode.ThemeIcon('comment-discussion', state === 'active' ? undefined : DISABLED);
  item.tooltip = new vscode.MarkdownString(promptTooltipMarkdown(definition));
  item.contextValue = `pluginPrompt.${state === 'pending-approval' ? 'pending' : state}`;
  item.command = openDefinition(definition.source);
  return item;
}

/** The command that opens a definition's file at its line:column (a click on the item). */
function openDefinition(place: { readonly file: string; readonly line: number; readonly column: number }): vscode.Command {
  const position = new vscode.Position(Math.max(0, place.line - 1), Math.max(0, place.column - 1));
  const options: vscode.TextDocumentShowOptions = { selection: new vscode.Range(position, position), preview: true };
  return { command: 'vscode.open', title: 'Open Definition', arguments: [vscode.Uri.file(place.file), options] };
}

function diagnosticItem(diagnostic: PluginDiagnostic, index: number): vscode.TreeItem {
  const item = new vscode.TreeItem(`${diagnostic.line}:${diagnostic.column}`, vscode.TreeItemCollapsibleState.None);
  item.id = `diagnostic:${diagnostic.file}:${index}`;
  const subject = diagnostic.prompt === undefined ? diagnostic.tool : `prompt ${diagnostic.prompt}`;
  item.description = subject === undefined ? diagnostic.message : `${subject}: ${diagnostic.message}`;
  item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
  item.tooltip = formatDiagnostic(diagnostic);
  item.contextValue = 'pluginDiagnostic';
  item.command = { ...openDefinition(diagnostic), title: 'Go to Problem' };
  return item;
}

/** The first sentence of a description: the tree shows one line; the tooltip has it all. */
function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/.exec(text.trim());
  return match?.[1] ?? text.trim();
}
