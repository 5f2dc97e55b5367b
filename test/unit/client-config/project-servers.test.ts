/**
 * One server per client (issue 35 item 11): the VS Code extension publishes no definition of its
 * own when the project's `.mcp.json` or `.vscode/mcp.json` already starts this server. The files
 * are written by the real `init` (a real process), as a team would commit them; and the
 * definition the extension does publish is static (issue 36 item 2).
 */
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ProjectMcpFile } from '../../../src/core/client-config/project-servers';
import { PROJECT_MCP_FILES, projectFilesReadBy, projectServersIn, startsThisServer } from '../../../src/core/client-config/project-servers';
import { windowServerLaunch } from '../../../src/core/client-config/vscode-definition';
import { readToolSettings, windowServerConfig } from '../../../src/core/settings/tool-settings';
import { parseCli } from '../../../src/mcp/cli';
import { runCli } from '../helpers/cli';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

const MCP_JSON = PROJECT_MCP_FILES[0] as ProjectMcpFile;
const VSCODE_MCP_JSON = PROJECT_MCP_FILES[1] as ProjectMcpFile;

describe('project MCP files that start this server', () => {
  let workspace: TempDir;
  let config: TempDir;
  beforeEach(() => {
    workspace = makeTempDir('wt-project-servers-');
    config = makeTempDir('wt-project-servers-config-');
  });
  afterEach(() => {
    workspace.cleanup();
    config.cleanup();
  });

  test('what init --claude (and --vscode: the same .mcp.json) writes is found, with where it is; other servers are not', async () => {
    workspace.write('.mcp.json', '{\n  // the team\'s servers\n  "mcpServers": {\n    "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"] }\n  }\n}\n');
    const result = await runCli(['init', '--claude', '--vscode', '--workspace', workspace.path], { configHome: config.path, cwd: workspace.path });
    assert.equal(result.code, 0, result.stderr);
    // VS Code's older place, as a team may have it committed
    workspace.write('.vscode/mcp.json', '{ "servers": { "team-tools": { "type": "stdio", "command": "npx", "args": ["-y", "workspace-tools-mcp@0.1.0", "--workspace", "${workspaceFolder}"] } } }\n');
    const text = readFileSync(path.join(workspace.path, '.mcp.json'), 'utf8');
    const claude = projectServersIn(MCP_JSON, text);
    const line = text.split('\n').findIndex((candidate) => candidate.includes('"workspace-tools":')) + 1;
    assert.deepEqual(claude.map(({ file, name, line: at, column }) => ({ file, name, at, column })), [{ file: '.mcp.json', name: 'workspace-tools', at: line, column: 5 }]);
    assert.match(claude[0]?.commandLine ?? '', /^npx -y workspace-tools-mcp@\S+ --workspace \.$/);
    assert.equal(claude[0]?.servesBuiltins, true, 'the built-ins come with it (the language model tools of the extension then step aside)');
    assert.equal(projectServersIn(MCP_JSON, '{ "mcpServers": { "t": { "command": "npx", "args": ["workspace-tools-mcp", "--no-builtins"] } } }')[0]?.servesBuiltins, false);
    const vscode = projectServersIn(VSCODE_MCP_JSON, readFileSync(path.join(workspace.path, '.vscode/mcp.json'), 'utf8'));
    assert.deepEqual(vscode.map(({ file, name }) => ({ file, name })), [{ file: '.vscode/mcp.json', name: 'team-tools' }]);
  });

  test('by what it runs, under any name; a script called mcp-server.js only under the name init gives it', () => {
    const starts = (name: string, command: string, ...args: string[]): boolean => startsThisServer(name, { command, args });
    assert.equal(starts('team-tools', 'npx', '-y', 'workspace-tools-mcp@0.1.0', '--workspace', '.'), true);
    assert.equal(starts('team-tools', 'npx', 'workspace-tools-mcp'), true);
    assert.equal(starts('x', '/repo/node_modules/.bin/workspace-tools-mcp', '--workspace', '.'), true);
    assert.equal(starts('x', 'node', '/repo/node_modules/workspace-tools-mcp/dist/mcp-server.js'), true);
    assert.equal(starts('workspace-tools', 'node', '/home/me/src/workspace-tools/dist/mcp-server.js', '--workspace', '.'), true);
    assert.equal(starts('other', 'node', '/home/me/other/dist/mcp-server.js'), false);
    assert.equal(starts('workspace-tools-like', 'npx', '-y', 'workspace-tools-mcp-fork'), false);
    assert.equal(starts('github', 'npx', '-y', '@modelcontextprotocol/server-github'), false);
  });

  test('a file that does not parse, a URL server and a disabled entry start nothing', () => {
    assert.deepEqual(projectServersIn(MCP_JSON, '{ "mcpServers": { "workspace-tools": { "command": "npx", "args": ["workspace-tools-mcp"] } '), []);
    assert.deepEqual(projectServersIn(VSCODE_MCP_JSON, '{ "servers": { "workspace-tools": { "type": "http", "url": "http://localhost:1/mcp" } } }'), []);
    assert.deepEqual(projectServersIn(MCP_JSON, '{ "mcpServers": { "workspace-tools": { "command": "npx", "args": ["workspace-tools-mcp"], "disabled": true } } }'), []);
    // .vscode/mcp.json lists servers under "servers" only (VS Code's format)
    assert.deepEqual(projectServersIn(VSCODE_MCP_JSON, '{ "mcpServers": { "workspace-tools": { "command": "npx", "args": ["workspace-tools-mcp"] } } }'), []);
  });

  test('.mcp.json counts from the first VS Code seen to read it (1.139); .vscode/mcp.json always', () => {
    const files = (version: string): string[] => projectFilesReadBy(version).map((file) => file.file);
    assert.deepEqual(files('1.139.1'), ['.mcp.json', '.vscode/mcp.json']);
    assert.deepEqual(files('1.140.0-insider'), ['.mcp.json', '.vscode/mcp.json']);
    assert.deepEqual(files('2.0.0'), ['.mcp.json', '.vscode/mcp.json']);
    assert.deepEqual(files('1.138.2'), ['.vscode/mcp.json']);
    assert.deepEqual(files('1.101.0'), ['.vscode/mcp.json']);
  });
});

