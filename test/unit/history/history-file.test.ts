// The call history file on its own: what a record keeps of a call, batched writes through one
// open file that follows the path when the file is rotated, removed or compacted by another
// process, the bounded queue that drops the oldest records and says so, compaction, the lock,
// and the file mode.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { CallRecord } from '../../../src/core/history/call-record';
import { OUTPUT_KEPT_CHARS } from '../../../src/core/history/call-record';
import { compactIfNeeded, keptStart } from '../../../src/core/history/compact-history';
import { formatRecord } from '../../../src/core/history/format-record';
import { recordDocument } from '../../../src/extension/view-text/call-record-text';
import type { FinishedCall } from '../../../src/core/history/finished-call';
import { finishedCall } from '../../../src/core/history/finished-call';
import type { HistoryLimits } from '../../../src/core/history/history-file';
import { DEFAULT_HISTORY_LIMITS, HistoryFile } from '../../../src/core/history/history-file';
import type { Logger } from '../../../src/core/types';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('wt-history-file-');
});
afterEach(() => dir.cleanup());

/** A logger that keeps its warnings. */
function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const keep = (message: string): void => {
    warnings.push(message);
  };
  return { warnings, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: keep, error: keep };
}

function call(name: string, text = `output of ${name}`, input: unknown = { name }): FinishedCall {
  return finishedCall(name, input, { text, isError: false, details: { ran: `run ${name}`, exitCode: 0 } }, { door: 'mcp', started: Date.UTC(2026, 0, 2), durationMs: 1.234, workspace: '/ws' });
}

function readRecords(file: string): CallRecord[] {
  return readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as CallRecord);
}

const limits = (overrides: Partial<HistoryLimits>): HistoryLimits => ({ ...DEFAULT_HISTORY_LIMITS, ...overrides });

describe('what the history keeps of a call', () => {
  test('the output is cut to OUTPUT_KEPT_CHARS when the call ends; the size counts the whole; the input is redacted when written', async () => {
    const text = `${'é'.repeat(OUTPUT_KEPT_CHARS)}tail`;
    const finished = call('big', text, { path: 'a', apiToken: 'tok-123', nested: { password: 'pw' } });
    assert.equal(finished.output, `${'é'.repeat(OUTPUT_KEPT_CHARS)}\n[cut in the history at ${OUTPUT_KEPT_CHARS} characters]`);
    assert.equal(finished.outputBytes, Buffer.byteLength(text));
    const history = new HistoryFile(path.join(dir.path, 'history.jsonl'), recordingLogger());
    history.record(finished);
    await history.flush();
    const [record] = readRecords(history.file);
    assert.deepEqual(record, {
      time: '2026-01-02T00:00:00.000Z',
      door: 'mcp',
      tool: 'big',
      workspace: '/ws',
      input: { path: 'a', apiToken: '***', nested: { password: '***' } },
      ran: 'run big',
      exitCode: 0,
      durationMs: 1.2,
      outputBytes: Buffer.byteLength(text),
      isError: false,
      output: finished.output,
    });
  });

  test('records waiting to be written do not keep the whole results alive', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const history = new HistoryFile(path.join(dir.path, 'history.jsonl'), recordingLogger(), limits({ batchMs: 60_000 }));
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 40; index++) {
      // 40 distinct 1 MB results: 40 MB if their records held on to them (a slice is a view of its string).
      history.record(call(`read-${index}`, String(index).padEnd(1_000_000, 'x')));
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    assert.ok(grown < 8 * 1024 * 1024, `the heap grew by ${(grown / 1024 / 1024).toFixed(1)} MiB with 40 records waiting`);
    await history.flush();
    assert.equal(readRecords(history.file).length, 40);
  });
});

