// How a batch's lines are handed to one writev: views that follow one another in memory joined,
// and what is left after a write that took only part of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adjacentJoined, after } from '../../../src/core/history/append-handle';

/** Lines as the history holds them: views of two chunks, one after the other, and a line of its own. */
function lines(): Buffer[] {
  const chunk = Buffer.from('aaaa\nbbb\ncc\n');
  const other = Buffer.from('dd\neee\n');
  return [chunk.subarray(0, 5), chunk.subarray(5, 9), chunk.subarray(9, 12), Buffer.from('{"dropped":2,'), other.subarray(0, 3), other.subarray(3, 7), Buffer.alloc(0)];
}

test('views that follow one another in the same memory are joined; the bytes are the same, in order', () => {
  const joined = adjacentJoined(lines());
  assert.equal(Buffer.concat(joined).toString(), Buffer.concat(lines()).toString());
  assert.deepEqual(joined.map((buffer) => buffer.toString()), ['aaaa\nbbb\ncc\n', '{"dropped":2,', 'dd\neee\n']);
});

test('after a write of any length, what is left is exactly the rest', () => {
  const whole = Buffer.concat(lines());
  for (let written = 0; written <= whole.length; written++) {
    const left = after(adjacentJoined(lines()), written);
    assert.equal(Buffer.concat(left).toString(), whole.subarray(written).toString(), `after ${written} bytes`);
    assert.ok(left.every((buffer) => buffer.length > 0), `no empty buffer left after ${written} bytes`);
  }
});
