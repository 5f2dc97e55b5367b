/**
 * Claude Code's interactive session (not `claude mcp list`) negotiating MCP Tasks with the server
 * (issue 39). A session on a terminal turns its MCP tasks on (`claude mcp list` does not), so the
 * pinned Claude Code runs here in a real pseudo-terminal (`script`), with a throwaway API key it is
 * told is approved and the workspace already trusted: it starts the server at once, before any
 * prompt and with no traffic to a model. The server runs behind the stdio recorder, and the proof
 * is taken from the wire: Claude Code declares the Tasks extension and the server offers it back.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { claudeCodeBinary, claudeHome } from '../helpers/claude-code';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { killTree } from '../../../src/core/platform/kill-tree';
import { descendantsIn, procParentMap } from '../../../src/core/platform/process-table';
import { posixQuote } from '../../../src/core/sandbox/sandboxed-command';
import { isAlive } from '../helpers/processes';
import { eventually } from '../sandbox/sandbox-world';
import { withoutNpmSettings } from '../helpers/registry';
import type { WireMessage } from '../helpers/stdio-recorder';
import { recordedCommand, recordedMessages } from '../helpers/stdio-recorder';
import type { ServedWorkspace } from './served-workspace';
import { servedWorkspace } from './served-workspace';

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const SERVER = 'workspace-tools';
/** A key Claude Code accepts the shape of; nothing is sent with it (no prompt is typed). */
const THROWAWAY_KEY = 'sk-ant-api03-workspace-tools-test-key-0123456789abcdefghij';

let workspace: ServedWorkspace;
let tmp: TempDir;

before(async () => {
  claudeCodeBinary();
  workspace = await servedWorkspace('wt-claude-session-');
  tmp = makeTempDir('wt-claude-session-run-');
});

after(() => {
  workspace?.cleanup();
  // Claude Code's own helpers may outlive the session by a moment: retried, then left to the system's temp cleaner.
  rmSync(tmp.path, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

/**
 * Starts an interactive `claude` on a pseudo-terminal in the workspace, with the server behind
 * the recorder, until `done` holds for what was recorded (or 60 s pass); then ends the session.
 */
async function sessionUntil(done: (sent: WireMessage[], answered: WireMessage[]) => boolean): Promise<{ sent: WireMessage[]; answered: WireMessage[] }> {
  const home = claudeHome(tmp.path);
  const recording = path.join(tmp.path, 'wire-session');
  const server = recordedCommand(recording, workspace.command, workspace.args);
  const config = path.join(tmp.path, 'mcp-config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { [SERVER]: { command: server.command, args: server.args, env: workspace.env } } }));
  // What a user has answered once: onboarding done, this key approved (Claude Code keeps its last 20 characters), the folder trusted.
  writeFileSync(
    path.join(home, '.claude.json'),
    JSON.stringify({ hasCompletedOnboarding: true, customApiKeyResponses: { approved: [THROWAWAY_KEY.slice(-20)], rejected: [] }, projects: { [workspace.dir.path]: { hasTrustDialogAccepted: true } } }),
  );
  const line = [claudeCodeBinary(), '--mcp-config', config, '--strict-mcp-config'].map(posixQuote).join(' ');
  const session = spawn('script', ['-qfec', line, '/dev/null'], {
    cwd: workspace.dir.path,
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: {
      ...withoutNpmSettings(),
      HOME: home,
      XDG_CACHE_HOME: path.join(home, '.cache'),
      ANTHROPIC_API_KEY: THROWAWAY_KEY,
      MCP_PROTOCOL_NEGOTIATION: 'auto',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      TERM: 'xterm-256color',
    },
  });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const wire = recordedMessages(recording);
      if (done(wire.sent, wire.answered) || Date.now() > deadline) {
        return wire;
      }
      await sleep(250);
    }
  } finally {
    await endTree(session.pid ?? 0);
  }
}

/** Kills `pid` and everything it started (`script` puts Claude Code in a session of its own), and waits until all are gone. */
async function endTree(pid: number): Promise<void> {
  const tree = [pid, ...descendantsIn(procParentMap() ?? new Map(), pid)];
  await killTree(pid, { walk: true });
  // Until then one of them may still write into the folders the test removes afterwards.
  await eventually(() => !tree.some(isAlive), 10_000);
}

/** The answer to the first request `method` that was answered. */
function answerTo(sent: WireMessage[], answered: WireMessage[], method: string): Record<string, unknown> | undefined {
  for (const request of sent.filter((message) => message.method === method && message.id !== undefined)) {
    const answer = answered.find((message) => message.id === request.id && message.result !== undefined);
    if (answer !== undefined) {
      return answer.result;
    }
  }
  return undefined;
}

describe('Claude Code, in an interactive session, runs tools as MCP tasks with the server', () => {
  test('it declares the Tasks extension on 2026-07-28, the server offers it back, and the session lists the tools', async () => {
    const { sent, answered } = await sessionUntil((s, a) => answerTo(s, a, 'tools/list') !== undefined);
    const discover = sent.find((message) => message.method === 'server/discover');
    assert.ok(discover !== undefined, `Claude Code sent no server/discover: ${JSON.stringify(sent.map((message) => message.method))}`);
    const clientCapabilities = (discover.params?.['_meta'] as Record<string, Record<string, unknown>> | undefined)?.[CLIENT_CAPABILITIES];
    assert.deepEqual((clientCapabilities?.['extensions'] as Record<string, unknown> | undefined)?.[TASKS_EXTENSION], {}, `Claude Code's capabilities: ${JSON.stringify(clientCapabilities)}`);

    const discovered = answerTo(sent, answered, 'server/discover');
    assert.deepEqual((discovered?.['capabilities'] as Record<string, unknown> | undefined)?.['extensions'], { [TASKS_EXTENSION]: {} });

    // On 2026-07-28 the server decides per call whether a tool runs as a task (docs/tasks.md): the list carries no
    // execution.taskSupport; the task flow with these capabilities is tested in mcp/tasks.test.ts.
    const tools = answerTo(sent, answered, 'tools/list')?.['tools'] as Array<{ name: string }> | undefined;
    assert.deepEqual(tools?.map((tool) => tool.name), ['say'], 'Claude Code listed the plugin tool');
    // Every request of the session names the revision that carries the extension.
    for (const request of sent.filter((message) => message.method !== undefined && message.id !== undefined)) {
      assert.equal((request.params?.['_meta'] as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/protocolVersion'], '2026-07-28', JSON.stringify(request));
    }
  });
});
