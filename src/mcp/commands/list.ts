/**
 * `list`: every tool with its source and state, then the plugin files' resources, as a table or
 * JSON; `--resources` lists only the resources; `--allowed-names` prints the served read-only
 * tools as Claude Code names them, for its `permissions.allow`.
 */
import type { PluginFileStatus, RegisteredPrompt, RegisteredTool, ToolState } from '../../core/registry/snapshot';
import { formatDiagnostic } from '../../core/types';
import type { ResourceInfo } from '../../core/resources/resource-catalog';
import { resourceInventory } from '../../core/resources/resource-catalog';
import { toolInfoOf } from '../../core/registry/tool-info';
import { readOnlyToolNames } from '../../core/client-config/claude-settings';
import type { CliCommand } from '../cli';
import { stderrLogger } from '../stderr-logger';
import { editorBridgeOfThisProcess } from '../editor-bridge';
import { displayPath, setUp } from './setup';
import type { SandboxView, ToolSandboxText } from '../../core/sandbox/tool-sandbox-text';
import { hiddenText, toolSandboxText } from '../../core/sandbox/tool-sandbox-text';
import { probedSandboxViewFor, sandboxViewFor } from './sandbox-view';

const STATE_WORDS: Readonly<Record<ToolState, string>> = {
  active: 'served',
  disabled: 'disabled',
  'pending-approval': 'awaiting approval',
};


/** Prints the tools; resolves to 0. */
export async function list(command: Extract<CliCommand, { command: 'list' }>): Promise<number> {
  const { options } = command;
  const logger = stderrLogger(options.logLevel === 'info' ? 'warn' : options.logLevel);
  const editor = await editorBridgeOfThisProcess('list', logger);
  const { registry, sandbox } = setUp(options, logger, undefined, editor.tools);
  await registry.initialize();
  const tools = registry.all();
  const resources = resourceInventory(registry.files());
  // Only what shows each tool's sandbox waits for the sandbox's probe.
  const view = command.resources || command.allowedNames !== undefined ? sandboxViewFor(options) : await probedSandboxViewFor(options, registry, sandbox);
  if (command.resources) {
    process.stdout.write(command.json ? `${JSON.stringify(resources, null, 2)}\n` : resourceTable(resources) || 'No resources.\n');
  } else if (command.allowedNames !== undefined) {
    process.stdout.write(readOnlyToolNames(command.allowedNames, registry.list()).map((name) => `${name}\n`).join(''));
  } else if (command.json) {
    const problems = registry.files().flatMap((file) => file.diagnostics).map((diagnostic) => ({ kind: 'problem', ...diagnostic }));
    const entries = [...tools.map((tool) => ({ kind: 'tool', ...toolInfoOf(tool), sandbox: sandboxInfoOf(toolSandboxText(tool.definition, view)) })), ...registry.allPrompts().map(promptInfoOf), ...problems];
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
  } else {
    const resourceRows = resourceTable(resources);
    process.stdout.write(`${table(tools, view)}${promptTable(registry.allPrompts())}${resourceRows === '' ? '' : `\nResources:\n${resourceRows}`}${problemLines(registry.files())}`);
    // Whether a VS Code window's editor tools are served, and if not why (docs/editor-bridge.md).
    process.stdout.write(`\nEditor tools: ${editor.status}\n`);
  }
  editor.connection?.close();
  registry.dispose();
  sandbox.dispose();
  return 0;
}

const RESOURCE_STATE_WORDS: Readonly<Record<ResourceInfo['state'], string>> = {
  served: 'served',
  'pending-approval': 'awaiting approval',
  duplicate: 'not served: duplicate URI',
};

/** One line per resource: its URI (or template), state, where it is defined, what it reads; '' for none. */
function resourceTable(resources: readonly ResourceInfo[]): string {
  const shortened = (text: string): string => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
  return aligned(resources.map((resource) => [resource.address, RESOURCE_STATE_WORDS[resource.state], `${displayPath(resource.source.file)}:${resource.source.line}:${resource.source.column}`, shortened(resource.reads)]));
}

