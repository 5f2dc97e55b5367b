import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { LogLevel } from './stderr-logger';
import { LOG_LEVELS } from './stderr-logger';

/** The standalone server's settings, from its command line. */
export interface ServerCliOptions {
  readonly workspaces: readonly string[];
  readonly pluginDirectories: readonly string[];
  readonly builtins: boolean;
  readonly plugins: boolean;
  /** Approval store to honour (the extension passes its own); absent: start-up snapshot. */
  readonly approvalsFile?: string;
  /** Serve files written or changed while running, without approval. */
  readonly approveChanges: boolean;
  readonly disabledTools: readonly string[];
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  readonly logLevel: LogLevel;
  readonly watch: boolean;
}

/** What the command line asks for: serve, print help or version, or refuse with a reason. */
export type CliOutcome =
  | { readonly kind: 'run'; readonly options: ServerCliOptions }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'error'; readonly message: string };

/** `--help` text, also printed after a command-line error. */
export const USAGE = `Usage: workspace-tools-mcp [options]

An MCP server (stdio) with workspace tools: built-in git and workspace tools, and the
tools defined in <workspace>/.vscode/tools/*.json.

Options:
  --workspace DIR     workspace folder (repeatable; default: the current directory)
  --plugins DIR       extra plugin directory (repeatable; tools run in the first workspace)
  --no-builtins       do not serve the built-in tools
  --no-plugins        do not load plugin files at all
  --approvals FILE    approval store: serve only plugin files whose content it approves
  --approve-changes   serve plugin files written or changed while running, unapproved
                      (default: files present at start are approved for this run; later
                      changes wait until the server is restarted)
  --disable NAME      do not serve this tool (repeatable)
  --timeout MS        default timeout of shell tools and git (default 30000)
  --max-output BYTES  cap on captured stdout/stderr of a tool (default 1048576)
  --no-watch          do not watch plugin directories for changes
  --log-level LEVEL   trace|debug|info|warn|error|off (default info); logs go to stderr
  --help              show this help
  --version           show the version
`;

/** Parses argv (without node and the script). Never exits: the caller decides. */
export function parseCli(argv: readonly string[], cwd: string): CliOutcome {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        workspace: { type: 'string', multiple: true },
        plugins: { type: 'string', multiple: true },
        'no-builtins': { type: 'boolean' },
        'no-plugins': { type: 'boolean' },
        approvals: { type: 'string' },
        'approve-changes': { type: 'boolean' },
        disable: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        'max-output': { type: 'string' },
        'no-watch': { type: 'boolean' },
        'log-level': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help === true) {
    return { kind: 'help' };
  }
  if (values.version === true) {
    return { kind: 'version' };
  }
  const logLevel = (values['log-level'] ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    return { kind: 'error', message: `--log-level must be one of ${LOG_LEVELS.join(', ')}` };
  }
  const timeoutMs = positiveInteger(values.timeout, '--timeout');
  const maxOutputBytes = positiveInteger(values['max-output'], '--max-output');
  for (const parsed of [timeoutMs, maxOutputBytes]) {
    if (typeof parsed === 'string') {
      return { kind: 'error', message: parsed };
    }
  }
  const workspaces = (values.workspace ?? [cwd]).map((dir) => path.resolve(cwd, dir));
  return {
    kind: 'run',
    options: {
      workspaces,
      pluginDirectories: (values.plugins ?? []).map((dir) => path.resolve(cwd, dir)),
      builtins: values['no-builtins'] !== true,
      plugins: values['no-plugins'] !== true,
      ...(values.approvals === undefined ? {} : { approvalsFile: path.resolve(cwd, values.approvals) }),
      approveChanges: values['approve-changes'] === true,
      disabledTools: values.disable ?? [],
      ...(typeof timeoutMs === 'number' ? { timeoutMs } : {}),
      ...(typeof maxOutputBytes === 'number' ? { maxOutputBytes } : {}),
      logLevel,
      watch: values['no-watch'] !== true,
    },
  };
}

/** A positive integer, undefined when absent, or an error message. */
function positiveInteger(raw: string | undefined, flag: string): number | string | undefined {
  if (raw === undefined) {
    return undefined;
  }
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 ? value : `${flag} needs a positive whole number, got "${raw}"`;
}
