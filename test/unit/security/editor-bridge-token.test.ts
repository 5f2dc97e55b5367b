// The bridge's token is given to a VS Code window's terminals so that an agent's MCP server can
// reach the window; the programs that server's tools run must not inherit it (docs/editor-bridge.md),
// whichever subcommand runs them: `serve`, `call` and `list`, and also `test` (declared tests run
// the tools) and `read` (a resource's command).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../helpers/cli';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

const TOKEN = 'bridge-token-that-must-not-leak';
/** A terminal of a window: an address (stale here: the subcommands that do not connect never notice) and the token. */
const TERMINAL = { WORKSPACE_TOOLS_BRIDGE: '/nonexistent/wt-bridge-x/bridge.sock', WORKSPACE_TOOLS_BRIDGE_TOKEN: TOKEN, WORKSPACE_TOOLS_BRIDGE_OFF: '' };
const SHOW = ['node', '-e', "process.stdout.write('token=' + (process.env.WORKSPACE_TOOLS_BRIDGE_TOKEN ?? 'none'))"];

let workspace: TempDir;
let config: TempDir;
before(() => {
  workspace = makeTempDir('wt-bridge-token-');
  config = makeTempDir('wt-bridge-token-config-');
  workspace.write(
    '.vscode/tools/env.json',
    JSON.stringify({
      tools: [{ name: 'show-token', description: 'prints the token it inherited', tags: ['read'], handler: { type: 'shell', command: SHOW }, tests: [{ name: 'inherits no token', expect: { outputContains: 'token=none' } }] }],
      resources: [{ name: 'token', uri: 'env://token', command: SHOW }],
    }),
  );
});
after(() => {
  workspace.cleanup();
  config.cleanup();
});

for (const [command, args, expected] of [
  ['call', ['call', 'show-token'], /token=none/],
  ['test', ['test'], /PASS show-token › inherits no token/],
  ['read', ['read', 'env://token'], /token=none/],
] as const) {
  test(`${command}: a tool's program run from a window's terminal does not inherit the token`, async () => {
    const run = await runCli([...args, '--workspace', workspace.path, '--no-builtins', '--approve-existing', '--sandbox', 'off', '--no-history'], { configHome: config.path, env: TERMINAL, cwd: workspace.path });
    const output = `${run.stdout}\n${run.stderr}`;
    assert.doesNotMatch(output, new RegExp(TOKEN), output);
    assert.match(output, expected, output);
  });
}
