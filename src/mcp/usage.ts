/** The `--help` texts of `dist/mcp-server.js` and its subcommands. */
import { liveSettingsExample, optionLines, settingFlagsHelp } from '../core/settings/settings-help';

/** The subcommands, in the order `--help` lists them. */
export const COMMANDS = ['serve', 'approve', 'check', 'list', 'call', 'read', 'prompt', 'test', 'history', 'init'] as const;

/** One of COMMANDS. */
export type CommandName = (typeof COMMANDS)[number];

// The settings' flags come from their rows (core/settings/settings-table.ts), each in its group.
const SOURCES = `  --workspace DIR     workspace folder (repeatable; default: the current directory)
${settingFlagsHelp('sources')}
  --no-plugins        do not load plugin files at all`;

const APPROVAL = `  --approvals FILE    approval store (default: $XDG_CONFIG_HOME/workspace-tools/approvals.json,
                      ~/.config/... when unset, %APPDATA%\\workspace-tools\\... on Windows)
  --approve-existing  also approve the plugin files as they are when the process starts, for
                      this run only (CI and throwaway workspaces)
  --approve-changes   serve every plugin file unapproved, even ones written while running`;

const LIMITS = `${settingFlagsHelp('limits')}
  --large-output BYTES  past this much stdout (default 102400), the server answers with the
                      head and tail and links the whole output as workspace-tools://output/<id>
${optionLines('--settings FILE', ['live settings, watched and applied without a restart:', ...liveSettingsExample()])}
  --log-level LEVEL   trace|debug|info|warn|error|off (default info); logs go to stderr
  --history FILE      where each call is recorded, one JSON line per call (default:
                      $XDG_STATE_HOME/workspace-tools/history.jsonl, ~/.local/state/... when unset)
  --no-history        record no calls`;

const SANDBOX = settingFlagsHelp('sandbox');

/** `--help` without a subcommand. */
export const USAGE = `Usage: workspace-tools-mcp [COMMAND] [options]

Workspace tools for AI agents: built-in git and workspace tools, and the tools and prompts
defined in <workspace>/.vscode/tools/*.json. A plugin file runs only once you have approved its exact
content (in VS Code's Workspace Tools view or with "approve").

Commands:
  serve      run the MCP server on stdio (the default when no command is given)
  approve    review and approve plugin files (approve --list shows each file's state)
  check      check plugin files and print each problem as path:line:column: message
  list       the tools, prompts and resources that would be served, with their source and state
  call       run one tool once and print its result
  read       print one resource of a plugin file (or a kept output) by its URI
  prompt     render one prompt from a plugin file and print its messages
  test       run the tests declared in plugin files; exit 1 on any failure
  history    the most recent tool calls: what ran, with which input, how it ended
  init       set up agents: --claude, --vscode, --copilot, --cursor, --codex, --gemini, --zed, --all

Options of serve (most commands take them too):
${SOURCES}
${APPROVAL}
${LIMITS}
${SANDBOX}
  --max-tasks N       most tools one client may run as MCP tasks at once (default 16)
  --task-ttl MS       how long a task's result is kept when the client asks for no TTL
                      (default 3600000; docs/tasks.md)
  --running-file FILE publish the calls and tasks in progress to FILE and cancel those listed in
                      FILE.cancel (what VS Code's tools view uses; docs/tasks.md)
  --no-watch          do not watch plugin directories, the approval store and --settings
  --help              show this help (COMMAND --help: that command's)
  --version           show the version

Environment:
  WORKSPACE_TOOLS_RIPGREP  ripgrep for search-text: a path, or "off" for git grep
                           (default: rg on PATH, else git grep); the sandbox uses it too
  WORKSPACE_TOOLS_BWRAP    the bubblewrap the sandbox runs (default: bwrap on PATH); a path that
                           is not one makes the sandbox unavailable
  XDG_CONFIG_HOME          where the default approval store lives
  XDG_CACHE_HOME           where the start-up cache (Node's compile cache) lives
                           (default ~/.cache; %LOCALAPPDATA% on Windows)
  NODE_DISABLE_COMPILE_CACHE=1  start without that cache (NODE_COMPILE_CACHE=DIR: another folder)
  WORKSPACE_TOOLS_BRIDGE, WORKSPACE_TOOLS_BRIDGE_TOKEN  set by VS Code in its integrated terminals:
                           the window's editor bridge; the editor-* tools are served through it
                           (list says which window, or why none; docs/editor-bridge.md)

Run it with npx (no install) or, from a checkout, node dist/mcp-server.js.

Examples:
  npx -y workspace-tools-mcp --workspace .
  npx -y workspace-tools-mcp init --all
  npx -y workspace-tools-mcp approve --workspace .
  npx -y workspace-tools-mcp check --workspace .
  npx -y workspace-tools-mcp list --allowed-names
  npx -y workspace-tools-mcp call git-status '{"path":"src"}'
  npx -y workspace-tools-mcp read docs://handbook
  npx -y workspace-tools-mcp prompt review-change --arg file=src/index.ts --arg focus=security
  WORKSPACE_TOOLS_RIPGREP=off npx -y workspace-tools-mcp call search-text '{"query":"TODO"}'
  npx -y workspace-tools-mcp test --workspace . --approve-existing
  npx -y workspace-tools-mcp history --limit 20
  npx -y workspace-tools-mcp call editor-hover '{"path":"src/app.ts","line":12,"column":7}'   # in a VS Code terminal
  npx -y workspace-tools-mcp init --claude --local
  npx -y workspace-tools-mcp --workspace . --sandbox required --sandbox-deny-read ~/.config/secrets
`;

