/**
 * The hot lane (src/mcp/hot-lane.ts) answers `tools/call`, `tools/list`, `resources/read` and
 * `ping` of a 2025-11-25 connection itself, without the SDK's dispatch; it must answer exactly as
 * the SDK does. The real server over real stdio, spoken to in raw JSON-RPC, so each request can be
 * sent twice: as clients send it (the lane answers) and with one params member the method does
 * not define (the lane leaves that to the SDK, which ignores the member). Both answers must be
 * equal: results, -32602 for bad params of each method (naming the field), protocol errors with
 * their data. Which path answered is what the server says at `--log-level trace` (`hot lane:
 * <method> <id>`). Cancelling a call on the lane ends its process and no answer is sent; the lane
 * is not used before `initialize` is answered, nor on a 2026-07-28 connection.
 */
import assert from 'node:assert/strict';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { TempGitRepo } from '../helpers/git-repo';
import { makeGitRepo } from '../helpers/git-repo';
import { RED_PIXEL_PNG } from '../helpers/media';
import { SERVER_PATH, testServerEnv } from '../helpers/mcp-client';
import { isAlive, waitForPid, waitGone } from '../helpers/processes';

type Answer = { readonly id?: unknown; readonly result?: Record<string, unknown>; readonly error?: { code: number; message: string; data?: unknown } };

/** One raw line from the server, parsed. */
interface Line {
  readonly message: Answer & { readonly method?: string; readonly params?: Record<string, unknown> };
}

/** A server over stdio, spoken to by hand. */
interface RawServer {
  request(method: string, params?: Record<string, unknown>): Promise<Line>;
  /** Sends a request without waiting; returns its id. */
  send(method: string, params?: Record<string, unknown>): number;
  notify(method: string, params?: Record<string, unknown>): void;
  /** Writes one raw line. */
  writeLine(text: string): void;
  /** Every line written so far. */
  readonly lines: Line[];
  /** Whether the hot lane answered request `id` (the server runs at --log-level trace). */
  onLane(id: number): Promise<boolean>;
  close(): Promise<void>;
}

