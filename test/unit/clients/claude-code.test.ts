/**
 * Claude Code (pinned in helpers/claude-code.ts) connecting to the stdio server on a workspace
 * whose approved plugin file serves a tool, a prompt, a resource and a resource template. Without an API
 * key, `claude mcp list` starts each configured server and does the MCP handshake, as a session
 * does first. With `MCP_PROTOCOL_NEGOTIATION=auto` it speaks protocol 2026-07-28 to stdio servers,
 * and the proof is taken twice: from the wire (the server runs behind a recorder of its stdin and
 * stdout, helpers/stdio-recorder.ts) and from Claude Code's own MCP log. `legacy` is the contrast
 * that shows the recording tells the revisions apart: `initialize` on 2025-11-25.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { version } from '../../../package.json';
import type { ClaudeMcpConnection } from '../helpers/claude-code';
import { claudeCodeBinary, claudeHome, claudeMcpConnections, runClaude } from '../helpers/claude-code';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { withoutNpmSettings } from '../helpers/registry';
import type { WireMessage } from '../helpers/stdio-recorder';
import { recordedCommand, recordedMessages } from '../helpers/stdio-recorder';
import type { ServedWorkspace } from './served-workspace';
import { servedWorkspace } from './served-workspace';

const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const SERVER = 'workspace-tools';

let workspace: ServedWorkspace;
let tmp: TempDir;

before(async () => {
  // Installs into the cache on a machine that has not got it yet, once.
  claudeCodeBinary();
  workspace = await servedWorkspace('wt-claude-');
  tmp = makeTempDir('wt-claude-run-');
});

after(() => {
  workspace?.cleanup();
  tmp?.cleanup();
});

/** What one `claude mcp list` printed, what went over the wire, and the connections Claude Code logged. */
interface HealthCheck {
  readonly status: number | null;
  readonly printed: string;
  readonly sent: WireMessage[];
  readonly answered: WireMessage[];
  readonly connections: ClaudeMcpConnection[];
}

/**
 * A new Claude Code user adds the server (behind the recorder) with `claude mcp add`, then
 * `claude mcp list` health-checks it with MCP_PROTOCOL_NEGOTIATION=`negotiation`.
 */
function healthCheck(negotiation: 'auto' | 'legacy'): HealthCheck {
  const home = claudeHome(tmp.path);
  const cacheHome = path.join(home, '.cache');
  const recording = path.join(tmp.path, `wire-${negotiation}`);
  const server = recordedCommand(recording, workspace.command, workspace.args);
  const options = { cwd: workspace.dir.path, home, env: { ...withoutNpmSettings(), XDG_CACHE_HOME: cacheHome, MCP_PROTOCOL_NEGOTIATION: negotiation } };
  const envFlags = Object.entries(workspace.env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
  const added = runClaude(['mcp', 'add', SERVER, ...envFlags, '--', server.command, ...server.args], options);
  assert.equal(added.status, 0, added.stdout + added.stderr);
  const listed = runClaude(['mcp', 'list'], options);
  return { status: listed.status, printed: listed.stdout + listed.stderr, ...recordedMessages(recording), connections: claudeMcpConnections(cacheHome, SERVER) };
}

/** The answer to the request `method` among the recorded messages. */
function answerTo(check: HealthCheck, method: string): Record<string, unknown> | undefined {
  const request = check.sent.find((message) => message.method === method && message.id !== undefined);
  return check.answered.find((message) => request !== undefined && message.id === request.id)?.result;
}

describe('Claude Code connects to the server serving plugin tools, prompts and resources', () => {
  test('MCP_PROTOCOL_NEGOTIATION=auto: ✔ Connected on protocol 2026-07-28, no initialize on the wire, the plugin tool listed, prompts and resources offered', () => {
    const check = healthCheck('auto');
    assert.equal(check.status, 0, check.printed);
    assert.match(check.printed, new RegExp(`^${SERVER}: .* - ✔ Connected$`, 'm'), check.printed);

    const requests = check.sent.filter((message) => message.method !== undefined && message.id !== undefined);
    assert.equal(requests[0]?.method, 'server/discover', JSON.stringify(requests[0]));
    assert.ok(!check.sent.some((message) => message.method === 'initialize'), 'no initialize on 2026-07-28');
    assert.deepEqual(
      requests.map((request) => [request.method, (request.params?.['_meta'] as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION]]),
      requests.map((request) => [request.method, '2026-07-28']),
      'every request names revision 2026-07-28 in its _meta',
    );
    const discovered = answerTo(check, 'server/discover');
    assert.deepEqual(discovered?.['supportedVersions'], ['2026-07-28']);
    assert.deepEqual(Object.keys((discovered?.['capabilities'] as Record<string, unknown> | undefined) ?? {}).sort(), ['completions', 'extensions', 'logging', 'prompts', 'resources', 'tools']);
    // Tools as MCP tasks (issue 39): the Tasks extension is offered, and Claude Code connects with it offered.
    // A health check does not declare it back (its requests carry roots and elicitation only); an interactive
    // session does (claude-code-session.test.ts); the task flow itself is tested in mcp/tasks.test.ts.
    assert.deepEqual((discovered?.['capabilities'] as Record<string, unknown> | undefined)?.['extensions'], { 'io.modelcontextprotocol/tasks': {} });
    const listed = answerTo(check, 'tools/list')?.['tools'] as Array<{ name: string }> | undefined;
    assert.deepEqual(listed?.map((tool) => tool.name), ['say'], 'Claude Code listed the plugin tool');

    assert.deepEqual(check.connections, [
      { hasTools: true, hasPrompts: true, hasResources: true, hasResourceSubscribe: true, serverVersion: { name: 'workspace-tools', version }, protocolEra: 'modern', negotiatedProtocolVersion: '2026-07-28' },
    ]);
  });

  test('MCP_PROTOCOL_NEGOTIATION=legacy (the contrast): ✔ Connected after an initialize on 2025-11-25', () => {
    const check = healthCheck('legacy');
    assert.equal(check.status, 0, check.printed);
    assert.match(check.printed, new RegExp(`^${SERVER}: .* - ✔ Connected$`, 'm'), check.printed);
    assert.equal(check.sent[0]?.method, 'initialize');
    assert.equal(check.sent[0]?.params?.['protocolVersion'], '2025-11-25');
    assert.equal(answerTo(check, 'initialize')?.['protocolVersion'], '2025-11-25');
    assert.ok(!check.sent.some((message) => message.method === 'server/discover'), 'no server/discover on 2025-11-25');
    assert.deepEqual(
      check.connections.map((connection) => [connection.protocolEra, connection.negotiatedProtocolVersion, connection.hasTools, connection.hasPrompts, connection.hasResources]),
      [['legacy', '2025-11-25', true, true, true]],
    );
  });
});
