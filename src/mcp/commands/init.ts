/**
 * `init --claude`: sets up Claude Code for the first workspace folder in one step: this server in
 * `.mcp.json`, and the served read-only tools in `.claude/settings.json` `permissions.allow`.
 * Both files are merged, never rewritten; one that does not parse is left alone.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { CLAUDE_SETTINGS_FILE, mergeAllowedTools, readOnlyToolNames } from '../../core/client-config/claude-settings';
import type { MergeOutcome } from '../../core/client-config/mcp-json';
import { MCP_JSON_FILE, claudeServerEntry, mergeMcpJson } from '../../core/client-config/mcp-json';
import type { CliCommand } from '../cli';
import { stderrLogger } from '../stderr-logger';
import { displayPath, setUp } from './setup';

/** Writes both files; resolves to 0, or 1 when a file was left alone because it does not parse. */
export async function init(command: Extract<CliCommand, { command: 'init' }>, scriptPath: string): Promise<number> {
  const { options, serverName } = command;
  const { registry, folders, storePath } = setUp(options, stderrLogger(options.logLevel === 'info' ? 'warn' : options.logLevel));
  const folder = folders[0];
  if (folder === undefined) {
    return 1;
  }
  await registry.initialize();
  const names = readOnlyToolNames(serverName, registry.list());
  registry.dispose();
  const mcpJson = path.join(folder.path, MCP_JSON_FILE);
  const settings = path.join(folder.path, CLAUDE_SETTINGS_FILE);
  const wrote = [
    await mergeFile(mcpJson, (text) => mergeMcpJson(text, serverName, claudeServerEntry(path.resolve(scriptPath)))),
    await mergeFile(settings, (text) => mergeAllowedTools(text, names)),
  ];
  process.stdout.write(
    [
      '',
      `Claude Code starts "${serverName}" from ${displayPath(mcpJson)} in this project, and runs its ${names.length} read-only tools without asking (${displayPath(settings)}).`,
      'How approval works there: Claude Code starts a new server every session, and that server serves a plugin file',
      'from .vscode/tools only once you have approved its exact content, here or in VS Code\'s Workspace Tools view.',
      'A file that an agent writes or changes waits, and the server prints the command that approves it. To review and approve:',
      `  node ${displayPath(scriptPath)} approve --workspace ${displayPath(folder.path)}`,
      `Approvals are kept in ${storePath}.`,
      '',
    ].join('\n'),
  );
  return wrote.every(Boolean) ? 0 : 1;
}

/** Merges into one file and says what happened; false when the file was left alone. */
async function mergeFile(file: string, merge: (existing: string | undefined) => MergeOutcome): Promise<boolean> {
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') {
      return undefined;
    }
    throw error;
  });
  const outcome = merge(existing);
  if (!outcome.ok) {
    process.stderr.write(`${displayPath(file)}:${outcome.line}:${outcome.column}: ${outcome.message}; the file was left unchanged: fix it and run init again.\n`);
    return false;
  }
  if (outcome.changed) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, outcome.text, 'utf8');
  }
  process.stdout.write(`${outcome.changed ? (existing === undefined ? 'Created' : 'Updated') : 'Already up to date'}: ${displayPath(file)}\n`);
  return true;
}
