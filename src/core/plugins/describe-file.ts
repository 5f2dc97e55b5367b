/**
 * Words the tools view shows about plugin files and tools: what a file runs (asked before
 * approval), a tool's tooltip, counts and token totals, a run's result. Pure text building, so
 * the exact wording is tested in plain Node.
 */
import type { RegisteredTool } from '../registry/snapshot';
import type { JsonSchema, ToolResult } from '../types';
import { parseJsonc } from './parse-jsonc';

/** Lines of a `script` shown in the approval dialog before it points at the file instead. */
const MAX_SCRIPT_LINES = 30;

/** The question and the detail of the approval dialog. */
export interface ApprovalPrompt {
  readonly message: string;
  readonly detail: string;
}

/** What the approval prompt is about: a loaded file and the text whose hash it approves. */
export interface ApprovalSubject {
  readonly pluginName: string;
  /** The file as the user knows it (workspace-relative when possible). */
  readonly displayPath: string;
  /** The file's text, exactly the content that will be approved. */
  readonly text: string;
}

/**
 * The approval dialog: every tool of the file with exactly what it runs (argv, full script,
 * URL and headers, base path). Built from the file's own text rather than the loaded summaries,
 * so nothing the file can do is left out (a summary shows only a script's first line).
 */
export function describePluginFileForApproval(subject: ApprovalSubject): ApprovalPrompt {
  const parsed = parseJsonc(subject.text);
  const tools = parsed.ok ? toolSpecsOf(parsed.value) : [];
  const lines = tools.flatMap(describeToolSpec);
  const body = lines.length > 0 ? lines.join('\n') : '(no tools)';
  return {
    message: `Approve the tools of "${subject.pluginName}" (${subject.displayPath})?`,
    detail:
      `Once approved, chat and MCP clients can run these tools without asking again until the file changes ` +
      `(tools not tagged "read" still ask before each run).\n\n${body}`,
  };
}

type Spec = Readonly<Record<string, unknown>>;

function isSpec(value: unknown): value is Spec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toolSpecsOf(file: unknown): Spec[] {
  return isSpec(file) && Array.isArray(file.tools) ? file.tools.filter(isSpec) : [];
}

function describeToolSpec(tool: Spec, index: number): string[] {
  const name = typeof tool.name === 'string' ? tool.name : `tools[${index}]`;
  const tags = Array.isArray(tool.tags) ? ` [${tool.tags.map(String).join(', ')}]` : ' [no tags]';
  const handler = isSpec(tool.handler) ? tool.handler : {};
  return [`• ${name}${tags}`, ...describeHandler(handler).map((line) => `    ${line}`), ''];
}

function describeHandler(handler: Spec): string[] {
  switch (handler.type) {
    case 'shell':
      return describeShell(handler);
    case 'http': {
      const headers = isSpec(handler.headers) ? Object.entries(handler.headers).map(([key, value]) => `header ${key}: ${String(value)}`) : [];
      return [`http: ${typeof handler.method === 'string' ? handler.method : 'POST'} ${String(handler.url)}`, ...headers];
    }
    case 'file-read':
      return [`reads files under: ${typeof handler.basePath === 'string' ? handler.basePath : '.'} (in the workspace folder)`];
    default:
      return [`handler: ${JSON.stringify(handler)}`];
  }
}

function describeShell(handler: Spec): string[] {
  const lines = describeProgram(handler);
  for (const platform of ['windows', 'osx', 'linux'] as const) {
    const override = handler[platform];
    if (isSpec(override)) {
      lines.push(`on ${platform}:`, ...describeProgram(override).map((line) => `    ${line}`));
    }
  }
  if (typeof handler.cwd === 'string') {
    lines.push(`in: ${handler.cwd}`);
  }
  if (isSpec(handler.env)) {
    lines.push(`env: ${Object.entries(handler.env).map(([key, value]) => `${key}=${String(value)}`).join(' ')}`);
  }
  if (typeof handler.stdin === 'string') {
    lines.push(`stdin: ${handler.stdin}`);
  }
  return lines;
}

function describeProgram(program: Spec): string[] {
  if (typeof program.script === 'string') {
    const shell = typeof program.shell === 'string' ? program.shell : 'the default shell';
    const script = program.script.split(/\r?\n/);
    const shown = script.slice(0, MAX_SCRIPT_LINES).map((line) => `| ${line}`);
    const more = script.length > MAX_SCRIPT_LINES ? [`| … ${script.length - MAX_SCRIPT_LINES} more lines: read them in the file`] : [];
    const args = Array.isArray(program.args) ? [`args: ${formatArgs(program.args)}`] : [];
    return [`script run by ${shell}:`, ...shown, ...more, ...args];
  }
  if (Array.isArray(program.command)) {
    return [`runs: ${formatArgs(program.command)}`];
  }
  return typeof program.command === 'string' ? [`runs: ${program.command}`] : [];
}

function formatArgs(args: readonly unknown[]): string {
  return args.map((arg) => (typeof arg === 'string' && /^[^\s"'\\]+$/.test(arg) ? arg : JSON.stringify(arg))).join(' ');
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

/** A plugin file node's description: ".vscode/tools/build.json · 3 tools". */
export function fileDescription(displayPath: string, toolCount: number): string {
  return `${displayPath} · ${countOf(toolCount, 'tool')}`;
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

/** A tool item's tooltip (Markdown): what it runs, its parameters and its context cost. */
export function toolTooltipMarkdown(tool: RegisteredTool): string {
  const { definition } = tool;
  const source = definition.source.kind === 'builtin' ? 'built-in tool' : `from ${escapeMarkdown(definition.source.pluginName)}`;
  const tags = definition.tags.length > 0 ? definition.tags.join(', ') : 'none';
  const parts = [
    `**${escapeMarkdown(definition.name)}** · ${source}`,
    escapeMarkdown(definition.description),
    `**Runs**\n\n${codeBlock(definition.handlerSummary, 'text')}`,
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

/**
 * The document "Run Tool" opens: the input sent and the result, as Markdown source (read as
 * text in an editor, so nothing is escaped; tool names are plain by their pattern).
 */
export function formatRunResult(name: string, input: unknown, result: ToolResult, elapsedMs: number): string {
  const outcome = result.isError ? 'returned an error' : 'succeeded';
  return [
    `# ${name} ${outcome} (${Math.round(elapsedMs)} ms)`,
    `## Input\n\n${codeBlock(JSON.stringify(input, null, 2), 'json')}`,
    `## ${result.isError ? 'Error' : 'Result'}\n\n${codeBlock(result.text === '' ? '(no output)' : result.text, 'text')}`,
    '',
  ].join('\n\n');
}
