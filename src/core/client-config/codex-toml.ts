/**
 * Codex CLI's `.codex/config.toml` (`[mcp_servers.<name>]`, read in a trusted project): our table
 * is added or updated in place. Other tables, keys the user added to ours (`env`,
 * `startup_timeout_sec`, ...), comments and formatting survive (@decimalturn/toml-patch edits the
 * document, it does not rewrite it), and a file that does not parse is never overwritten.
 */
import type * as TomlPatch from '@decimalturn/toml-patch' with { 'resolution-mode': 'import' };
import { requireBundled } from '../bundled-module';
import type { MergeOutcome } from './mcp-json';

/** The file, relative to the project's root folder. */
export const CODEX_CONFIG_FILE = '.codex/config.toml';

/** A stdio server as Codex's `[mcp_servers.<name>]` table has it. */
export interface CodexServer {
  readonly command: string;
  readonly args: readonly string[];
}

type TomlModule = typeof TomlPatch;

/**
 * The TOML library: from its own file beside the bundle (esbuild.mjs), so the server's start-up
 * does not parse it (only `init` needs it); from node_modules when running from the sources.
 */
function toml(): TomlModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return requireBundled<TomlModule>('toml-patch.js', () => require('@decimalturn/toml-patch') as TomlModule);
}

/** A TOML document's value (throws toml-patch's error, with its line and column). */
export function parseToml(text: string): Record<string, unknown> {
  return toml().parse(text) as Record<string, unknown>;
}

/** Adds or updates `[mcp_servers.<name>]` in the text of an existing file (undefined: no file). */
export function mergeCodexToml(existing: string | undefined, name: string, server: CodexServer): MergeOutcome {
  if (existing === undefined || existing.trim() === '') {
    return { ok: true, text: tableText(name, server, '\n'), changed: true };
  }
  const { parse, patch } = toml();
  let document: Record<string, unknown>;
  try {
    document = parse(existing) as Record<string, unknown>;
  } catch (error) {
    return parseRefusal(error);
  }
  const servers = document['mcp_servers'];
  if (servers !== undefined && !isTable(servers)) {
    return { ok: false, ...lineOfKey(existing, 'mcp_servers'), message: '"mcp_servers" must be a table' };
  }
  const current = servers?.[name];
  if (current !== undefined && !isTable(current)) {
    return { ok: false, ...lineOfKey(existing, name), message: `"mcp_servers.${name}" must be a table` };
  }
  if (current !== undefined && sameServer(current, server)) {
    return { ok: true, text: existing, changed: false };
  }
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  // A new table goes at the end as Codex documents it ([mcp_servers.<name>]); toml-patch would add
  // it as an inline table. Appending a header is only wrong when `mcp_servers` is an inline table.
  if (current === undefined) {
    const appended = `${existing}${existing.endsWith('\n') ? '' : eol}${eol}${tableText(name, server, eol)}`;
    if (parsesWith(appended, name, server)) {
      return { ok: true, text: appended, changed: true };
    }
  }
  const updated = { ...document, mcp_servers: { ...servers, [name]: { ...current, command: server.command, args: [...server.args] } } };
  const text = patch(existing, updated);
  if (!parsesWith(text, name, server)) {
    return { ok: false, line: 1, column: 1, message: `the file could not be edited without changing more than [mcp_servers.${name}]` };
  }
  return { ok: true, text, changed: true };
}

/** Our table as Codex's documentation writes one. */
function tableText(name: string, server: CodexServer, eol: string): string {
  const header = /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
  return [`[mcp_servers.${header}]`, `command = ${JSON.stringify(server.command)}`, `args = [${server.args.map((arg) => JSON.stringify(arg)).join(', ')}]`, ''].join(eol);
}

/** Whether `text` parses and holds exactly our command and arguments for `name`. */
function parsesWith(text: string, name: string, server: CodexServer): boolean {
  try {
    const servers = (toml().parse(text) as { mcp_servers?: Record<string, unknown> }).mcp_servers;
    const table = servers?.[name];
    return isTable(table) && sameServer(table, server);
  } catch {
    return false;
  }
}

function sameServer(table: Record<string, unknown>, server: CodexServer): boolean {
  return table['command'] === server.command && JSON.stringify(table['args']) === JSON.stringify(server.args);
}

/** toml-patch's error (`Error parsing TOML (line, column): ...`, column 0-based) as a refusal. */
function parseRefusal(error: unknown): MergeOutcome {
  const { line, column, message } = error as { line?: unknown; column?: unknown; message?: unknown };
  const said = typeof message === 'string' ? (message.split('\n').pop() ?? message) : String(error);
  return { ok: false, line: typeof line === 'number' ? line : 1, column: typeof column === 'number' ? column + 1 : 1, message: said };
}

/** Where `key` is first written (a header or an assignment), for a refusal's position. */
function lineOfKey(text: string, key: string): { line: number; column: number } {
  const index = text.split(/\r?\n/).findIndex((line) => line.includes(key));
  return { line: index === -1 ? 1 : index + 1, column: 1 };
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
