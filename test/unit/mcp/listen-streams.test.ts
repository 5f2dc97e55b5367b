// The listen streams read off the stdio connection's messages (the wire shapes serveStdio's
// listen router writes): a stream opens on the router's acknowledgement, with the honoured URIs;
// a refused listen (an error answer) opens nothing; a cancel, the router's closing result or
// the connection's close ends it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { ListenedResources } from '../../../src/core/resources/listened-resources';
import { ListenStreams } from '../../../src/mcp/listen-streams';

function listen(id: string | number, uris: string[]): JSONRPCMessage {
  return { jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: uris } } };
}

function acknowledged(id: string | number, uris: string[]): JSONRPCMessage {
  return { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { resourceSubscriptions: uris }, _meta: { [SUBSCRIPTION_ID_META_KEY]: id } } };
}

function cancelled(id: string | number): JSONRPCMessage {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } };
}

function setUp(): { listened: ListenedResources; streams: ListenStreams } {
  const listened = new ListenedResources();
  return { listened, streams: new ListenStreams(listened) };
}

describe('listen streams from the connection', () => {
  test("a stream opens on the router's acknowledgement with the honoured URIs, and ends when cancelled", () => {
    const { listened, streams } = setUp();
    streams.inbound(listen('listen:0', ['tickets://7', 'docs://guide']));
    assert.deepEqual(listened.uris(), [], 'nothing before the router accepted the stream');
    // The router narrows the filter to what the server declared: the acknowledgement is what counts.
    void streams.outbound(acknowledged('listen:0', ['tickets://7']));
    assert.deepEqual(listened.uris(), ['tickets://7']);
    streams.inbound(cancelled('listen:0'));
    assert.deepEqual(listened.uris(), []);
  });

  test('a refused listen (an error answer: over the maximum, a bad envelope, a 2025-11-25 connection) opens nothing', () => {
    const { listened, streams } = setUp();
    streams.inbound(listen(3, ['tickets://7']));
    void streams.outbound({ jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'Subscription limit reached' } });
    // An acknowledgement that answers no pending listen request is no stream either.
    void streams.outbound(acknowledged(3, ['tickets://7']));
    void streams.outbound(acknowledged('never-asked', ['tickets://8']));
    assert.deepEqual(listened.uris(), []);
  });

  test("the router's closing result, and the connection's close, end streams; other traffic changes nothing", () => {
    const { listened, streams } = setUp();
    streams.inbound(listen(1, ['a://x']));
    void streams.outbound(acknowledged(1, ['a://x']));
    streams.inbound(listen(2, ['b://y']));
    void streams.outbound(acknowledged(2, ['b://y']));
    streams.inbound({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} });
    void streams.outbound({ jsonrpc: '2.0', id: 9, result: { tools: [] } });
    streams.inbound(cancelled(9));
    void streams.outbound({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'a://x' } });
    assert.deepEqual(listened.uris(), ['a://x', 'b://y']);
    void streams.outbound({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: 1 } } });
    assert.deepEqual(listened.uris(), ['b://y']);
    streams.closed();
    assert.deepEqual(listened.uris(), []);
  });

  test('the acknowledgement is held until the named URIs are watched (an edit right after it is not lost); other messages pass at once', async () => {
    const { listened, streams } = setUp();
    let watched = (): void => undefined;
    listened.onDidChange(() => new Promise<void>((resolve) => (watched = resolve)));
    streams.inbound(listen(5, ['docs://guide']));
    const held = streams.outbound(acknowledged(5, ['docs://guide']));
    assert.ok(held !== undefined, 'the acknowledgement of a new stream is held');
    assert.equal(streams.outbound({ jsonrpc: '2.0', id: 9, result: { tools: [] } }), undefined, 'an answer is not held');
    let released = false;
    void held.then(() => (released = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(released, false, 'released before the subscription was made');
    watched();
    await held;
    assert.equal(released, true);
  });
});