describe('writing', () => {
  test('records are written in order, within batchMs, owner-only, in a directory made owner-only', async () => {
    const file = path.join(dir.path, 'state', 'workspace-tools', 'history.jsonl');
    const history = new HistoryFile(file, recordingLogger(), limits({ batchMs: 30 }));
    for (const name of ['a', 'b', 'c']) {
      history.record(call(name));
    }
    assert.equal(existsSync(file), false, 'nothing is written on the call path');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(readRecords(file).map((record) => record.tool), ['a', 'b', 'c']);
    if (process.platform !== 'win32') {
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
    }
    await history.close();
  });

  test('a batch larger than the write buffer, and a record larger than it, are written whole and in order', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    const history = new HistoryFile(file, recordingLogger());
    const huge = 'é'.repeat(400_000);
    for (let index = 0; index < 100; index++) {
      history.record(call(`c${index}`, `${index}`.padEnd(10_000, 'o'), index === 50 ? { text: huge } : { index }));
    }
    await history.flush();
    const records = readRecords(file);
    assert.deepEqual(records.map((record) => record.tool), Array.from({ length: 100 }, (_, index) => `c${index}`));
    assert.deepEqual(records[50]?.input, { text: huge });
    assert.equal(records[99]?.output.length, 10_000);
  });

  test('a file rotated, removed or replaced by another process is followed: the next records go to the path', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    const history = new HistoryFile(file, recordingLogger());
    history.record(call('first'));
    await history.flush();
    renameSync(file, `${file}.1`);
    history.record(call('after-rotation'));
    await history.flush();
    assert.deepEqual(readRecords(`${file}.1`).map((record) => record.tool), ['first']);
    assert.deepEqual(readRecords(file).map((record) => record.tool), ['after-rotation']);
    rmSync(file);
    history.record(call('after-removal'));
    await history.flush();
    assert.deepEqual(readRecords(file).map((record) => record.tool), ['after-removal']);
    // What another process's compaction does: a new file renamed over the path.
    writeFileSync(`${file}.new`, `${readFileSync(file, 'utf8')}`);
    renameSync(`${file}.new`, file);
    history.record(call('after-replacement'));
    await history.flush();
    assert.deepEqual(readRecords(file).map((record) => record.tool), ['after-removal', 'after-replacement']);
    await history.close();
  });

  test('when writing falls behind, the oldest waiting records are dropped, said once in the log and in the next record', { skip: process.platform === 'win32' ? 'named pipes differ on Windows' : false }, async () => {
    // A named pipe as the file: the first write waits until the test reads it, as a stalled disk would.
    const file = path.join(dir.path, 'history.jsonl');
    execFileSync('mkfifo', [file]);
    const logger = recordingLogger();
    const history = new HistoryFile(file, logger, limits({ maxPending: 3, batchMs: 1 }));
    history.record(call('c0'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let index = 1; index <= 10; index++) {
      history.record(call(`c${index}`));
    }
    const chunks: Buffer[] = [];
    const reader = createReadStream(file);
    reader.on('data', (chunk) => chunks.push(Buffer.from(chunk)));
    await history.close();
    await new Promise<void>((resolve) => reader.on('close', () => resolve()));
    const records = Buffer.concat(chunks).toString('utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as CallRecord);
    assert.deepEqual(records.map((record) => [record.tool, record.dropped]), [['c0', undefined], ['c8', 7], ['c9', undefined], ['c10', undefined]]);
    assert.equal(logger.warnings.filter((warning) => /dropped/.test(warning)).length, 1, logger.warnings.join('\n'));
    // The `history` command and the History view say it too.
    const [, withGap] = records;
    assert.ok(withGap !== undefined);
    assert.match(formatRecord(withGap), /\n {4}7 calls just before this one are not in the history/);
    assert.match(recordDocument(withGap, 'en-US'), /\n- 7 calls just before this one are not in the history/);
  });

  test('a history that cannot be written warns once and loses nothing else', async () => {
    const blocker = path.join(dir.path, 'not-a-directory');
    writeFileSync(blocker, 'a file where a directory should be');
    const logger = recordingLogger();
    const history = new HistoryFile(path.join(blocker, 'history.jsonl'), logger);
    history.record(call('a'));
    await history.flush();
    history.record(call('b'));
    await history.flush();
    assert.equal(logger.warnings.length, 1, logger.warnings.join('\n'));
    assert.match(logger.warnings[0] ?? '', /cannot write the call history/);
  });
});

