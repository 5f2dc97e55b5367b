/**
 * `list`: every tool with its source and state, as a table or JSON; `--allowed-names` prints the
 * served read-only tools as Claude Code names them, for its `permissions.allow`.
 */
import type { RegisteredPrompt, RegisteredTool, ToolState } from '../../core/registry/snapshot';
import { toolInfoOf } from '../../core/registry/tool-info';
import { readOnlyToolNames } from '../../core/client-config/claude-settings';
import type { CliCommand } from '../cli';
import { stderrLogger } from '../stderr-logger';
import { displayPath, setUp } from './setup';

const STATE_WORDS: Readonly<Record<ToolState, string>> = {
  active: 'served',
  disabled: 'disabled',
  'pending-approval': 'awaiting approval',
};


/** Prints the tools; resolves to 0. */
export async function list(command: Extract<CliCommand, { command: 'list' }>): Promise<number> {
  const { options } = command;
  const { registry } = setUp(options, stderrLogger(options.logLevel === 'info' ? 'warn' : options.logLevel));
  await registry.initialize();
  const tools = registry.all();
  if (command.allowedNames !== undefined) {
    process.stdout.write(readOnlyToolNames(command.allowedNames, registry.list()).map((name) => `${name}\n`).join(''));
  } else if (command.json) {
    const entries = [...tools.map((tool) => ({ kind: 'tool', ...toolInfoOf(tool) })), ...registry.allPrompts().map(promptInfoOf)];
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
  } else {
    process.stdout.write(table(tools));
    process.stdout.write(promptTable(registry.allPrompts()));
  }
  registry.dispose();
  return 0;
}

function table(tools: readonly RegisteredTool[]): string {
  if (tools.length === 0) {
    return 'No tools.\n';
  }
  return columns(
    tools.map((tool) => {
      const { source } = tool.definition;
      const where = source.kind === 'builtin' ? 'built-in' : `${displayPath(source.file)}:${source.line}:${source.column}`;
      return [tool.definition.name, STATE_WORDS[tool.state], where];
    }),
  );
}

/** The prompts after the tools, under a heading; nothing when there are none. */
function promptTable(prompts: readonly RegisteredPrompt[]): string {
  if (prompts.length === 0) {
    return '';
  }
  const rows = prompts.map(({ definition, state }) => [definition.name, STATE_WORDS[state], `${displayPath(definition.source.file)}:${definition.source.line}:${definition.source.column}`]);
  return `\nPrompts:\n${columns(rows)}`;
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

/** Rows as columns padded to their widest cell (the last column is not padded). */
function columns(rows: readonly (readonly string[])[]): string {
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows.map((row) => `${(row[0] ?? '').padEnd(widths[0] ?? 0)}  ${(row[1] ?? '').padEnd(widths[1] ?? 0)}  ${row[2] ?? ''}\n`).join('');
}
