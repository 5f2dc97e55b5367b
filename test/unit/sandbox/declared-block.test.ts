/**
 * A tool's declared `sandbox` block as the engine applies it (issue 34 item 3), through the real
 * server: `hosts` lets it reach only those hosts, through the runtime's proxy (Node's fetch is
 * told to use it: NODE_USE_ENV_PROXY), and a host it did not declare is refused by name; `write`
 * lets it write only those paths (made if missing); `read` re-opens one hidden credential and no
 * other.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { FETCH, LOOPBACK_ANSWER, NETRC, SSH_KEY, needsSandbox, pluginFile, worldForFile, scriptTool } from './sandbox-world';

/** The loopback address is in the runtime's NO_PROXY; the tool's own script clears it so its fetch goes through the proxy. */
const FETCH_THROUGH_PROXY = `NO_PROXY= no_proxy= exec node --no-warnings -e "${FETCH.replaceAll('"', '\\"')}" "$1"`;

const TOOLS = [
  scriptTool('fetch-declared', ['read'], FETCH_THROUGH_PROXY, ['url'], { sandbox: { hosts: ['127.0.0.1'] } }),
  scriptTool('writes-declared', ['read'], 'echo x > dist/out.txt && echo y > "$1"', ['other'], { sandbox: { write: ['dist'] } }),
  scriptTool('reads-netrc', ['read'], 'cat "$HOME/.netrc" && cat "$HOME/.ssh/id_ed25519"', [], { sandbox: { read: ['~/.netrc'] } }),
];

/** The world, once the machine is known to sandbox (the test is skipped or failed otherwise). */
const started = worldForFile(() => ({ files: { '.vscode/tools/declared.json': pluginFile(TOOLS) } }));

describe('a declared sandbox block', () => {
  test('hosts: the declared host is reached through the proxy; another is refused, by name', async () => {
    await needsSandbox();
    const w = started();
    const before = w.hits;
    const reached = await w.call('fetch-declared', { url: w.url });
    assert.equal(reached.isError, false, reached.text);
    assert.match(reached.text, new RegExp(`GOT ${LOOPBACK_ANSWER}`));
    assert.equal(w.hits, before + 1);
    const refused = await w.call('fetch-declared', { url: w.url.replace('127.0.0.1', 'localhost') });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /- connecting to localhost:\d+: the tool may reach only the hosts it declares \(127\.0\.0\.1\); add it to its "sandbox" "hosts" list/);
    assert.equal(w.hits, before + 1);
  });

  test('write: the declared folder is made and written; the rest of the workspace is not', async () => {
    await needsSandbox();
    const w = started();
    const result = await w.call('writes-declared', { other: 'other.txt' });
    assert.equal(result.isError, true, result.text);
    assert.equal(readFileSync(path.join(w.workspace.path, 'dist', 'out.txt'), 'utf8'), 'x\n');
    assert.equal(existsSync(path.join(w.workspace.path, 'other.txt')), false);
    assert.match(result.text, /- writing "other\.txt": the tool may write only "dist" \(its "sandbox" "write" list\)/);
  });

  test('read: the declared credential is readable, the others stay hidden', async () => {
    await needsSandbox();
    const result = await started().call('reads-netrc');
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, new RegExp(NETRC));
    assert.doesNotMatch(result.text, new RegExp(SSH_KEY));
    assert.match(result.text, /- reading "~\/\.ssh\/id_ed25519": "~\/\.ssh" is hidden/);
  });
});
