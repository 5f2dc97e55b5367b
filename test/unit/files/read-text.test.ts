import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkLineRange, formatTextRange, readTextRange } from '../../../src/core/files/read-text';

const MiB = 1024 * 1024;

/** `line N` for N = 1..count, each followed by a newline. */
function numberedLines(count: number, width = 0): string {
  let text = '';
  for (let n = 1; n <= count; n += 1) {
    text += `line ${n}`.padEnd(width, '.') + '\n';
  }
  return text;
}

describe('readTextRange', () => {
  let dir = '';
  let big = '';

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wt-read-'));
    big = path.join(dir, 'big.txt');
    // 20,000 lines of 50 bytes: a 1,000,000-byte file.
    await writeFile(big, numberedLines(20_000, 49));
    await writeFile(path.join(dir, 'small.txt'), 'one\ntwo\nthree\n');
    await writeFile(path.join(dir, 'no-final-newline.txt'), 'one\r\ntwo\r\nthree');
    await writeFile(path.join(dir, 'empty.txt'), '');
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('lines 1-50 of a 1 MB file: the lines, and the note says the file goes on', async () => {
    const range = await readTextRange(big, { maxSize: MiB, startLine: 1, endLine: 50 });
    const lines = range.text.split('\n');
    assert.equal(lines.length, 51);
    assert.equal(lines[0], 'line 1'.padEnd(49, '.'));
    assert.equal(lines[49], 'line 50'.padEnd(49, '.'));
    assert.equal(range.totalLines, undefined);
    assert.match(formatTextRange(range), /\n\[lines 1-50; the file continues after line 50\]$/);
  });

  test('a middle range returns exactly those lines', async () => {
    const range = await readTextRange(big, { maxSize: MiB, startLine: 10_000, endLine: 10_002 });
    assert.deepEqual(range.text.split('\n').map((line) => line.replace(/\.+$/, '')), [
      'line 10000',
      'line 10001',
      'line 10002',
      '',
    ]);
    assert.equal(range.firstLine, 10_000);
    assert.equal(range.lastLine, 10_002);
  });

  test('endLine past the end returns to the end and says how many lines there are', async () => {
    const range = await readTextRange(path.join(dir, 'small.txt'), { maxSize: MiB, startLine: 2, endLine: 99 });
    assert.equal(range.text, 'two\nthree\n');
    assert.equal(formatTextRange(range), 'two\nthree\n[lines 2-3 of 3]');
  });

  test('a range ending on the last line knows the total without another read', async () => {
    const range = await readTextRange(path.join(dir, 'small.txt'), { maxSize: MiB, startLine: 1, endLine: 3 });
    assert.equal(formatTextRange(range), 'one\ntwo\nthree\n[lines 1-3 of 3]');
  });

  test('CRLF and a missing final newline are kept and counted right', async () => {
    const file = path.join(dir, 'no-final-newline.txt');
    const range = await readTextRange(file, { maxSize: MiB, startLine: 2 });
    assert.equal(range.text, 'two\r\nthree');
    assert.equal(formatTextRange(range), 'two\r\nthree\n[lines 2-3 of 3]');
  });

  test('a whole-file read returns the file as it is, without a note', async () => {
    const range = await readTextRange(path.join(dir, 'small.txt'), { maxSize: MiB });
    assert.equal(formatTextRange(range), 'one\ntwo\nthree\n');
  });

  test('a whole read of a file over many chunks is the file, with every line counted', async () => {
    const range = await readTextRange(big, { maxSize: MiB });
    assert.equal(range.text, numberedLines(20_000, 49));
    assert.deepEqual([range.firstLine, range.lastLine, range.totalLines, range.ranged], [1, 20_000, 20_000, false]);
    const noFinal = await readTextRange(path.join(dir, 'no-final-newline.txt'), { maxSize: MiB, startLine: 1 });
    assert.equal(formatTextRange(noFinal), 'one\r\ntwo\r\nthree\n[lines 1-3 of 3]');
  });

  test('an empty file reads as empty', async () => {
    const range = await readTextRange(path.join(dir, 'empty.txt'), { maxSize: MiB });
    assert.equal(range.text, '');
    assert.equal(range.totalLines, 0);
  });

  test('startLine past the end is an error that gives the line count', async () => {
    await assert.rejects(
      readTextRange(path.join(dir, 'small.txt'), { maxSize: MiB, startLine: 7, displayPath: 'small.txt' }),
      /startLine 7 is past the end of small\.txt, which has 3 lines/,
    );
  });

  test('a file over maxSize is refused with its size and the cap, ranged or not', async () => {
    await assert.rejects(
      readTextRange(big, { maxSize: 1000, startLine: 1, endLine: 1, displayPath: 'big.txt' }),
      /File big\.txt is 1,000,000 bytes \(976\.6 KiB\), over the 1,000 bytes limit/,
    );
  });

  test('a binary file is refused with the reason', async () => {
    const file = path.join(dir, 'image.bin');
    await writeFile(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x0a, 0x41]));
    await assert.rejects(readTextRange(file, { maxSize: MiB }), /looks binary \(it has a NUL byte in its first 8 KB\)/);
  });

  test('a directory and a FIFO are refused without blocking', async (t) => {
    await assert.rejects(readTextRange(dir, { maxSize: MiB }), /is a directory/);
    if (process.platform === 'win32') {
      t.diagnostic('no FIFOs on Windows');
      return;
    }
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(readTextRange(fifo, { maxSize: MiB }), /not a regular file/);
  });

  test('a missing file is "File not found"', async () => {
    await assert.rejects(readTextRange(path.join(dir, 'nope'), { maxSize: MiB, displayPath: 'nope' }), /File not found: nope/);
  });

  test('an aborted signal stops the read', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(readTextRange(big, { maxSize: MiB, signal: controller.signal }), { name: 'AbortError' });
  });
});

describe('checkLineRange', () => {
  test('defaults to the whole file', () => {
    assert.deepEqual(checkLineRange(), { start: 1, end: Number.POSITIVE_INFINITY });
  });

  test('refuses ranges that make no sense, saying what is wrong', () => {
    assert.throws(() => checkLineRange(0), /startLine must be a whole number of at least 1 \(got 0\)/);
    assert.throws(() => checkLineRange(1.5), /startLine must be a whole number/);
    assert.throws(() => checkLineRange(1, 0), /endLine must be a whole number of at least 1/);
    assert.throws(() => checkLineRange(10, 5), /endLine \(5\) must not be before startLine \(10\)/);
  });
});