/** Rows as columns padded to their widest cell (the last one not padded). */
function aligned(rows: readonly (readonly string[])[]): string {
  const columns = rows[0]?.length ?? 0;
  const widths = Array.from({ length: columns - 1 }, (_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows.map((row) => `${row.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column] ?? 0) : cell)).join('  ')}\n`).join('');
}

/**
 * One row per tool: name, state, its sandbox in a few words (`list --json` has every rule), where
 * it is defined; then, once, the paths every sandboxed tool is denied, and the mark when tools
 * run without the OS sandbox.
 */
function table(tools: readonly RegisteredTool[], view: SandboxView): string {
  if (tools.length === 0) {
    return 'No tools.\n';
  }
  const sandboxes = tools.map((tool) => toolSandboxText(tool.definition, view));
  const rows = tools.map((tool, index) => {
    const { source } = tool.definition;
    const where = source.kind === 'builtin' ? 'built-in' : `${displayPath(source.file)}:${source.line}:${source.column}`;
    // An imported task: where it is declared, then the import entry that serves it.
    const declared = source.kind === 'plugin' ? source.declared : undefined;
    return [tool.definition.name, STATE_WORDS[tool.state], sandboxes[index]?.compact ?? '', declared === undefined ? where : `${displayPath(declared.file)}:${declared.line}:${declared.column} (import at ${where})`];
  });
  return `${aligned(rows)}${sandboxFooter(sandboxes, view)}`;
}

/** What the sandbox column leaves out, said once: the hidden paths, and why tools are not sandboxed. */
function sandboxFooter(sandboxes: readonly ToolSandboxText[], view: SandboxView): string {
  const hidden = hiddenText(sandboxes);
  if (hidden === undefined) {
    return '';
  }
  if (view.notSandboxed !== undefined) {
    return `\nShell and imported tools run ${view.notSandboxed}. With the sandbox, they could not read: ${hidden}.\n`;
  }
  return `\nShell and imported tools run in the OS sandbox their tags choose, which hides: ${hidden}.\n`;
}

/** What `list --json` says about a tool's sandbox: its kind, every rule, and the policy (absolute paths) when it has one. */
function sandboxInfoOf(text: ToolSandboxText): Record<string, unknown> {
  return { kind: text.kind, lines: text.lines, ...(text.policy === undefined ? {} : { policy: text.policy }) };
}

/**
 * What did not load, last: a tool with a wrong field or a file that does not parse would
 * otherwise be missing from the list without a word.
 */
function problemLines(files: readonly PluginFileStatus[]): string {
  const problems = files.flatMap((file) => file.diagnostics);
  if (problems.length === 0) {
    return '';
  }
  const lines = problems.map((problem) => `  ${formatDiagnostic({ ...problem, file: displayPath(problem.file) })}\n`);
  return `\nProblems (these parts do not load; "check" explains each):\n${lines.join('')}`;
}

/** The prompts after the tools, under a heading; nothing when there are none. */
function promptTable(prompts: readonly RegisteredPrompt[]): string {
  if (prompts.length === 0) {
    return '';
  }
  const rows = prompts.map(({ definition, state }) => [definition.name, STATE_WORDS[state], `${displayPath(definition.source.file)}:${definition.source.line}:${definition.source.column}`]);
  return `\nPrompts:\n${aligned(rows)}`;
}

/** What `list --json` says about a prompt. */
function promptInfoOf({ definition, state }: RegisteredPrompt): Record<string, unknown> {
  const { source } = definition;
  return {
    kind: 'prompt',
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    ...(definition.description === undefined ? {} : { description: definition.description }),
    arguments: definition.arguments,
    state,
    source: { kind: 'plugin', pluginName: source.pluginName, file: source.file, line: source.line, column: source.column },
  };
}
