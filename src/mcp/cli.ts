/**
 * The command line of `dist/mcp-server.js`: a subcommand (none means `serve`, so every existing
 * client configuration keeps working) and its options. Parsing only; never exits or prints.
 */
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { ClientId } from '../core/client-config/clients';
import { CLIENT_IDS, clientTarget } from '../core/client-config/clients';
import type { ServerConfig } from '../core/settings/server-config';
import { SERVER_CONFIG_OPTIONS, serverConfigFromArgv } from '../core/settings/server-config';
import { sessionFolderOf } from '../core/paths/work-tree';
import { parseArgsProblem, suggestion } from './cli-mistakes';
import { COMMANDS } from './usage';
import type { CommandName } from './usage';

export type { CommandName } from './usage';
export { USAGE, commandUsage } from './usage';

/** A parsed command line: which subcommand, the shared options and the subcommand's own. */
export type CliCommand =
  | { readonly command: 'serve'; readonly options: ServerConfig }
  | { readonly command: 'approve'; readonly options: ServerConfig; readonly files: readonly string[]; readonly yes: boolean; readonly list: boolean }
  | { readonly command: 'check'; readonly options: ServerConfig }
  | { readonly command: 'list'; readonly options: ServerConfig; readonly json: boolean; readonly resources: boolean; readonly allowedNames?: string }
  | { readonly command: 'read'; readonly options: ServerConfig; readonly uri: string }
  | { readonly command: 'call'; readonly options: ServerConfig; readonly tool: string; readonly input?: string; readonly dryRun: boolean; readonly json: boolean }
  | { readonly command: 'prompt'; readonly options: ServerConfig; readonly prompt: string; readonly args: Readonly<Record<string, string>>; readonly json: boolean }
  | {
      readonly command: 'init';
      readonly options: ServerConfig;
      readonly clients: readonly ClientId[];
      readonly serverName: string;
      readonly local: boolean;
      readonly workspaceGiven: boolean;
      /** `--user`: the agents' user-level files instead of the project's. */
      readonly user: boolean;
      /** `--list`: only say which agents init knows. */
      readonly listAgents: boolean;
    }
  | { readonly command: 'test'; readonly options: ServerConfig; readonly tools: readonly string[] }
  | { readonly command: 'history'; readonly options: ServerConfig; readonly json: boolean; readonly limit: number };

/** What the command line asks for: run a subcommand, print help or version, or refuse with a reason. */
export type CliOutcome =
  | ({ readonly kind: 'run' } & CliCommand)
  | { readonly kind: 'help'; readonly command?: CommandName }
  | { readonly kind: 'version' }
  | { readonly kind: 'error'; readonly message: string; readonly command?: CommandName };

/** The server name Claude Code knows us by, and the default of `--allowed-names`. */
export const DEFAULT_SERVER_NAME = 'workspace-tools';

const SHARED_OPTIONS = {
  ...SERVER_CONFIG_OPTIONS,
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  list: { type: 'boolean' },
  json: { type: 'boolean' },
  'allowed-names': { type: 'string' },
  claude: { type: 'boolean' },
  vscode: { type: 'boolean' },
  copilot: { type: 'boolean' },
  cursor: { type: 'boolean' },
  codex: { type: 'boolean' },
  gemini: { type: 'boolean' },
  zed: { type: 'boolean' },
  all: { type: 'boolean' },
  user: { type: 'boolean' },
  local: { type: 'boolean' },
  'server-name': { type: 'string' },
  limit: { type: 'string' },
  'dry-run': { type: 'boolean' },
  resources: { type: 'boolean' },
  arg: { type: 'string', multiple: true },
} as const;

/** Options that only some subcommands take. */
const OWN_OPTIONS: Readonly<Record<string, readonly CommandName[]>> = {
  yes: ['approve'],
  list: ['approve', 'init'],
  json: ['list', 'history', 'call', 'prompt'],
  arg: ['prompt'],
  limit: ['history'],
  'dry-run': ['call'],
  'allowed-names': ['list'],
  resources: ['list'],
  ...Object.fromEntries(CLIENT_IDS.map((id) => [id, ['init']])),
  all: ['init'],
  user: ['init'],
  local: ['init'],
  'server-name': ['init'],
  'no-watch': ['serve'],
  'max-tasks': ['serve'],
  'task-ttl': ['serve'],
  'running-file': ['serve'],
  settings: ['serve', 'list', 'call', 'prompt', 'test', 'read'],
};