const COMMAND_USAGE: Readonly<Record<CommandName, string>> = {
  serve: USAGE,
  approve: `Usage: workspace-tools-mcp approve [--workspace DIR]... [FILE...] [--yes]
       workspace-tools-mcp approve --list [--workspace DIR]...

Shows what each plugin file that waits for approval runs (or each FILE given): the exact
commands, scripts, URLs with their header names, and base paths; then asks whether to approve
that exact content. The approval is kept in the approval store, keyed by the file's real path
and SHA-256, and every door (VS Code, every MCP server) serves the file from then on, until its
content changes.

  --yes, -y           approve without asking (scripts, CI); without it a terminal is needed
  --list              list every plugin file with its state: approved, changed since
                      approval, new; and each of its tools with its tags and its sandbox
                      (what its processes may write and reach); approves nothing
${SOURCES}
  --approvals FILE    approval store (default: the per-user store, see --help)

Exit status: 0 when every file asked for was approved, 1 otherwise.

Examples:
  npx -y workspace-tools-mcp approve --workspace .
  npx -y workspace-tools-mcp approve .vscode/tools/build.json --yes
  npx -y workspace-tools-mcp approve --list
`,
  check: `Usage: workspace-tools-mcp check [--workspace DIR]... [--plugins DIR]...

Checks every plugin file without serving or running anything, and prints each problem
compiler-style, "path:line:column: message", so editors and CI annotate it. Approval does not
matter here: unapproved files are checked too.

${SOURCES}

Exit status: 0 when no file has a problem, 1 otherwise.

Example (a pre-commit hook or a CI step):
  npx -y workspace-tools-mcp check --workspace .
`,
  list: `Usage: workspace-tools-mcp list [--json] [--resources] [--allowed-names [SERVER]] [options]

Lists every tool with its state (served, disabled, or waiting for approval), its sandbox in a
few words ("writes workspace, no network", "built-in, not sandboxed": docs/sandbox.md) and its
source; then every prompt of the plugin files ("prompts" section) with its state and
file:line:column; then the resources of plugin files ("resources" section) with their URI or
URI template, state, what they read or run, and file:line:column. A tool of an "import"
section (a task of tasks.json, a package.json script, a Makefile target, a justfile recipe) is
shown where its task is declared, then the import entry: .vscode/tasks.json:7:5 (import at
.vscode/tools/declared.json:3:5).

  --json              one JSON array: each tool ("kind": "tool") with name, title,
                      description, tags, readOnly, state, source (source.declared: where an
                      imported task is declared), sandbox (kind: os, not-sandboxed, other or
                      built-in; lines: every rule; policy); each prompt ("kind": "prompt") with name,
                      title, description, arguments, state, source
  --resources         list only the resources (with --json: one JSON array of name, title,
                      description, address, mimeType, reads, state, source)
  --allowed-names [SERVER]
                      print mcp__SERVER__TOOL (SERVER default workspace-tools) for each
                      served read-only tool, one a line: Claude Code's permissions.allow
${SOURCES}
${APPROVAL}

Examples:
  npx -y workspace-tools-mcp list --workspace .
  npx -y workspace-tools-mcp list --resources --json
  npx -y workspace-tools-mcp list --allowed-names
`,
  read: `Usage: workspace-tools-mcp read URI [options]

Prints one resource, as an MCP client reading it (resources/read) would get it: a plugin file's
resource (a workspace file, a file of a "files" glob, a command's output, or a URI that matches
a "uriTemplate"). Text is printed as it is; binary contents (an image, a PDF) are written as
raw bytes, so redirect them to a file. The approval rule is the server's: a plugin file that is
not approved serves nothing.

${SOURCES}
${APPROVAL}
${LIMITS}

Exit status: 0 when it was printed, 1 when the URI names no resource or it could not be read.

Examples:
  npx -y workspace-tools-mcp read docs://handbook
  npx -y workspace-tools-mcp read 'tickets://42' --approve-existing
  npx -y workspace-tools-mcp read 'workspace-tools://file/my-repo/docs/guide.md'
  npx -y workspace-tools-mcp read img://logo > logo.png
`,
  call: `Usage: workspace-tools-mcp call TOOL [JSON] [--dry-run] [--json] [options]

Runs one tool once and prints its result. The input is the JSON argument, else standard input
when it is not a terminal, else {}. The approval rule is the same as the server's: a tool from
a plugin file that is not approved does not run. An image or audio part of the result is
described ("[image/png, 12.3 KB]"), never printed. A tool that asks the user (a code tool's
elicit, a tool's "confirm") asks on the terminal (standard error); without one it cannot ask,
and the call says so. On a terminal the tool's latest output line shows on standard error while
it runs; Ctrl-C cancels the call and kills what the tool started (exit 1).

  --dry-run           run nothing: print what the call would run with this input, each
                      argument on its own line (a script's values as its INPUT_ variables),
                      or the method and final URL
  --json              print the result as one JSON object: isError, text, structured and
                      content (every part whole, an image's base64 included)

${SOURCES}
${APPROVAL}
${LIMITS}
${SANDBOX}

Exit status: 0 for a result, 1 for an error result, 2 for a wrong command line.

Examples:
  npx -y workspace-tools-mcp call git-status
  npx -y workspace-tools-mcp call search-text '{"query":"TODO","glob":"*.ts"}'
  echo '{"maxCount":3}' | npx -y workspace-tools-mcp call git-log
  npx -y workspace-tools-mcp call build '{"target":"web"}' --dry-run
  npx -y workspace-tools-mcp call file-reader '{"path":"logo.png"}' --json
`,
  prompt: `Usage: workspace-tools-mcp prompt NAME [--arg NAME=VALUE]... [--json] [options]

Renders one prompt of a plugin file ("prompts": [...]) with the arguments given and prints
its messages, as an MCP client would get them from prompts/get: text as it is, an embedded
file with its URI and content, an image with its type and size. The approval rule is the same
as the server's: a prompt of a plugin file that is not approved is not rendered.

  --arg NAME=VALUE    the value of one argument (repeatable); the value may contain "="
  --json              the rendered prompt as JSON ({ description, messages }, MCP's shape)
${SOURCES}
${APPROVAL}

Exit status: 0 when it rendered, 1 when it could not (unknown prompt, a missing required
argument, a file it names that cannot be read), 2 for a wrong command line.

Examples:
  npx -y workspace-tools-mcp prompt review-change --arg file=src/index.ts --arg focus=security
  npx -y workspace-tools-mcp prompt review-change --arg file=src/index.ts --json
`,
  test: `Usage: workspace-tools-mcp test [TOOL...] [options]

Runs the tests declared with tools in plugin files ("tests": [{ "name", "input", "expect" }]),
for real, through the same rules as a call: a file that is not approved runs no tests (its
tests fail with that reason; in CI pass --approve-existing). Prints one line per test and a
final "N passed, N failed"; a plugin problem counts as a failure.

${SOURCES}
${APPROVAL}
${LIMITS}
${SANDBOX}

Exit status: 0 when every test passed, 1 otherwise.

Examples:
  npx -y workspace-tools-mcp test --workspace . --approve-existing
  npx -y workspace-tools-mcp test list-todos build-and-test
`,
  history: `Usage: workspace-tools-mcp history [--limit N] [--json] [--history FILE]

Prints the most recent tool calls recorded by servers and commands that used the same history
file, newest first: time, door (mcp, cli, test, lm, run-tool), tool, how it ended, duration,
what ran (the expanded command line, method and URL, or file) and the input. Values of input
properties named like secrets (token, password, secret, apiKey, ...) are recorded as "***".

  --limit N           how many calls (default 20)
  --json              one JSON array of the records instead of text
  --history FILE      the history file (default: the per-user one, see --help)

Examples:
  npx -y workspace-tools-mcp history
  npx -y workspace-tools-mcp history --limit 5 --json
`,
  init: `Usage: workspace-tools-mcp init [--claude] [--vscode] [--copilot] [--cursor] [--codex] [--gemini] [--zed] [options]
       workspace-tools-mcp init --all [options]
       workspace-tools-mcp init --copilot --user
       workspace-tools-mcp init --list

Sets up AI agents for the repository (the root of the git work tree around the current folder;
--workspace names another folder): adds this server to each agent's project file, in the format
that agent documents, as "npx -y workspace-tools-mcp@<this version> --workspace .", which holds
no path of this machine, so the files can be committed for the whole team. Existing files are
merged, never replaced (other servers, settings and comments stay); a file that does not parse is
left unchanged; a second run says "Already up to date".

  --claude            Claude Code: .mcp.json, and the served read-only tools in
                      .claude/settings.json permissions.allow (run without asking)
  --vscode            VS Code 1.140+ and its agent sessions: .mcp.json
                      (with the Workspace Tools extension, VS Code already has the server)
  --copilot           Copilot CLI: .mcp.json (read in a folder you trust)
  --cursor            Cursor: .cursor/mcp.json
  --codex             Codex CLI: .codex/config.toml, [mcp_servers.<name>] (a project you trust)
  --gemini            Gemini CLI: .gemini/settings.json
  --zed               Zed: .zed/settings.json, context_servers
  --all               every project file above
  --user              the agent's file in your home folder instead (Copilot CLI:
                      ~/.copilot/mcp-config.json, or $COPILOT_HOME/mcp-config.json)
  --list              which agents init knows, where each file goes, and how to check that
                      the agent sees the server (its own list command); writes nothing
  --local             write "node <path of this script>" instead of npx: for a checkout or
                      a build that is not published (the path is this machine's only)
  --server-name NAME  the server's name in those files (default workspace-tools)
${SOURCES}

Examples:
  npx -y workspace-tools-mcp init --all
  npx -y workspace-tools-mcp init --claude --codex
  npx -y workspace-tools-mcp init --vscode --cursor --gemini --zed
  npx -y workspace-tools-mcp init --copilot --user
  npx -y workspace-tools-mcp init --list
  npx -y workspace-tools-mcp init --claude --local
`,
};

/** The help of one subcommand. */
export function commandUsage(command: CommandName): string {
  return COMMAND_USAGE[command];
}