describe('compaction', () => {
  test('past maxBytes the file keeps the newest records, at most maxRecords in half the cap, owner-only', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    const history = new HistoryFile(file, recordingLogger(), limits({ maxBytes: 4_000, maxRecords: 5 }));
    for (let index = 0; index < 40; index++) {
      history.record(call(`c${index}`));
    }
    await history.flush();
    const records = readRecords(file);
    assert.ok(statSync(file).size <= 4_000, `${statSync(file).size} bytes`);
    assert.ok(records.length <= 5 && records.length > 0);
    assert.equal(records.at(-1)?.tool, 'c39');
    assert.deepEqual(records.map((record) => record.tool), records.map((_, index) => `c${40 - records.length + index}`));
    if (process.platform !== 'win32') {
      assert.equal(statSync(file).mode & 0o777, 0o600);
    }
    // Later records go to the compacted file.
    history.record(call('later'));
    await history.flush();
    assert.equal(readRecords(file).at(-1)?.tool, 'later');
  });

  test('compaction waits for the lock another writer holds', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    writeFileSync(`${file}.lock`, 'another process\n');
    const history = new HistoryFile(file, recordingLogger(), limits({ maxBytes: 2_000, maxRecords: 3 }));
    for (let index = 0; index < 20; index++) {
      history.record(call(`c${index}`));
    }
    const flushed = history.flush();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(readRecords(file).length, 20, 'compacted while another writer held the lock');
    rmSync(`${file}.lock`);
    await flushed;
    assert.deepEqual(readRecords(file).map((record) => record.tool), ['c17', 'c18', 'c19']);
  });

  test('keptStart: the newest lines in the budget, at most maxRecords, always the newest, empty lines not counted', async () => {
    const keptOf = async (text: string, maxRecords: number, budget: number): Promise<string> => {
      const content = Buffer.from(text);
      const end = text.endsWith('\n') ? content.length - 1 : content.length;
      return content.subarray(await keptStart(end, maxRecords, budget, (position) => content.lastIndexOf(0x0a, position - 1))).toString();
    };
    const text = 'aaaa\nbbbb\n\ncccc\ndddd\n';
    assert.equal(await keptOf(text, 2, 100), 'cccc\ndddd\n');
    assert.equal(await keptOf(text, 3, 100), 'bbbb\n\ncccc\ndddd\n');
    assert.equal(await keptOf(text, 10, 100), text);
    assert.equal(await keptOf(text, 10, 10), 'cccc\ndddd\n');
    assert.equal(await keptOf(text, 10, 2), 'dddd\n');
    assert.equal(await keptOf('aaaa\nbbbb', 1, 100), 'bbbb');
  });

  test('compaction reads the file backwards through a buffer smaller than a record, and keeps a newest record longer than the budget', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    const lines = ['old-1', 'old-2', 'x'.repeat(40), 'y'.repeat(30), 'newest-record-of-many-bytes'];
    writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
    // Past the cap of 50 bytes; half the cap (25) holds no record but the newest is always kept.
    assert.equal(await compactIfNeeded(file, { maxRecords: 10, maxBytes: 50 }, Buffer.alloc(7)), true);
    assert.equal(readFileSync(file, 'utf8'), 'newest-record-of-many-bytes\n');
    // No final newline (a crash cut the last write): the kept part gets one. At most maxRecords.
    writeFileSync(file, ['old-1', 'old-2', 'x'.repeat(40), 'y'.repeat(10), 'zz'].join('\n'));
    assert.equal(await compactIfNeeded(file, { maxRecords: 2, maxBytes: 60 }, Buffer.alloc(7)), true);
    assert.equal(readFileSync(file, 'utf8'), `${'y'.repeat(10)}\nzz\n`);
    assert.equal(await compactIfNeeded(file, { maxRecords: 2, maxBytes: 60 }, Buffer.alloc(7)), false);
  });
});
