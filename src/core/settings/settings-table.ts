/**
 * The one settings table: for each value of `ToolSettings`, one row that says everything about it,
 * typed by its field (a mapped type over `ToolSettings`: a row of a number field has a number
 * kind and a number default). From the rows alone come: reading VS Code's value
 * (tool-settings.ts), the live settings file (live-settings.ts), the server's flag both ways
 * (server-config.ts), its `--help` lines (settings-help.ts), package.json's
 * `contributes.configuration` (settings-manifest.ts, written by `node scripts/sync-manifest.mjs`)
 * and the limits (settings-limits.ts). `test/unit/settings/` fails when a row is not reachable
 * from its flag and from its VS Code value.
 *
 * A value has one name in code, the field name, which is also its key in the live settings file
 * (`timeoutMs`) and in the server's configuration; the VS Code key and the flag are public
 * spellings kept for users.
 */
import type { ExecutionLimits } from '../types';
import { DEFAULT_LIMITS } from '../types';
import type { SandboxSetting } from '../sandbox/status';
import { DEFAULT_SANDBOX_SETTING, SANDBOX_SETTINGS } from '../sandbox/status';
import type { ValueKind } from './setting-kinds';
import { onOff, oneOf, stringList, wholeNumber } from './setting-kinds';

/** The configuration section; every setting id is `workspaceTools.<key>`. */
export const SETTINGS_SECTION = 'workspaceTools';

/** Every setting of the extension, as read (values that are not one replaced by the defaults). */
export interface ToolSettings {
  readonly builtinsEnabled: boolean;
  readonly disabledTools: readonly string[];
  readonly pluginDirectories: readonly string[];
  /** Default timeout of shell tools and git, in ms (ExecutionLimits.timeoutMs, the same name). */
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly nestedConcurrency: number;
  readonly mcpEnabled: boolean;
  readonly mcpIncludeBuiltins: boolean;
  /** Whether shell and imported tools must, may or do not run in the OS sandbox. */
  readonly sandbox: SandboxSetting;
  /** More paths no sandboxed tool may read (absolute, or `~/`). */
  readonly sandboxDenyRead: readonly string[];
  /** Other extensions' lm tools the editor bridge serves to outside agents (names or extension ids; core/editor-bridge). */
  readonly bridgeExtensionTools: readonly string[];
}

/** A field of ToolSettings. */
export type SettingField = keyof ToolSettings;

/**
 * How a changed setting reaches the window's MCP server: its live settings file (`live`), a
 * restart (`restart`: a new command line, or whether there is a server), or not at all (`host`:
 * the extension host alone reads it; a change neither restarts the server nor rewrites its file).
 */
export type Reach = 'live' | 'restart' | 'host';

/** Where `--help` lists a flag: beside the flags that choose the tools, the limits, or the sandbox's. */
export type HelpGroup = 'sources' | 'limits' | 'sandbox';

/** The server flag that carries a setting. */
export interface SettingFlag {
  /** `--timeout`; a switch (`--no-builtins`) for an on/off setting. */
  readonly name: string;
  /** What its value is called in `--help` (`MS`); none for a switch. */
  readonly valueName?: string;
  /** Its `--help` text, one string a line, wrapped as `--help` shows it (the text starts at column 23). */
  readonly help: readonly string[];
  readonly helpGroup: HelpGroup;
}

/** A limit tools run with that is a number (ExecutionLimits). */
export type NumericLimit = { readonly [L in keyof ExecutionLimits]: ExecutionLimits[L] extends number ? L : never }[keyof ExecutionLimits];

/** One setting, its value of type T. */
export type SettingRow<T> = {
  /** The key under `workspaceTools.` in VS Code's settings. */
  readonly key: string;
  readonly reach: Reach;
  readonly kind: ValueKind<T>;
  /** The value when unset, or set to something that is not one (package.json's default). */
  readonly default: T;
  /** A value that is not the default (for `--help`'s live settings example and the tests that follow each row to the server). */
  readonly example: T;
  /** package.json's scope: `machine` for what a workspace's own settings must not change. */
  readonly scope?: 'machine';
  /** The limit it sets, in the extension host and in the server alike (ExecutionLimits). */
  readonly limit?: T extends number ? NumericLimit : never;
} & (
  /** The description in the settings editor: plain text, or Markdown. */
  { readonly description: string } | { readonly markdownDescription: string }
) & (
  /** The server flag that carries it, or why it has none (the window's alone; every `host` row). */
  { readonly flag: SettingFlag } | { readonly noFlag: string }
);

/** The table's type: one row per field of ToolSettings, each typed by its field. */
export type SettingsTable = { readonly [F in SettingField]: SettingRow<ToolSettings[F]> };