function startServer(args: readonly string[], configHome: string, lanesArmed = true): RawServer {
  // Outside the OS sandbox: these tests are about the protocol ("sleepy" records the pid this
  // process can see); test/unit/sandbox proves the sandboxed calls.
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [SERVER_PATH, ...args, '--log-level', 'trace', '--sandbox', 'off'], { env: testServerEnv(configHome) });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const lines: Line[] = [];
  const waiting = new Map<number, (line: Line) => void>();
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop() ?? '';
    for (const text of parts.filter((part) => part.trim() !== '')) {
      const message = JSON.parse(text) as Line['message'];
      const line = { message };
      lines.push(line);
      if (typeof message.id === 'number' && message.method === undefined) {
        waiting.get(message.id)?.(line);
      }
    }
  });
  let nextId = 1;
  const write = (message: Record<string, unknown>): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
  const send = (method: string, params?: Record<string, unknown>): number => {
    const id = nextId++;
    write({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return id;
  };
  const request = (method: string, params?: Record<string, unknown>): Promise<Line> =>
    new Promise((resolve) => {
      waiting.set(nextId, resolve);
      send(method, params);
    });
  const traced = (id: number): boolean => new RegExp(`\\[mcp\\] hot lane: [a-z/]+ ${id}$`, 'm').test(stderr);
  return {
    lines,
    send,
    request,
    onLane: async (id) => {
      if (lanesArmed) {
        // stderr is one ordered pipe, and the lane says so before it answers: once a later ping's
        // line has arrived, so has every line before it.
        const marker = (await request('ping')).message.id as number;
        const deadline = Date.now() + 5000;
        while (!traced(marker) && Date.now() < deadline) {
          await delay(10);
        }
        assert.ok(traced(marker), 'a ping on an initialized 2025-11-25 connection is the lane\'s');
      } else {
        // No lane to sync with (before initialize, 2026-07-28): a line written before the answer arrives well within this.
        await delay(300);
      }
      return traced(id);
    },
    notify: (method, params) => write({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) }),
    writeLine: (text) => void child.stdin.write(`${text}\n`),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

async function initialize(server: RawServer): Promise<void> {
  const answer = await server.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hot-lane-tests', version: '1' } });
  assert.ok(answer.message.result !== undefined, JSON.stringify(answer.message));
  server.notify('notifications/initialized');
}

/** What an answer says, without its id (the two requests have different ones). */
function content(line: Line): Omit<Answer, 'id'> {
  const { id: _id, ...rest } = line.message;
  void _id;
  return rest;
}

/** A member no method defines: the lane leaves a request with it to the SDK, which ignores it. */
const VIA_SDK = { 'x-via-sdk': true };

let repo: TempGitRepo;
let configHome: string;
let server: RawServer;

before(async () => {
  repo = makeGitRepo('wt-hot-lane-');
  repo.commit('start', { 'notes.txt': 'one\ntwo\nthree\n' });
  repo.write('notes.txt', 'one\ntwo\nthree\nfour\n');
  writeFileSync(path.join(repo.path, 'pixel.png'), Buffer.from(RED_PIXEL_PNG, 'base64'));
  repo.write(
    '.vscode/tools/lane.json',
    JSON.stringify({
      tools: [
        { name: 'big', description: 'prints more than --large-output', tags: ['read'], handler: { type: 'shell', command: ['node', '-e', "process.stdout.write('HEAD\\n' + 'y'.repeat(20000) + '\\nTAIL\\n')"] } },
        { name: 'fails', description: 'exits 3', tags: ['read'], handler: { type: 'shell', command: ['node', '-e', "console.log('broken'); process.exit(3)"] } },
        {
          name: 'sleepy',
          description: 'records its pid, then sleeps',
          inputSchema: { type: 'object', properties: { pidfile: { type: 'string' } }, required: ['pidfile'] },
          tags: ['read'],
          handler: { type: 'shell', script: 'echo $$ > "$INPUT_PIDFILE"; exec sleep 100', timeout: 60000 },
        },
      ],
    }),
  );
  configHome = mkdtempSync(path.join(tmpdir(), 'wt-hot-lane-config-'));
  server = startServer(['--workspace', repo.path, '--approve-existing', '--no-history', '--large-output', '4096'], configHome);
  await initialize(server);
});

after(async () => {
  await server.close();
  repo.cleanup();
  rmSync(configHome, { recursive: true, force: true });
});

/** Sends `params` as they are and with VIA_SDK; both answers must be equal, the first from the lane. */
async function sameOnBothPaths(method: string, params: Record<string, unknown> | undefined): Promise<Omit<Answer, 'id'>> {
  const lane = await server.request(method, params);
  const sdk = await server.request(method, { ...params, ...VIA_SDK });
  assert.equal(await server.onLane(lane.message.id as number), true, `the lane did not answer ${method} ${JSON.stringify(params)}`);
  assert.equal(await server.onLane(sdk.message.id as number), false, `the lane answered ${method} with ${JSON.stringify(VIA_SDK)}`);
  // A kept output's URI is new on every call.
  const comparable = (line: Line): string => JSON.stringify(content(line)).replace(/workspace-tools:\/\/output\/[0-9a-f-]+/g, 'workspace-tools://output/<id>');
  assert.deepEqual(JSON.parse(comparable(lane)), JSON.parse(comparable(sdk)), `${method} ${JSON.stringify(params)}`);
  return content(lane);
}

describe('the hot lane answers as the SDK does (2025-11-25)', () => {
  test('tools/call results: text, structured content, an image, a link to a kept output, a tool that failed', async () => {
    const read = await sameOnBothPaths('tools/call', { name: 'file-reader', arguments: { path: 'notes.txt' } });
    assert.match(JSON.stringify(read.result?.['content']), /four/);
    const status = await sameOnBothPaths('tools/call', { name: 'git-status', arguments: {} });
    assert.ok(status.result?.['structuredContent'] !== undefined, JSON.stringify(status).slice(0, 300));
    const image = await sameOnBothPaths('tools/call', { name: 'file-reader', arguments: { path: 'pixel.png' } });
    assert.match(JSON.stringify(image.result?.['content']), /"type":"image"/);
    const big = await sameOnBothPaths('tools/call', { name: 'big', arguments: {} });
    assert.match(JSON.stringify(big.result?.['content']), /"type":"resource_link"/);
    const failed = await sameOnBothPaths('tools/call', { name: 'fails' });
    assert.equal(failed.result?.['isError'], true);
    const badInput = await sameOnBothPaths('tools/call', { name: 'file-reader', arguments: { path: 5 } });
    assert.equal(badInput.result?.['isError'], true);
  });

  test('tools/call protocol errors: an unknown tool, and -32602 naming the field of bad params', async () => {
    const unknown = await sameOnBothPaths('tools/call', { name: 'no-such-tool', arguments: {} });
    assert.equal(unknown.error?.code, -32602);
    assert.match(unknown.error?.message ?? '', /^Unknown tool: no-such-tool\. Available tools: git-status, /);
    for (const [params, message] of [
      [{}, 'Invalid params for tools/call: params.name: Invalid input: expected string, received undefined'],
      [{ arguments: {} }, 'Invalid params for tools/call: params.name: Invalid input: expected string, received undefined'],
      [{ name: 5 }, 'Invalid params for tools/call: params.name: Invalid input: expected string, received number'],
      [{ name: 'file-reader', arguments: 'x' }, 'Invalid params for tools/call: params.arguments: Invalid input: expected record, received string'],
      [{ name: 'file-reader', arguments: [1] }, 'Invalid params for tools/call: params.arguments: Invalid input: expected record, received array'],
      [{ name: 'file-reader', arguments: null }, 'Invalid params for tools/call: params.arguments: Invalid input: expected record, received null'],
    ] as const) {
      assert.deepEqual((await sameOnBothPaths('tools/call', params)).error, { code: -32602, message }, JSON.stringify(params));
    }
    // Without params at all, as the SDK checks them: as {}.
    const bare = await server.request('tools/call');
    assert.deepEqual(content(bare).error, { code: -32602, message: 'Invalid params for tools/call: params.name: Invalid input: expected string, received undefined' });
  });

  test('tools/list: the page, a refused cursor, and -32602 for a cursor that is no string', async () => {
    const page = await sameOnBothPaths('tools/list', undefined);
    assert.deepEqual((page.result?.['tools'] as Array<{ name: string }>).map((tool) => tool.name).slice(-3), ['big', 'fails', 'sleepy']);
    const made = await sameOnBothPaths('tools/list', { cursor: 'made-up' });
    assert.equal(made.error?.code, -32602);
    assert.match(made.error?.message ?? '', /^Invalid cursor "made-up": it is not a cursor this server issued/);
    assert.deepEqual((await sameOnBothPaths('tools/list', { cursor: 5 })).error, { code: -32602, message: 'Invalid params for tools/list: params.cursor: expected string, received number' });
  });

  test('resources/read: a kept output, an unknown URI (-32602 with data.uri), a missing or bad uri', async () => {
    const big = await server.request('tools/call', { name: 'big', arguments: {} });
    const uri = /"uri":"(workspace-tools:\/\/output\/[^"]+)"/.exec(JSON.stringify(big.message.result))?.[1];
    assert.ok(uri !== undefined, JSON.stringify(big.message).slice(0, 300));
    const read = await sameOnBothPaths('resources/read', { uri });
    assert.match(JSON.stringify(read.result), /TAIL/);
    const unknown = await sameOnBothPaths('resources/read', { uri: 'workspace-tools://output/nope' });
    assert.deepEqual([unknown.error?.code, unknown.error?.data], [-32602, { uri: 'workspace-tools://output/nope' }]);
    assert.deepEqual((await sameOnBothPaths('resources/read', {})).error, { code: -32602, message: 'Invalid params for resources/read: params.uri: required string missing' });
    assert.deepEqual((await sameOnBothPaths('resources/read', { uri: 7 })).error, { code: -32602, message: 'Invalid params for resources/read: params.uri: expected string, received number' });
  });

  test('ping', async () => {
    assert.deepEqual(await sameOnBothPaths('ping', undefined), { jsonrpc: '2.0', result: {} });
    assert.deepEqual((await sameOnBothPaths('ping', {})).result, {});
  });

  test('_meta: a progress token alone is the lane\'s, any other _meta the SDK\'s, answered the same', async () => {
    const answer = await server.request('tools/call', { name: 'file-reader', arguments: { path: 'notes.txt' }, _meta: { progressToken: 'p1' } });
    assert.equal(await server.onLane(answer.message.id as number), true);
    assert.equal(answer.message.result?.['isError'], false);
    const other = await server.request('tools/call', { name: 'file-reader', arguments: { path: 'notes.txt' }, _meta: { progressToken: 'p2', custom: 1 } });
    assert.equal(await server.onLane(other.message.id as number), false);
    assert.deepEqual(other.message.result, answer.message.result);
  });
});

