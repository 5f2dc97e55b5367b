/**
 * The MCP server a window's terminal starts (dist/mcp-server.js, a real process, a real SDK
 * client over stdio) with the bridge's address and token in its environment: it lists and serves
 * the window's tools; without a bridge, or with a stale address or a wrong token, it serves none
 * and `list` says why.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EDITOR_TOOL_NAMES } from '../../../src/core/editor-bridge/editor-tool-specs';
import type { WorkspaceFolder } from '../../../src/core/types';
import { runCli } from '../helpers/cli';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { connectServer, listAllTools, resultText } from '../helpers/mcp-client';
import type { TestWindow } from './bridge-host';
import { openTestWindow } from './bridge-host';
import { range, scriptedEditor } from './scripted-editor';

/** No bridge from the environment the tests themselves run in (a VS Code terminal, say). */
const NO_BRIDGE = { WORKSPACE_TOOLS_BRIDGE: '', WORKSPACE_TOOLS_BRIDGE_TOKEN: '', WORKSPACE_TOOLS_BRIDGE_OFF: '' };

describe('the MCP server started in a window\'s terminal', () => {
  let workspace: TempDir;
  let config: TempDir;
  let folders: WorkspaceFolder[];
  let window: TestWindow;
  before(async () => {
    workspace = makeTempDir('wt-mcp-bridge-');
    config = makeTempDir('wt-mcp-bridge-config-');
    workspace.write('src/main.ts', "import { greet } from './util';\ngreet('x');\n");
    workspace.write('src/util.ts', 'export function greet(name: string): string {\n  return name;\n}\n');
    folders = [{ name: path.basename(workspace.path), path: workspace.path }];
    const util = path.join(workspace.path, 'src/util.ts');
    window = await openTestWindow(scriptedEditor({ definition: [{ file: util, range: range(0, 16, 21) }, { file: '/opt/other/secret.d.ts', range: range(0, 0, 1) }] }), folders);
  });
  after(async () => {
    await window.close();
    workspace.cleanup();
    config.cleanup();
  });

  test('lists the editor tools and the listed extension tool, and serves them over MCP', async () => {
    const server = await connectServer(['--workspace', workspace.path], { configHome: config.path, env: { ...NO_BRIDGE, ...window.bridge.environment } });
    try {
      const { tools } = await listAllTools(server.client);
      const names = tools.map((tool) => tool.name);
      for (const name of [...EDITOR_TOOL_NAMES, 'acme_status']) {
        assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      }
      const definition = tools.find((tool) => tool.name === 'editor-definition');
      assert.equal(definition?.annotations?.readOnlyHint, true);
      assert.ok(definition?.outputSchema, 'structured output is advertised');
      const result = await server.client.callTool({ name: 'editor-definition', arguments: { path: 'src/main.ts', line: 2, column: 1 } });
      assert.equal(result.isError, false, resultText(result));
      const structured = result.structuredContent as { definitions: unknown[]; outsideWorkspace: number };
      assert.deepEqual(structured.definitions, [{ folder: folders[0]?.name, path: 'src/util.ts', line: 1, column: 17, endLine: 1, endColumn: 22 }]);
      assert.equal(structured.outsideWorkspace, 1);
      assert.doesNotMatch(resultText(result), /secret/);
      const acme = await server.client.callTool({ name: 'acme_status', arguments: {} });
      assert.equal(resultText(acme), 'acme ok {}');
      assert.ok(window.calls.some((call) => call.name === 'acme_status' && /^workspace-tools-mcp .* \(serve\)$/.test(call.caller.program) && call.caller.pid === server.pid()));
      // Bad input is the server's to refuse, as for any tool: nothing crosses the bridge.
      const before = window.calls.length;
      const bad = await server.client.callTool({ name: 'editor-hover', arguments: { line: 'two' } });
      assert.equal(bad.isError, true);
      assert.match(resultText(bad), /"line": must be integer/);
      assert.equal(window.calls.length, before);
    } finally {
      await server.close();
    }
  });

  test('`call` runs an editor tool from the terminal', async () => {
    const run = await runCli(['call', 'editor-definition', JSON.stringify({ path: 'src/main.ts', line: 2, column: 1 }), '--workspace', workspace.path], { configHome: config.path, env: { ...NO_BRIDGE, ...window.bridge.environment } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Definition of src\/main\.ts:2:1:\n {2}src\/util\.ts:1:17/);
  });

  test('`list` says which window serves the editor tools', async () => {
    const run = await runCli(['list', '--workspace', workspace.path], { configHome: config.path, env: { ...NO_BRIDGE, ...window.bridge.environment } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^editor-hover\b/m);
    assert.match(run.stdout, /Editor tools: editor tools from the VS Code window "app": 6 editor tools, 1 extension tool\n$/);
    // Not built-ins: --no-builtins leaves them; --disable turns one off.
    const some = await runCli(['list', '--workspace', workspace.path, '--no-builtins', '--disable', 'editor-hover'], { configHome: config.path, env: { ...NO_BRIDGE, ...window.bridge.environment } });
    assert.match(some.stdout, /^editor-definition +served\b/m);
    assert.match(some.stdout, /^editor-hover +disabled\b/m);
    assert.doesNotMatch(some.stdout, /^git-status\b/m);
  });

  test('the programs the server\'s own tools run do not get the token (they do get the rest of its environment)', async () => {
    const tool = {
      name: 'show-bridge-env',
      description: 'Prints the bridge variables it got',
      tags: ['read'],
      handler: { type: 'shell', command: ['node', '-e', 'process.stdout.write(JSON.stringify({ address: process.env.WORKSPACE_TOOLS_BRIDGE, token: process.env.WORKSPACE_TOOLS_BRIDGE_TOKEN ?? null }))'] },
    };
    workspace.write('.vscode/tools/env.json', JSON.stringify({ tools: [tool] }));
    const run = await runCli(['call', 'show-bridge-env', '--workspace', workspace.path, '--approve-changes', '--sandbox', 'off', '--no-history'], { configHome: config.path, env: { ...NO_BRIDGE, ...window.bridge.environment } });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { address: window.bridge.address, token: null });
  });

  test('without a bridge: no editor tool, and `list` says why', async () => {
    const run = await runCli(['list', '--workspace', workspace.path], { configHome: config.path, env: NO_BRIDGE });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, /^editor-/m);
    assert.match(run.stdout, /Editor tools: no editor tools: no VS Code window: WORKSPACE_TOOLS_BRIDGE is not set \(start the server from an integrated terminal of a VS Code window with the Workspace Tools extension\)\n$/);
    const server = await connectServer(['--workspace', workspace.path], { configHome: config.path, env: NO_BRIDGE });
    try {
      const { tools } = await listAllTools(server.client);
      assert.deepEqual(tools.filter((tool) => tool.name.startsWith('editor-')), []);
    } finally {
      await server.close();
    }
  });

  test('a wrong token: refused, nothing served, `list` says why', async () => {
    const before = window.calls.length;
    const env = { ...NO_BRIDGE, ...window.bridge.environment, WORKSPACE_TOOLS_BRIDGE_TOKEN: 'guessed' };
    const run = await runCli(['list', '--workspace', workspace.path], { configHome: config.path, env });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, /^editor-/m);
    assert.match(run.stdout, /Editor tools: no editor tools: The VS Code window's bridge at .* refused the token in WORKSPACE_TOOLS_BRIDGE_TOKEN/);
    const call = await runCli(['call', 'editor-open-files', '--workspace', workspace.path], { configHome: config.path, env });
    assert.equal(call.code, 1);
    assert.match(call.stderr, /editor-open-files/);
    assert.equal(window.calls.length, before);
  });

  test('a stale address (a window that has closed): refused cleanly', async () => {
    const other = await openTestWindow(scriptedEditor(), folders);
    await other.close();
    const run = await runCli(['list', '--workspace', workspace.path], { configHome: config.path, env: { ...NO_BRIDGE, ...other.bridge.environment } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Editor tools: no editor tools: The VS Code window's bridge at .* is gone \((ENOENT|ECONNREFUSED)\): the window that opened it has closed or reloaded\. Open a new integrated terminal in the window and start the server there\.\n$/);
  });
});