/** Every setting, in package.json's order. */
export const SETTINGS = {
  builtinsEnabled: {
    key: 'builtins.enabled',
    reach: 'restart',
    kind: onOff(),
    default: true,
    example: false,
    description: 'Offer the built-in read-only tools (git-status, git-diff-summary, git-log, workspace-info, file-reader, list-files, search-text) to chat.',
    flag: { name: '--no-builtins', help: ['leave out the built-in tools'], helpGroup: 'sources' },
  },
  disabledTools: {
    key: 'disabledTools',
    reach: 'live',
    kind: stringList('names', true),
    default: [],
    example: ['git-log'],
    markdownDescription: 'Names of tools that are not offered to chat or MCP clients. The tools view toggles entries here.',
    flag: { name: '--disable', valueName: 'NAME', help: ['leave out this tool (repeatable)'], helpGroup: 'sources' },
  },
  pluginDirectories: {
    key: 'pluginDirectories',
    reach: 'restart',
    kind: stringList('paths'),
    default: [],
    example: ['/team/tools'],
    scope: 'machine',
    markdownDescription: 'Extra directories of plugin files (`*.json`), for your own tools across workspaces. Their tools run in the first workspace folder. Relative paths resolve against the first folder.',
    flag: { name: '--plugins', valueName: 'DIR', help: ['extra plugin directory (repeatable; its tools run in the first workspace)'], helpGroup: 'sources' },
  },
  timeoutMs: {
    key: 'shell.defaultTimeout',
    reach: 'live',
    kind: wholeNumber(100),
    default: DEFAULT_LIMITS.timeoutMs,
    example: 60_000,
    limit: 'timeoutMs',
    markdownDescription: 'Default timeout in milliseconds of shell tools and git, when a tool sets none. The whole process tree is killed when it passes.',
    flag: { name: '--timeout', valueName: 'MS', help: [`default timeout of shell tools and git (default ${DEFAULT_LIMITS.timeoutMs})`], helpGroup: 'limits' },
  },
  maxOutputBytes: {
    key: 'output.maxBytes',
    reach: 'live',
    kind: wholeNumber(1024),
    default: DEFAULT_LIMITS.maxOutputBytes,
    example: 2 * 1024 * 1024,
    limit: 'maxOutputBytes',
    markdownDescription: 'Cap in bytes on the captured stdout and stderr of a tool; the rest is cut with a visible note.',
    flag: { name: '--max-output', valueName: 'BYTES', help: [`cap on captured stdout/stderr of a tool (default ${DEFAULT_LIMITS.maxOutputBytes})`], helpGroup: 'limits' },
  },
  nestedConcurrency: {
    key: 'nestedCalls.concurrency',
    reach: 'live',
    kind: wholeNumber(1),
    default: DEFAULT_LIMITS.nestedConcurrency,
    example: 2,
    limit: 'nestedConcurrency',
    markdownDescription:
      'Most calls that the tools of one call make to other tools (a code tool\'s `callTool`, `tool` steps, aliases) run at once; more wait their turn. One call also makes at most 1000 such calls and receives at most 64 MB of their results in all.',
    flag: {
      name: '--nested-concurrency',
      valueName: 'N',
      help: ['most calls the tools of one call make to other tools (callTool,', `tool steps, aliases) that run at once; more wait (default ${DEFAULT_LIMITS.nestedConcurrency})`],
      helpGroup: 'limits',
    },
  },
  mcpEnabled: {
    key: 'mcp.enabled',
    reach: 'restart',
    kind: onOff(),
    default: true,
    example: false,
    markdownDescription: 'Publish the bundled MCP server (plugin tools from `.vscode/tools`) to chat.',
    noFlag: 'it decides whether the window has a server at all (src/extension/mcp-provider.ts)',
  },
  mcpIncludeBuiltins: {
    key: 'mcp.includeBuiltins',
    reach: 'restart',
    kind: onOff(),
    default: false,
    example: true,
    markdownDescription: 'Also serve the built-in tools through the MCP server. Off by default because chat already has them as language model tools, and would see each twice.',
    noFlag: 'the window\'s server gets --no-builtins unless it is on (tool-settings.ts windowServerConfig)',
  },
  // Restart: what is served depends on it (under "required" without a sandbox, no shell tool is).
  sandbox: {
    key: 'sandbox',
    reach: 'restart',
    kind: oneOf(SANDBOX_SETTINGS, [
      'Run shell and imported tools in the OS sandbox their tags allow; where the OS cannot sandbox, run them anyway, marked "not sandboxed".',
      'Run shell and imported tools only in the OS sandbox; where the OS cannot sandbox, do not serve them.',
      'Run shell and imported tools as they are, with all of your rights.',
    ]),
    default: DEFAULT_SANDBOX_SETTING,
    example: 'required',
    scope: 'machine',
    markdownDescription:
      'Whether shell tools and imported tasks run in an OS sandbox built from their tags (no writes without `write`, no network without `network`, credentials hidden). Linux needs `bubblewrap` and `socat`; see [the sandbox page](https://github.com/workspace-tools/workspace-tools/blob/main/docs/sandbox.md). Changing it restarts the MCP server.',
    flag: {
      name: '--sandbox',
      valueName: 'MODE',
      help: [
        'how shell and imported tools run (docs/sandbox.md): preferred (default:',
        'in the OS sandbox their tags allow, else not sandboxed, with a warning),',
        'required (not served when the OS cannot sandbox), off (as they are)',
      ],
      helpGroup: 'sandbox',
    },
  },
  // Not `sandbox.denyRead`: VS Code's settings are one tree, where `sandbox` cannot be a string and hold a key.
  sandboxDenyRead: {
    key: 'sandboxDenyRead',
    reach: 'restart',
    kind: stringList('absolute-paths'),
    default: [],
    example: ['~/.config/secrets'],
    scope: 'machine',
    markdownDescription:
      'More paths no sandboxed tool may read, absolute or starting with `~/` (`~/.ssh`, `~/.aws`, `~/.netrc`, `~/.npmrc` and the other credentials always are). Changing it restarts the MCP server.',
    flag: {
      name: '--sandbox-deny-read',
      valueName: 'PATH',
      help: ['another path no sandboxed tool may read, absolute or ~/...', '(repeatable; ~/.ssh, ~/.aws, ~/.netrc and the like always are)'],
      helpGroup: 'sandbox',
    },
  },
  // Host: the window's editor bridge reads it (src/extension/editor-bridge); the MCP server never does.
  bridgeExtensionTools: {
    key: 'bridge.extensionTools',
    reach: 'host',
    kind: stringList('names'),
    default: [],
    example: ['acme.tools'],
    scope: 'machine',
    markdownDescription:
      "Other extensions' language model tools that agents in this window's integrated terminals may call through the editor bridge, by tool name (`acme_status`) or extension id (`acme.tools`, all its tools). None by default. Each call shows the tool's own confirmation in the window and is recorded in the History view. Only user (machine) settings count: a workspace cannot set it. See [the editor bridge](https://github.com/workspace-tools/workspace-tools/blob/main/docs/editor-bridge.md).",
    noFlag: 'the window\'s editor bridge reads it in the extension host (src/extension/editor-bridge/window-bridge.ts)',
  },
} as const satisfies SettingsTable;

