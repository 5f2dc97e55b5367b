// The bundles keep the plugin file validator and RE2JS in files of their own, loaded on first use,
// so that start-up (the server's `initialize`, the extension's activation) does not parse their
// ~270 KB; and the bundled server still checks plugin files and patterns with them.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { runCli } from '../helpers/cli';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { SERVER_PATH } from '../helpers/mcp-client';

const DIST = path.dirname(SERVER_PATH);

let workspace: TempDir;
beforeEach(() => {
  workspace = makeTempDir('wt-lazy-modules-');
});
afterEach(() => workspace.cleanup());

test('the main bundles carry neither the plugin file validator, RE2JS nor the TOML editor; each is a file beside them', () => {
  for (const bundle of ['mcp-server-main.js', 'extension.js']) {
    const text = readFileSync(path.join(DIST, bundle), 'utf8');
    // A schema path only the generated validator's code names; an error message of RE2JS's parser.
    // (Not assert.doesNotMatch: a failure would print the whole bundle.)
    assert.equal(text.includes('#/definitions/test/properties/expect/additionalProperties'), false, `${bundle} carries the plugin file validator`);
    assert.equal(text.includes('missing closing )'), false, `${bundle} carries RE2JS`);
    assert.equal(text.includes('Error parsing TOML'), false, `${bundle} carries the TOML editor (only init --codex uses it)`);
  }
  assert.ok(existsSync(path.join(DIST, 'plugin-file-validator.js')));
  assert.ok(existsSync(path.join(DIST, 're2js.js')));
  assert.ok(existsSync(path.join(DIST, 'toml-patch.js')));
});

test('the bundled server loads them when a plugin file needs them: schema problems and patterns are still checked', async () => {
  workspace.write(
    '.vscode/tools/checked.json',
    JSON.stringify({
      tools: [
        { name: 'ok', description: 'fine', tags: ['read'], inputSchema: { type: 'object', properties: { id: { type: 'string', pattern: '^[a-z]+$' } } }, handler: { type: 'shell', command: ['true'] } },
        { name: 'lookahead', description: 'no', tags: ['read'], inputSchema: { type: 'object', properties: { x: { type: 'string', pattern: '^(?=a)a+$' } } }, handler: { type: 'shell', command: ['true'] } },
        { name: 'typo', description: 'no', tags: ['read'], handler: { type: 'shell', comand: ['true'] } },
      ],
    }),
  );
  const run = await runCli(['check', '--workspace', workspace.path], { configHome: workspace.path });
  const said = `${run.stdout}${run.stderr}`;
  assert.notEqual(run.code, 0, said);
  assert.match(said, /lookahead, lookbehind and backreferences are not supported/);
  assert.match(said, /comand/);
  assert.doesNotMatch(said, /Cannot find module/);
});
