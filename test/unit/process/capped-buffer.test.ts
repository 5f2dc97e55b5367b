import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CappedBuffer, truncationNote } from '../../../src/core/process/capped-buffer';

describe('CappedBuffer', () => {
  test('keeps everything under the cap, with no note', () => {
    const buffer = new CappedBuffer(10);
    buffer.push(Buffer.from('hello'));
    buffer.push(Buffer.from('world'));
    assert.equal(buffer.text(), 'helloworld');
    assert.equal(buffer.droppedBytes, 0);
  });

  test('cuts at the cap and counts the rest: a flag, not a note in the text', () => {
    const buffer = new CappedBuffer(4);
    buffer.push(Buffer.from('abc'));
    buffer.push(Buffer.from('defgh'));
    buffer.push(Buffer.from('ij'));
    assert.equal(buffer.droppedBytes, 6);
    assert.equal(buffer.text(), 'abcd');
    assert.equal(truncationNote(buffer.droppedBytes, 4), '[output truncated: 6 more bytes were not captured (cap 4 bytes)]');
  });

  test('does not end truncated text in half a UTF-8 character', () => {
    const buffer = new CappedBuffer(5);
    buffer.push(Buffer.from('ab€€')); // € is 3 bytes: the cap falls inside the second one
    assert.equal(buffer.text(), 'ab€');
  });
});