/** The table, each row as its field's type (what generic code reads). */
const ROWS: SettingsTable = SETTINGS;

/** The fields whose row has a server flag: the settings a server's configuration carries. */
export type FlaggedField = { [F in SettingField]: (typeof SETTINGS)[F] extends { readonly flag: SettingFlag } ? F : never }[SettingField];

/** The fields whose row reaches the running server through its live settings file. */
export type LiveField = { [F in SettingField]: (typeof SETTINGS)[F]['reach'] extends 'live' ? F : never }[SettingField];

/** Every field, in the table's (package.json's) order. */
export const SETTING_FIELDS = Object.keys(SETTINGS) as readonly SettingField[];

/** The fields that have a server flag, in the table's order. */
export const FLAGGED_FIELDS = SETTING_FIELDS.filter((field): field is FlaggedField => 'flag' in ROWS[field]);

/** The fields that reach the server through its live settings file, in the table's order. */
export const LIVE_FIELDS = SETTING_FIELDS.filter((field): field is LiveField => ROWS[field].reach === 'live');

/** The row of `field`, typed by it. */
export function rowOf<F extends SettingField>(field: F): SettingRow<ToolSettings[F]> {
  return ROWS[field];
}

/** The flag of a row that has one. */
export function flagOf(field: FlaggedField): SettingFlag {
  const row = ROWS[field];
  if (!('flag' in row)) {
    throw new Error(`The setting ${field} has no flag`);
  }
  return row.flag;
}

/**
 * An object with one value per field of `fields`, each computed from its row. The one place
 * values of different fields are put together: `value` is typed per field, so each is its
 * field's type, and every field of `fields` is set.
 */
export function valuesOf<F extends SettingField>(fields: readonly F[], value: <G extends F>(field: G, row: SettingRow<ToolSettings[G]>) => ToolSettings[G]): { [G in F]: ToolSettings[G] } {
  const values: Partial<{ [G in F]: ToolSettings[G] }> = {};
  for (const field of fields) {
    values[field] = value(field, rowOf(field));
  }
  return values as { [G in F]: ToolSettings[G] };
}
