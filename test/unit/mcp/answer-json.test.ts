// An answer whose text the call history escaped already is written with that JSON: the bytes are
// exactly JSON.stringify's, whatever the text holds; a text the history did not keep
// whole (or another text of the same length) is serialized as usual; each kept text is taken by
// one answer, so the history holds no result's text past its answer.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { finishedCall, outputJsonOf } from '../../../src/core/history/finished-call';
import { OUTPUT_KEPT_CHARS } from '../../../src/core/history/call-record';
import { answerJson } from '../../../src/mcp/answer-json';

/** Ends a call with `text` as its output, as the registry does before the answer is written. */
function ended(text: string): void {
  finishedCall('file-reader', { path: 'a' }, { text, isError: false }, { door: 'mcp', started: 0, durationMs: 1, workspace: '/ws' });
}

const answer = (text: string, extra: Record<string, unknown> = {}): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text }], isError: false, ...extra } }) as unknown as JSONRPCMessage;

describe('answers with the text escaped once', () => {
  const texts = [
    'plain',
    'line 1\nline 2\r\n\ttabbed "quoted" back\\slash',
    'control \u0000 \u0001 \u001f and DEL \u007f',
    'unicode é ✓ 𝄞 and a lone surrogate \ud800 here',
    `${'x'.repeat(10_000)}\n`,
    'the marker itself: \u0000workspace-tools: the text escaped once\u0000',
    '',
  ];
  for (const text of texts) {
    test(`exactly JSON.stringify's bytes: ${JSON.stringify(text.slice(0, 30))}`, () => {
      for (const message of [answer(text), answer(text, { structuredContent: { text, n: 1 }, _meta: { 'workspace-tools/folder': '/ws' } })]) {
        ended(text);
        assert.equal(answerJson(message), `${JSON.stringify(message)}\n`);
      }
      ended(text);
      const withLink = { jsonrpc: '2.0', id: 'a', result: { content: [{ type: 'text', text }, { type: 'resource_link', uri: 'x://y', name: 'y' }] } } as unknown as JSONRPCMessage;
      assert.equal(answerJson(withLink), `${JSON.stringify(withLink)}\n`);
    });
  }

  test('a text the history did not keep whole, or never saw, is left to the usual serialization', () => {
    const long = 'y'.repeat(OUTPUT_KEPT_CHARS + 1);
    ended(long);
    assert.equal(outputJsonOf(long), undefined);
    assert.equal(answerJson(answer(long)), undefined);
    ended('abcd');
    assert.equal(outputJsonOf('abce'), undefined, 'another text of the same length');
    assert.equal(answerJson(answer('wxyz')), undefined);
    assert.equal(outputJsonOf(`ab${'cd'}`), '"abcd"', 'an equal text made elsewhere');
    assert.equal(outputJsonOf('abcd'), undefined, 'taken once: the history holds the text no longer');
    // A message holding the marker's JSON besides the text's place: not spliced.
    const marker = '\u0000workspace-tools: the text escaped once\u0000';
    ended(marker);
    assert.equal(answerJson(answer(marker)), `${JSON.stringify(answer(marker))}\n`);
    ended(marker);
    assert.equal(answerJson(answer(marker, { structuredContent: { marker } })), undefined);
    // Errors, notifications and results without text content.
    assert.equal(answerJson({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'abcd' } } as unknown as JSONRPCMessage), undefined);
    assert.equal(answerJson({ jsonrpc: '2.0', method: 'notifications/progress', params: { message: 'abcd' } } as unknown as JSONRPCMessage), undefined);
    assert.equal(answerJson({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'image', data: 'abcd', mimeType: 'image/png' }] } } as unknown as JSONRPCMessage), undefined);
    assert.equal(answerJson({ jsonrpc: '2.0', id: 1, result: { tools: [] } } as unknown as JSONRPCMessage), undefined);
  });

  test('calls in flight together: each of the last few outputs keeps its JSON', () => {
    const outputs = ['first output', 'second output', 'third output', 'fourth output'];
    outputs.forEach(ended);
    for (const text of outputs) {
      assert.equal(answerJson(answer(text)), `${JSON.stringify(answer(text))}\n`);
    }
  });

  test("a call's output size in UTF-8 bytes, whatever its characters need", () => {
    for (const text of ['plain', 'tab\t"quote"\n', 'é ✓ 𝄞', '\u0001\u001f', 'lone \ud800 and \udc00', '\\ud800 spelled out', `${'ü'.repeat(OUTPUT_KEPT_CHARS)}`, `${'ü'.repeat(OUTPUT_KEPT_CHARS + 1)}`]) {
      const call = finishedCall('file-reader', {}, { text, isError: false }, { door: 'mcp', started: 0, durationMs: 1, workspace: undefined });
      assert.equal((JSON.parse(Buffer.concat(call.parts()).toString()) as { outputBytes: number }).outputBytes, Buffer.byteLength(text), JSON.stringify(text.slice(0, 20)));
      call.release();
    }
  });
});