describe('the wire: lines that are no message', () => {
  test('a line that is not JSON is -32700 (also one that starts like JSON), a blank one is nothing; the server goes on', async () => {
    const before = server.lines.length;
    server.writeLine('{"jsonrpc":"2.0","id":77,"method":"tools/list"');
    server.writeLine('   ');
    server.writeLine('not json at all');
    const ping = await server.request('ping');
    assert.deepEqual(ping.message.result, {});
    await delay(100);
    const unreadable = server.lines.slice(before).filter((line) => line.message.id === null);
    assert.deepEqual(
      unreadable.map((line) => line.message.error),
      [
        { code: -32700, message: 'Parse error: the line is not JSON' },
        { code: -32700, message: 'Parse error: the line is not JSON' },
      ],
    );
  });
});

describe('the hot lane: cancellation and the handshake', () => {
  test('a cancelled call on the lane: its process ends, no answer is sent, the server goes on', async () => {
    const pidfile = path.join(repo.path, 'sleepy.pid');
    const id = server.send('tools/call', { name: 'sleepy', arguments: { pidfile } });
    const pid = await waitForPid(pidfile);
    assert.equal(isAlive(pid), true);
    server.notify('notifications/cancelled', { requestId: id, reason: 'the user stopped it' });
    assert.equal(await waitGone(pid, 5000), true, `process ${pid} still alive after cancellation`);
    const ping = await server.request('ping');
    assert.deepEqual(ping.message.result, {});
    await delay(200);
    assert.equal(
      server.lines.filter((line) => line.message.id === id).length,
      0,
      'a cancelled request is not answered',
    );
  });

  test('before initialize is answered nothing takes the lane; requests of a 2026-07-28 connection never do', async () => {
    const early = startServer(['--workspace', repo.path, '--approve-existing', '--no-history'], configHome, false);
    try {
      // A first message that is no initialize opens a 2025 connection: the SDK answers it.
      const ping = await early.request('ping');
      assert.deepEqual(ping.message.result, {});
      const list = await early.request('tools/list');
      assert.ok(Array.isArray(list.message.result?.['tools']));
      assert.equal(await early.onLane(list.message.id as number), false);
    } finally {
      await early.close();
    }
    const modern = startServer(['--workspace', repo.path, '--approve-existing', '--no-history'], configHome, false);
    try {
      const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'hot-lane-tests', version: '1' } };
      const list = await modern.request('tools/list', { _meta: envelope });
      assert.equal(list.message.result?.['resultType'], 'complete');
      const call = await modern.request('tools/call', { name: 'file-reader', arguments: { path: 'notes.txt' }, _meta: envelope });
      assert.equal(call.message.result?.['resultType'], 'complete');
      assert.equal(await modern.onLane(call.message.id as number), false);
      const bad = await modern.request('tools/call', { arguments: {}, _meta: envelope });
      assert.deepEqual(bad.message.error, { code: -32602, message: 'Invalid params for tools/call: params.name: Invalid input: expected string, received undefined' });
    } finally {
      await modern.close();
    }
  });
});