type Values = ReturnType<typeof parseShared>['values'];

function parseShared(args: string[]) {
  return parseArgs({ args, strict: true, allowPositionals: true, options: SHARED_OPTIONS });
}

/** Parses argv (without node and the script). */
export function parseCli(argv: readonly string[], cwd: string): CliOutcome {
  const first = argv[0];
  const named = first !== undefined && (COMMANDS as readonly string[]).includes(first);
  if (!named && first !== undefined && !first.startsWith('-')) {
    // A word where the command goes is a mistyped command far more often than a stray argument.
    return { kind: 'error', message: `unknown command "${first}"${suggestion(first, COMMANDS)}` };
  }
  const command: CommandName = named ? (first as CommandName) : 'serve';
  let parsed: ReturnType<typeof parseShared>;
  try {
    parsed = parseShared(withAllowedNamesValue(named ? argv.slice(1) : [...argv]));
  } catch (error) {
    return { kind: 'error', command, message: parseArgsProblem(error, Object.keys(SHARED_OPTIONS), command) };
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    return { kind: 'help', ...(named ? { command } : {}) };
  }
  if (values.version === true) {
    return { kind: 'version' };
  }
  const misplaced = Object.keys(OWN_OPTIONS).find((key) => values[key as keyof Values] !== undefined && !OWN_OPTIONS[key]?.includes(command));
  if (misplaced !== undefined) {
    return { kind: 'error', command, message: `--${misplaced} is an option of "${OWN_OPTIONS[misplaced]?.join('", "')}", not of "${command}"` };
  }
  const options = serverConfigFromArgv(values, cwd);
  if (typeof options === 'string') {
    return { kind: 'error', command, message: options };
  }
  // init names where to write: its folder is taken as given (it finds the repository root itself).
  return commandOutcome(command, command === 'init' ? options : withSessionFolders(options, values.workspace), values, positionals, cwd);
}

/**
 * `--workspace .` (and no `--workspace`) name the folder the process started in, which a client
 * picks: the session's. Inside a git work tree without plugin files of its own, that is the work
 * tree's root (core/paths/work-tree.ts sessionFolderOf), so a server started in a subfolder or a
 * linked worktree serves that checkout. Any other folder named is served as it is.
 */
function withSessionFolders(options: ServerConfig, given: readonly string[] | undefined): ServerConfig {
  const here = (dir: string | undefined): boolean => dir === undefined || /^\.[\\/]?$/.test(dir);
  const workspaces = options.workspaces.map((folder, index) => (here(given?.[index]) ? sessionFolderOf(folder) : folder));
  return { ...options, workspaces };
}

function commandOutcome(command: CommandName, options: ServerConfig, values: Values, positionals: readonly string[], cwd: string): CliOutcome {
  const extra = (max: number): CliOutcome | undefined =>
    positionals.length > max ? { kind: 'error', command, message: `unexpected argument "${positionals[max] ?? ''}" (see ${command} --help)` } : undefined;
  switch (command) {
    case 'serve':
    case 'check':
      return extra(0) ?? { kind: 'run', command, options };
    case 'approve':
      return { kind: 'run', command, options, files: positionals.map((file) => path.resolve(cwd, file)), yes: values.yes === true, list: values.list === true };
    case 'list':
      return extra(0) ?? { kind: 'run', command, options, json: values.json === true, resources: values.resources === true, ...(values['allowed-names'] === undefined ? {} : { allowedNames: values['allowed-names'] || DEFAULT_SERVER_NAME }) };
    case 'read': {
      const uri = positionals[0];
      if (uri === undefined) {
        return { kind: 'error', command, message: 'read needs the URI of a resource: read URI (list --resources shows them)' };
      }
      return extra(1) ?? { kind: 'run', command, options, uri };
    }
    case 'call': {
      const tool = positionals[0];
      if (tool === undefined) {
        return { kind: 'error', command, message: 'call needs the name of a tool: call TOOL [JSON]' };
      }
      return extra(2) ?? { kind: 'run', command, options, tool, ...(positionals[1] === undefined ? {} : { input: positionals[1] }), dryRun: values['dry-run'] === true, json: values.json === true };
    }
    case 'prompt':
      return promptOutcome(options, values, positionals);
    case 'test':
      return { kind: 'run', command, options, tools: positionals };
    case 'history': {
      const limit = Number(values.limit ?? '20');
      if (!Number.isInteger(limit) || limit <= 0) {
        return { kind: 'error', command, message: `--limit needs a positive whole number, got "${values.limit ?? ''}"` };
      }
      return extra(0) ?? { kind: 'run', command, options, json: values.json === true, limit };
    }
    case 'init':
      return extra(0) ?? initOutcome(options, values);
  }
}

