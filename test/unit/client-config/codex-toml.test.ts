import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeCodexToml, parseToml } from '../../../src/core/client-config/codex-toml';

const SERVER = { command: 'npx', args: ['-y', 'workspace-tools-mcp@1.2.3', '--workspace', '.'] } as const;
const NAME = 'workspace-tools';
/** The document as plain JSON values (the parser's tables have a null prototype). */
const parse = (text: string): unknown => JSON.parse(JSON.stringify(parseToml(text)));

function merged(existing: string | undefined): { text: string; changed: boolean } {
  const outcome = mergeCodexToml(existing, NAME, SERVER);
  assert.ok(outcome.ok, JSON.stringify(outcome));
  return outcome;
}

describe('mergeCodexToml (.codex/config.toml)', () => {
  test('no file: one [mcp_servers.<name>] table, as Codex documents it', () => {
    assert.equal(merged(undefined).text, '[mcp_servers.workspace-tools]\ncommand = "npx"\nargs = ["-y", "workspace-tools-mcp@1.2.3", "--workspace", "."]\n');
  });

  test('other settings, servers and comments stay; ours is added at the end; a second merge changes nothing', () => {
    const existing = '# my Codex settings\nmodel = "o3" # fast\n\n[mcp_servers.other]\ncommand = "other-server" # keep me\n';
    const first = merged(existing);
    assert.ok(first.changed);
    assert.ok(first.text.startsWith(existing), first.text);
    assert.deepEqual(parse(first.text), { model: 'o3', mcp_servers: { other: { command: 'other-server' }, [NAME]: { command: SERVER.command, args: [...SERVER.args] } } });
    const second = merged(first.text);
    assert.deepEqual(second, { ok: true, text: first.text, changed: false });
  });

  test('an older entry is updated in place: its comments and the keys the user added (env, timeouts) stay', () => {
    const existing = '[mcp_servers.workspace-tools]\n# pinned by the team\ncommand = "npx" # via npm\nargs = ["-y", "workspace-tools-mcp@0.0.9", "--workspace", "."]\nstartup_timeout_sec = 30\n\n[mcp_servers.workspace-tools.env]\nWORKSPACE_TOOLS_RIPGREP = "off"\n';
    const { text, changed } = merged(existing);
    assert.ok(changed);
    assert.match(text, /# pinned by the team\n/);
    assert.match(text, /command = "npx" # via npm\n/);
    assert.match(text, /workspace-tools-mcp@1\.2\.3/);
    assert.deepEqual(parse(text), { mcp_servers: { [NAME]: { command: 'npx', args: [...SERVER.args], startup_timeout_sec: 30, env: { WORKSPACE_TOOLS_RIPGREP: 'off' } } } });
  });

  test('mcp_servers written as an inline table: ours joins it (a [header] there would be invalid TOML)', () => {
    const { text } = merged('mcp_servers = { other = { command = "x" } }\n');
    assert.deepEqual(parse(text), { mcp_servers: { other: { command: 'x' }, [NAME]: { command: 'npx', args: [...SERVER.args] } } });
  });

  test('a file that does not parse, or whose mcp_servers is not a table, is refused with where', () => {
    const broken = mergeCodexToml('model = "o3"\nmodel = "o4"\n', NAME, SERVER);
    assert.equal(broken.ok, false);
    assert.equal(!broken.ok && broken.line, 2);
    assert.deepEqual(mergeCodexToml('# x\nmcp_servers = 3\n', NAME, SERVER), { ok: false, line: 2, column: 1, message: '"mcp_servers" must be a table' });
  });
});
