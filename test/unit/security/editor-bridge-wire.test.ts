// The bridge's socket as a hostile or buggy local client sees it: what it may reach without the
// token, what one connection may do to another's calls, and what a caller's self-description
// may write into the window's log. A real bridge server on a real socket, raw JSON lines.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { BridgeServer } from '../../../src/core/editor-bridge/bridge-server';
import { startBridgeServer } from '../../../src/core/editor-bridge/bridge-server';
import type { BridgeCaller } from '../../../src/core/editor-bridge/protocol';
import { MAX_LINE_BYTES } from '../../../src/core/editor-bridge/protocol';
import { textResult } from '../../../src/core/types';

const TOOL = { name: 'wait', description: 'waits until cancelled, or answers at once', inputSchema: { type: 'object' as const }, tags: [], kind: 'extension' as const, handlerSummary: 'test' };

let bridge: BridgeServer;
const logged: string[] = [];
const calls: Array<{ input: unknown; caller: BridgeCaller; cancelled: boolean }> = [];
before(async () => {
  const log = (message: string): void => void logged.push(message);
  const umask = process.umask(0);
  try {
    bridge = await startBridgeServer({
      logger: { trace: log, debug: log, info: log, warn: log, error: log },
      host: {
        hello: () => ({ window: 'app', tools: [TOOL] }),
        call: async (_name, input, caller, signal) => {
          const call = { input, caller, cancelled: false };
          calls.push(call);
          if ((input as { wait?: boolean }).wait === true) {
            await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
            call.cancelled = true;
            return textResult('cancelled');
          }
          return textResult('done');
        },
      },
    });
  } finally {
    process.umask(umask);
  }
});
after(() => bridge.close());

/** A raw connection: lines out, answers in. */
class Raw {
  readonly answers: Array<Record<string, unknown>> = [];
  closed = false;
  private buffered = '';
  private readonly socket: net.Socket;
  readonly ready: Promise<void>;
  constructor(address: string) {
    this.socket = net.createConnection(address);
    this.ready = new Promise((resolve) => this.socket.once('connect', () => resolve()));
    this.socket.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString('utf8');
      const parts = this.buffered.split('\n');
      this.buffered = parts.pop() ?? '';
      this.answers.push(...parts.filter((part) => part !== '').map((part) => JSON.parse(part) as Record<string, unknown>));
    });
    this.socket.on('close', () => {
      this.closed = true;
    });
    this.socket.on('error', () => undefined);
  }
  send(message: unknown): void {
    this.socket.write(`${JSON.stringify(message)}\n`);
  }
  write(data: string | Buffer): boolean {
    return this.socket.write(data);
  }
  async until(condition: () => boolean, what: string): Promise<void> {
    const end = Date.now() + 5000;
    while (!condition()) {
      if (Date.now() > end) {
        throw new Error(`not within 5 s: ${what} (answers: ${JSON.stringify(this.answers)})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  close(): void {
    this.socket.destroy();
  }
}

test('with a umask of 0 the folder is still 0700 and the socket 0600', () => {
  assert.equal(statSync(path.dirname(bridge.address)).mode & 0o777, 0o700);
  assert.equal(statSync(bridge.address).mode & 0o777, 0o600);
});

test('a token that is not a string (a number, an array, an object, null, none) is refused and the connection closed', async () => {
  const before = calls.length;
  for (const token of [0, [bridge.token], { toString: bridge.token }, null, undefined, `${bridge.token} `, bridge.token.slice(0, -1)]) {
    const raw = new Raw(bridge.address);
    await raw.ready;
    raw.send({ id: 1, token, method: 'call', params: { name: 'wait', input: {} } });
    await raw.until(() => raw.closed, `closed after token ${JSON.stringify(token)}`);
    assert.equal((raw.answers[0]?.['error'] as { code?: string } | undefined)?.code, 'token', JSON.stringify(raw.answers));
  }
  assert.equal(calls.length, before, 'nothing ran');
});

test('one connection cannot cancel another connection\'s call', async () => {
  const a = new Raw(bridge.address);
  const b = new Raw(bridge.address);
  await Promise.all([a.ready, b.ready]);
  try {
    a.send({ id: 7, token: bridge.token, method: 'call', params: { name: 'wait', input: { wait: true, who: 'a' } } });
    await a.until(() => calls.some((call) => (call.input as { who?: string }).who === 'a'), 'a\'s call started');
    b.send({ id: 1, token: bridge.token, method: 'cancel', params: { id: 7 } });
    await b.until(() => b.answers.length === 1, 'b\'s cancel answered');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(calls.find((call) => (call.input as { who?: string }).who === 'a')?.cancelled, false);
  } finally {
    a.close();
    b.close();
  }
});

test('a call whose id is already running is refused, and closing the connection still cancels the first', async () => {
  const raw = new Raw(bridge.address);
  await raw.ready;
  raw.send({ id: 5, token: bridge.token, method: 'call', params: { name: 'wait', input: { wait: true, who: 'first' } } });
  raw.send({ id: 5, token: bridge.token, method: 'call', params: { name: 'wait', input: { who: 'second' } } });
  await raw.until(() => raw.answers.length === 1, 'the second call answered');
  assert.equal((raw.answers[0]?.['error'] as { code?: string } | undefined)?.code, 'bad-request', JSON.stringify(raw.answers));
  assert.equal(calls.some((call) => (call.input as { who?: string }).who === 'second'), false, 'the second call did not run');
  raw.close();
  const first = calls.find((call) => (call.input as { who?: string }).who === 'first');
  await raw.until(() => first?.cancelled === true, 'the first call cancelled when its connection closed');
});

test('a caller\'s program name cannot write lines or escapes into the window\'s log or history', async () => {
  const raw = new Raw(bridge.address);
  await raw.ready;
  try {
    const program = 'agent\n[bridge] forged line\r\u001b[31mred\u0007';
    raw.send({ id: 1, token: bridge.token, method: 'hello', params: { pid: 1, program } });
    raw.send({ id: 2, token: bridge.token, method: 'call', params: { name: 'wait', input: { who: 'logged' } } });
    await raw.until(() => raw.answers.length === 2, 'hello and call answered');
    const caller = calls.find((call) => (call.input as { who?: string }).who === 'logged')?.caller;
    assert.ok(caller);
    assert.doesNotMatch(caller.program, /[\u0000-\u001f\u007f]/, JSON.stringify(caller.program));
    for (const line of logged) {
      assert.doesNotMatch(line, /[\u0000-\u001f\u007f]/, JSON.stringify(line));
    }
  } finally {
    raw.close();
  }
});

test('a line longer than the limit, without the token, closes the connection', async () => {
  const raw = new Raw(bridge.address);
  await raw.ready;
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  for (let sent = 0; sent <= MAX_LINE_BYTES && !raw.closed; sent += chunk.length) {
    if (!raw.write(chunk)) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  await raw.until(() => raw.closed, 'closed');
});
