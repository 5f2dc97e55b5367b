/**
 * Words the tools view shows about plugin files and tools: what a file runs (asked before
 * approval), a tool's tooltip, counts and token totals. Pure text building (no
 * `vscode` import), so the exact wording is tested in plain Node.
 */
import { approvalQuestion } from '../../core/approval/approval-question';
import { APPROVAL_MEANING, approvalLines } from '../../core/approval/approval-text';
import type { RegisteredTool } from '../../core/registry/snapshot';
import type { ApprovalSubject } from '../../core/approval/approval-subject';
import type { JsonSchema } from '../../core/types';
import type { PromptDefinition } from '../../core/prompts';
import type { SandboxView } from '../../core/sandbox/tool-sandbox-text';
import { toolSandboxText } from '../../core/sandbox/tool-sandbox-text';

/** The question and the detail of the approval dialog. */
export interface ApprovalPrompt {
  readonly message: string;
  readonly detail: string;
}

/**
 * The approval dialog: every tool of the file with its effective tags, exactly what it runs
 * (argv, full script, URL and headers, base path) and its sandbox, from the compiled tools.
 */
export function approvalPrompt(subject: ApprovalSubject, displayPath: string, sandboxView: SandboxView): ApprovalPrompt {
  return {
    message: approvalQuestion(subject, displayPath),
    detail: `${APPROVAL_MEANING}\n\n${approvalLines(subject, sandboxView).join('\n')}`,
  };
}

/** "~850" or "~2.1k": token counts are estimates and shown as such. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) {
    return `~${tokens}`;
  }
  return `~${(tokens / 1000).toFixed(1).replace(/\.0$/, '')}k`;
}

/** "1 tool", "3 tools". */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** The view's description: the tools served and what they cost in context, "9 tools · ~2.1k tokens". */
export function servedSummary(tools: readonly Pick<RegisteredTool, 'state' | 'tokenEstimate'>[]): string {
  const active = tools.filter((tool) => tool.state === 'active');
  const tokens = active.reduce((sum, tool) => sum + tool.tokenEstimate, 0);
  return `${countOf(active.length, 'tool')} · ${formatTokens(tokens)} tokens`;
}

/**
 * A plugin file node's description: ".vscode/tools/build.json · 3 tools", then " · 1 prompt" and
 * " · 2 resources" when it has any.
 */
export function fileDescription(displayPath: string, toolCount: number, more: { readonly prompts?: number; readonly resources?: number } = {}): string {
  const extra = [more.prompts ?? 0, more.resources ?? 0].map((count, index) => (count === 0 ? '' : ` · ${countOf(count, index === 0 ? 'prompt' : 'resource')}`));
  return `${displayPath} · ${countOf(toolCount, 'tool')}${extra.join('')}`;
}

/** A prompt's tooltip: its title and description, and each argument with what completes it. */
export function promptTooltipMarkdown(prompt: PromptDefinition): string {
  const heading = `**${escapeMarkdown(prompt.title ?? prompt.name)}** · prompt`;
  const args = prompt.arguments.map((argument) => {
    const from = argument.enum !== undefined ? ` (one of: ${argument.enum.map(escapeMarkdown).join(', ')})` : '';
    return `- \`${argument.name}\`${argument.required ? ' (required)' : ''}${from}${argument.description === undefined ? '' : `: ${escapeMarkdown(argument.description)}`}`;
  });
  return [heading, ...(prompt.description === undefined ? [] : [escapeMarkdown(prompt.description)]), ...(args.length === 0 ? [] : [`Arguments:\n\n${args.join('\n')}`])].join('\n\n');
}

/** Escapes text for Markdown so a description cannot format or link anything. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}

/** A fenced code block whose fence is longer than any backtick run inside. */
export function codeBlock(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

const STATE_NOTES: Readonly<Record<RegisteredTool['state'], string>> = {
  active: '',
  disabled: '*Disabled: not offered to chat or MCP clients.*',
  'pending-approval': '*Awaiting approval: its plugin file is new or changed. Approve the file to serve it.*',
};

/** A tool item's tooltip (Markdown): what it runs, its sandbox, its parameters and its context cost. */
export function toolTooltipMarkdown(tool: RegisteredTool, sandboxView: SandboxView): string {
  const { definition } = tool;
  const source = definition.source.kind === 'builtin' ? 'built-in tool' : `from ${escapeMarkdown(definition.source.pluginName)}`;
  const tags = definition.tags.length > 0 ? definition.tags.join(', ') : 'none';
  const parts = [
    `**${escapeMarkdown(definition.name)}** · ${source}`,
    escapeMarkdown(definition.description),
    `**Runs**\n\n${codeBlock(definition.handlerSummary, 'text')}`,
    `**Sandbox**\n\n${toolSandboxText(definition, sandboxView).lines.map((line) => `- ${escapeMarkdown(line)}`).join('\n')}`,
    `**Parameters**\n\n${parametersMarkdown(definition.inputSchema.properties ?? {}, definition.inputSchema.required ?? [])}`,
    `Tags: ${escapeMarkdown(tags)} · ${formatTokens(tool.tokenEstimate)} tokens of context`,
    STATE_NOTES[tool.state],
  ];
  return parts.filter((part) => part !== '').join('\n\n');
}

function parametersMarkdown(properties: Readonly<Record<string, JsonSchema>>, required: readonly string[]): string {
  const entries = Object.entries(properties);
  if (entries.length === 0) {
    return '*None.*';
  }
  return entries.map(([name, schema]) => parameterLine(name, schema, required.includes(name))).join('\n');
}

function parameterLine(name: string, schema: JsonSchema, required: boolean): string {
  const spec = typeof schema === 'object' ? schema : {};
  const type = Array.isArray(spec.type) ? spec.type.join(' | ') : typeof spec.type === 'string' ? spec.type : 'any';
  const facts = [`*${escapeMarkdown(type)}*`, required ? 'required' : 'optional'];
  if ('default' in spec) {
    facts.push(`default \`${JSON.stringify(spec.default).replace(/`/g, "'")}\``);
  }
  const description = typeof spec.description === 'string' ? ` — ${escapeMarkdown(spec.description)}` : '';
  return `- \`${name}\` ${facts.join(', ')}${description}`;
}