/** `init`: the agents named (or `--all` of them), their project or `--user` files, or `--list`. */
function initOutcome(options: ServerConfig, values: Values): CliOutcome {
  const command = 'init';
  const common = { kind: 'run', command, options, serverName: values['server-name'] ?? DEFAULT_SERVER_NAME, local: values.local === true, workspaceGiven: values.workspace !== undefined } as const;
  if (values.list === true) {
    return { ...common, clients: [], user: false, listAgents: true };
  }
  const user = values.user === true;
  if (values.all === true && user) {
    return { kind: 'error', command, message: '--all writes every project file; --user takes the agents by name (--copilot --user)' };
  }
  const clients = values.all === true ? CLIENT_IDS : CLIENT_IDS.filter((id) => values[id] === true);
  if (clients.length === 0) {
    return { kind: 'error', command, message: `init needs the agents to set up: ${CLIENT_IDS.map((id) => `--${id}`).join(', ')}, or --all (init --list says what each writes)` };
  }
  const noUserFile = user ? clients.filter((id) => clientTarget(id).user === undefined) : [];
  if (noUserFile.length > 0) {
    return { kind: 'error', command, message: `--user is for agents whose usual place is a file in your home folder (--copilot); ${noUserFile.map((id) => clientTarget(id).label).join(', ')} read${noUserFile.length === 1 ? 's' : ''} the project's file: leave out --user` };
  }
  return { ...common, clients, user, listAgents: false };
}

/** `prompt NAME --arg K=V...`: the name, and each argument split at its first `=`. */
function promptOutcome(options: ServerConfig, values: Values, positionals: readonly string[]): CliOutcome {
  const command = 'prompt';
  const prompt = positionals[0];
  if (prompt === undefined) {
    return { kind: 'error', command, message: 'prompt needs the name of a prompt: prompt NAME [--arg NAME=VALUE]...' };
  }
  if (positionals.length > 1) {
    return { kind: 'error', command, message: `unexpected argument "${positionals[1] ?? ''}" (give argument values as --arg NAME=VALUE)` };
  }
  const args: Record<string, string> = {};
  for (const pair of values.arg ?? []) {
    const equals = pair.indexOf('=');
    if (equals <= 0) {
      return { kind: 'error', command, message: `--arg needs NAME=VALUE, got "${pair}"` };
    }
    // Own properties only: an argument named like a prototype key stays a plain key.
    Object.defineProperty(args, pair.slice(0, equals), { value: pair.slice(equals + 1), enumerable: true, writable: true, configurable: true });
  }
  return { kind: 'run', command, options, prompt, args, json: values.json === true };
}

/**
 * `--allowed-names` takes an optional server name, which parseArgs cannot express: a bare one
 * (last, or before another option) gets the default as its value.
 */
function withAllowedNamesValue(argv: readonly string[]): string[] {
  return argv.map((arg, index) => {
    const next = argv[index + 1];
    return arg === '--allowed-names' && (next === undefined || next.startsWith('-')) ? '--allowed-names=' : arg;
  });
}
