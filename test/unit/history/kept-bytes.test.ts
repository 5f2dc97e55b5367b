// The memory records wait in until written: each line's bytes stay its own until released, a
// chunk is filled again only once every line in it is released, and releasing twice is harmless.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keptChunksAllocated, keptLine } from '../../../src/core/history/kept-bytes';

describe('kept lines', () => {
  test('a line is its parts one after the other, in UTF-8', () => {
    const line = keptLine('{"a":', '"é✓𝄞"', '}\n');
    assert.equal(line.line.toString('utf8'), '{"a":"é✓𝄞"}\n');
    line.release();
  });

  test('a line released twice does not free a chunk another line still waits in', () => {
    const first = keptLine('a'.repeat(1000));
    const second = keptLine('b'.repeat(1000));
    first.release();
    first.release();
    // Were the chunk taken as empty, the next line would be written over the second's bytes.
    const third = keptLine('c'.repeat(2000));
    assert.equal(second.line.toString(), 'b'.repeat(1000));
    assert.equal(third.line.toString(), 'c'.repeat(2000));
    second.release();
    third.release();
  });

  test('a chunk whose lines are all released is filled again', () => {
    const warm = keptLine('w');
    warm.release();
    const before = keptChunksAllocated();
    for (let round = 0; round < 200; round++) {
      const lines = Array.from({ length: 20 }, (_, index) => keptLine(`${round}:${index}:`, 'x'.repeat(10_000)));
      lines.forEach((line, index) => assert.ok(line.line.toString().startsWith(`${round}:${index}:`)));
      lines.forEach((line) => line.release());
    }
    // 40 MB of lines through the same memory.
    assert.ok(keptChunksAllocated() - before <= 1, `${keptChunksAllocated() - before} new chunks`);
  });

  test('a line too long for a chunk has bytes of its own, and releasing it is harmless', () => {
    const long = keptLine('é'.repeat(100_000));
    assert.equal(long.line.toString(), 'é'.repeat(100_000));
    long.release();
    long.release();
  });
});
