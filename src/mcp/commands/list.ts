/**
 * `list`: every tool with its source and state, as a table or JSON; `--allowed-names` prints the
 * served read-only tools as Claude Code names them, for its `permissions.allow`.
 */
import type { RegisteredTool, ToolState } from '../../core/registry/snapshot';
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
    process.stdout.write(`${JSON.stringify(tools.map(toolInfoOf), null, 2)}\n`);
  } else {
    process.stdout.write(table(tools));
  }
  registry.dispose();
  return 0;
}

function table(tools: readonly RegisteredTool[]): string {
  if (tools.length === 0) {
    return 'No tools.\n';
  }
  const rows = tools.map((tool) => {
    const { source } = tool.definition;
    const where = source.kind === 'builtin' ? 'built-in' : `${displayPath(source.file)}:${source.line}:${source.column}`;
    return [tool.definition.name, STATE_WORDS[tool.state], where];
  });
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows.map((row) => `${(row[0] ?? '').padEnd(widths[0] ?? 0)}  ${(row[1] ?? '').padEnd(widths[1] ?? 0)}  ${row[2] ?? ''}\n`).join('');
}