describe('the definition the extension publishes is static', () => {
  const input = (folders: string[]) => ({
    execPath: '/opt/code/code',
    serverPath: '/ext/dist/mcp-server.js',
    nodeFlags: ['--disable-sigusr1'],
    config: windowServerConfig(readToolSettings(() => undefined), {
      folders,
      approvalsFile: '/home/me/.config/workspace-tools/approvals.json',
      settingsFile: '/storage/mcp-live-settings.json',
      registeredToolsDirectory: '/storage/registered-tools',
      historyFile: '/storage/history.jsonl',
      runningFile: '/storage/mcp-running.json',
    }),
  });

  test('a fixed command and arguments, an explicit cwd, each folder an absolute --workspace, no variable', () => {
    const launch = windowServerLaunch(input(['/ws/app', '/ws/lib']));
    assert.equal(launch.command, '/opt/code/code');
    assert.deepEqual(launch.args.slice(0, 2), ['--disable-sigusr1', '/ext/dist/mcp-server.js']);
    assert.equal(launch.cwd, '/ws/app');
    assert.deepEqual(launch.env, { ELECTRON_RUN_AS_NODE: '1' });
    assert.ok(launch.args.every((arg) => !arg.includes('${')), launch.args.join(' '));
    // Started from anywhere (a forwarded copy may start in a folder of its own), it serves the same folders.
    const parsed = parseCli(launch.args.slice(2), '/somewhere/else');
    assert.equal(parsed.kind, 'run');
    assert.deepEqual(parsed.kind === 'run' ? parsed.options.workspaces : [], ['/ws/app', '/ws/lib']);
  });

  test('its version follows the command line, so VS Code knows to restart a server that is out of date', () => {
    const one = windowServerLaunch(input(['/ws/app']));
    assert.equal(windowServerLaunch(input(['/ws/app'])).version, one.version);
    assert.notEqual(windowServerLaunch(input(['/ws/app', '/ws/lib'])).version, one.version);
    assert.deepEqual(windowServerLaunch({ ...input(['/ws/app']), ripgrep: '/opt/code/rg' }).env, { ELECTRON_RUN_AS_NODE: '1', WORKSPACE_TOOLS_RIPGREP: '/opt/code/rg' });
  });
});
