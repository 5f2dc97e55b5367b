/**
 * Whether a project's own MCP configuration already starts this server: Claude Code's `.mcp.json`
 * (which VS Code reads too) or VS Code's `.vscode/mcp.json`. The VS Code extension then publishes
 * no second definition of its own, so chat gets each plugin tool once (issue 35 item 11). Pure:
 * the caller reads the files.
 */
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { parseJsonc } from '../plugins/parse-jsonc';
import { LineIndex } from '../plugins/locate';
import { NPM_PACKAGE } from './launch';
import { MCP_JSON_FILE, MCP_SERVER_NAME } from './mcp-json';

/** A project file VS Code reads MCP servers from, and the keys its servers may be listed under. */
export interface ProjectMcpFile {
  /** Relative to the workspace folder, with `/`. */
  readonly file: string;
  readonly serversKeys: readonly string[];
  /** Read by every VS Code with MCP (`.vscode/mcp.json`), or only by newer ones (`.mcp.json`). */
  readonly readByEveryVersion: boolean;
}

/**
 * The project files, in the order VS Code lists their servers. `.mcp.json` is Claude Code's format
 * (`mcpServers`), which VS Code 1.139 reads beside `.vscode/mcp.json` (`servers`).
 */
export const PROJECT_MCP_FILES: readonly ProjectMcpFile[] = [
  { file: MCP_JSON_FILE, serversKeys: ['mcpServers', 'servers'], readByEveryVersion: false },
  { file: '.vscode/mcp.json', serversKeys: ['servers'], readByEveryVersion: true },
];

/**
 * The first VS Code seen to start the servers of a project's `.mcp.json` (1.139, in code-server
 * 4.139.1: test/e2e). An older one may not: deferring to a file it ignores would leave chat with
 * no plugin tool, so there only `.vscode/mcp.json` counts.
 */
export const FIRST_VSCODE_READING_MCP_JSON: readonly [number, number] = [1, 139];

/** The project files a VS Code of `version` ("1.139.1", "1.140.0-insider") starts servers from. */
export function projectFilesReadBy(version: string): ProjectMcpFile[] {
  const [major = 0, minor = 0] = version.split(/[.-]/).map(Number);
  const [firstMajor, firstMinor] = FIRST_VSCODE_READING_MCP_JSON;
  const readsMcpJson = major > firstMajor || (major === firstMajor && minor >= firstMinor);
  return PROJECT_MCP_FILES.filter((file) => file.readByEveryVersion || readsMcpJson);
}

/** A server entry of a project file that starts this server. */
export interface ProjectServer {
  /** The project file, relative to its folder, with `/`. */
  readonly file: string;
  /** The entry's name (its key): how VS Code labels it. */
  readonly name: string;
  /** Where the entry's name is, 1-based. */
  readonly line: number;
  readonly column: number;
  /** Its command line as written, for people. */
  readonly commandLine: string;
  /** Whether it serves the built-in tools too (the server's default; `--no-builtins` turns it off). */
  readonly servesBuiltins: boolean;
}

/**
 * The entries of a project file's text that start this server, in file order. A text that does
 * not parse, or lists no servers, has none (VS Code does not start a server from it either).
 */
export function projectServersIn(file: ProjectMcpFile, text: string): ProjectServer[] {
  const parsed = parseJsonc(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok || !isObject(parsed.value)) {
    return [];
  }
  const root = parseTree(text.replace(/^\uFEFF/, ''), [], { allowTrailingComma: true });
  const lines = new LineIndex(text.replace(/^\uFEFF/, ''));
  const value = parsed.value;
  return file.serversKeys.flatMap((key) => {
    const servers = value[key];
    if (!isObject(servers)) {
      return [];
    }
    return Object.entries(servers).flatMap(([name, entry]): ProjectServer[] => {
      const launch = launchOf(entry);
      if (launch === undefined || !startsThisServer(name, launch)) {
        return [];
      }
      const node = root === undefined ? undefined : findNodeAtLocation(root, [key, name])?.parent?.children?.[0];
      const position = lines.position(node?.offset ?? 0);
      return [{ file: file.file, name, line: position.line, column: position.column, commandLine: [launch.command, ...launch.args].join(' '), servesBuiltins: !launch.args.includes('--no-builtins') }];
    });
  });
}

/** The command and arguments of a stdio entry; undefined for anything else (a URL, a disabled entry). */
function launchOf(entry: unknown): { readonly command: string; readonly args: readonly string[] } | undefined {
  if (!isObject(entry) || typeof entry['command'] !== 'string' || entry['disabled'] === true) {
    return undefined;
  }
  const args = Array.isArray(entry['args']) ? entry['args'].filter((arg): arg is string => typeof arg === 'string') : [];
  return { command: entry['command'], args };
}

/**
 * Whether a command starts this server: the npm package (`npx -y workspace-tools-mcp@1.2.3`, its
 * bin `workspace-tools-mcp`, a `node_modules/workspace-tools-mcp/...` path), or, under the name
 * `init` gives it, a `mcp-server.js` of a checkout or of the extension (`node …/dist/mcp-server.js`).
 */
export function startsThisServer(name: string, launch: { readonly command: string; readonly args: readonly string[] }): boolean {
  const words = [launch.command, ...launch.args];
  // The package by name (`npx -y workspace-tools-mcp@1.2.3`), or a path through its folder or bin.
  const namesPackage = words.some((word) => word.startsWith(`${NPM_PACKAGE}@`) || word.split(/[\\/]/).includes(NPM_PACKAGE));
  const runsOurScript = name === MCP_SERVER_NAME && words.some((word) => /(^|[\\/])mcp-server\.js$/.test(word));
  return namesPackage || runsOurScript;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
