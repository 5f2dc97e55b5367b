/**
 * How many calls one client may leave waiting at a question (issue 33, item 7): each may hold a
 * code tool's process, so one connection has at most MAX_WAITING_CALLS; the next question is
 * refused with an error that says so, and its process ends. The real server over stdio, the
 * official v2 client on both revisions, a client that never answers. A waiting call the client
 * abandons ends too: on 2025-11-25 when it cancels the call (the question was a request inside
 * it), on 2026-07-28 when it disconnects (no request is open while a call waits there; a call no
 * one resumes is also cancelled after the wait, suspended-calls.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { MAX_WAITING_CALLS } from '../../../src/mcp/suspended-calls';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { resultText } from '../helpers/mcp-client';
import { connectV2Client } from '../helpers/mcp-client-v2';
import { isAlive, waitGone } from '../helpers/processes';

let workspace: TempDir;
let configHome: string;
before(() => {
  workspace = makeTempDir('wt-waiting-');
  workspace.write('.vscode/tools/hold.json', JSON.stringify({ tools: [{ name: 'hold', description: 'asks, naming its process', inputSchema: { type: 'object', properties: { n: { type: 'number' } } }, handler: { type: 'code', module: 'tools/hold.mjs' } }] }));
  workspace.write(
    'tools/hold.mjs',
    [
      'export default async (input, context) => {',
      '  try {',
      '    const answer = await context.elicit(`pid ${process.pid}`, { type: "object", properties: { ok: { type: "boolean" } } });',
      '    return `answered ${answer.action}`;',
      '  } catch (error) {',
      '    throw new Error(`pid ${process.pid}: ${error.message}`);',
      '  }',
      '};',
      '',
    ].join('\n'),
  );
  configHome = mkdtempSync(path.join(tmpdir(), 'wt-waiting-config-'));
});
after(() => {
  workspace.cleanup();
  rmSync(configHome, { recursive: true, force: true });
});

/** A client whose answers wait until `release` (the ones asked before `answerAtOnce` is set). */
async function connect(revision: '2025-11-25' | '2026-07-28'): Promise<{ client: Client; pids: number[]; answerAtOnce: () => void; release: () => void }> {
  const pids: number[] = [];
  const held: Array<() => void> = [];
  let atOnce = false;
  const client = await connectV2Client({
    name: 'waiting-tests',
    configHome,
    args: ['--workspace', workspace.path, '--approve-existing', '--no-history'],
    capabilities: { elicitation: { form: {} } },
    ...(revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    prepare: (prepared) =>
      prepared.setRequestHandler('elicitation/create', (request) => {
        pids.push(Number(/^pid (\d+)$/.exec(request.params.message)?.[1]));
        const answer = { action: 'accept' as const, content: { ok: true } };
        return atOnce ? Promise.resolve(answer) : new Promise((resolve) => held.push(() => resolve(answer)));
      }),
  });
  assert.equal(client.getNegotiatedProtocolVersion(), revision);
  return { client, pids, answerAtOnce: () => (atOnce = true), release: () => held.forEach((answer) => answer()) };
}

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await delay(25);
  }
}

/** Starts MAX_WAITING_CALLS calls that wait at their question, then one more, which is refused; its process ends. */
async function fillUpAndRefuse(client: Client, pids: number[], signal: AbortSignal): Promise<Array<Promise<unknown>>> {
  const waiting = Array.from({ length: MAX_WAITING_CALLS }, (_, n) => client.callTool({ name: 'hold', arguments: { n } }, { signal, timeout: 120_000 }).catch((error: unknown) => error));
  await until(() => pids.length === MAX_WAITING_CALLS, `${MAX_WAITING_CALLS} questions`);
  assert.ok(pids.every((pid) => Number.isInteger(pid) && isAlive(pid)), 'each waiting call keeps its process');
  const refused = await client.callTool({ name: 'hold', arguments: { n: MAX_WAITING_CALLS } }, { timeout: 60_000 });
  assert.equal(refused.isError, true);
  const text = resultText(refused);
  assert.match(text, new RegExp(`${MAX_WAITING_CALLS} calls of this client already wait for the user's answer, the most one client may have at once \\(${MAX_WAITING_CALLS}\\); answer or cancel one of them, then call again`));
  const pid = Number(/pid (\d+):/.exec(text)?.[1]);
  assert.ok(Number.isInteger(pid) && !pids.includes(pid), text);
  assert.equal(await waitGone(pid, 10_000), true, `the refused call's process ${pid} ended`);
  assert.equal(pids.length, MAX_WAITING_CALLS, 'the refused question never reached the client');
  return waiting;
}

describe('calls waiting at a question, per client', () => {
  test(`2025-11-25: the call past ${MAX_WAITING_CALLS} waiting is refused and its process ends; cancelled, the waiting calls end and free their places`, async () => {
    const { client, pids, answerAtOnce, release } = await connect('2025-11-25');
    const cancel = new AbortController();
    try {
      const waiting = await fillUpAndRefuse(client, pids, cancel.signal);
      const held = [...pids];
      cancel.abort();
      await Promise.all(waiting);
      for (const pid of held) {
        assert.equal(await waitGone(pid, 10_000), true, `the abandoned call's process ${pid} ended`);
      }
      answerAtOnce();
      const next = await client.callTool({ name: 'hold', arguments: { n: 99 } }, { timeout: 60_000 });
      assert.equal(resultText(next), 'answered accept', 'the places were freed');
    } finally {
      release();
      await client.close();
    }
  });

  test(`2026-07-28: the call past ${MAX_WAITING_CALLS} waiting is refused and its process ends; the waiting calls end when the client goes`, async () => {
    const { client, pids, release } = await connect('2026-07-28');
    const held: number[] = [];
    try {
      // Never settled: the client goes while they wait.
      void (await fillUpAndRefuse(client, pids, new AbortController().signal));
      held.push(...pids);
    } finally {
      // Unanswered: the calls still wait when the client goes.
      await client.close();
      release();
    }
    for (const pid of held) {
      assert.equal(await waitGone(pid, 10_000), true, `the waiting call's process ${pid} ended with the connection`);
    }
  });
});
