// The call history file on its own: what a record keeps of a call, batched writes through one
// open file that follows the path when the file is rotated, removed or replaced by another
// process, the bounded queue that drops the oldest records and says so, rotation and its bound,
// the lock, the records written at exit, and the file mode.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { CallRecord } from '../../../src/core/history/call-record';
import { OUTPUT_KEPT_CHARS } from '../../../src/core/history/call-record';
import { rotateIfNeeded } from '../../../src/core/history/rotate-history';
import { formatRecord } from '../../../src/core/history/format-record';
import { recordDocument } from '../../../src/extension/view-text/call-record-text';
import type { FinishedCall } from '../../../src/core/history/finished-call';
import { finishedCall } from '../../../src/core/history/finished-call';
import type { HistoryLimits } from '../../../src/core/history/history-file';
import { DEFAULT_HISTORY_LIMITS, HistoryFile } from '../../../src/core/history/history-file';
import { keptChunksAllocated } from '../../../src/core/history/kept-bytes';
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

/** A record's whole line as the history would write it, newline included. */
function lineOf(finished: FinishedCall): string {
  return Buffer.concat(finished.parts()).toString();
}

function readRecords(file: string): CallRecord[] {
  return readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as CallRecord);
}

const limits = (overrides: Partial<HistoryLimits>): HistoryLimits => ({ ...DEFAULT_HISTORY_LIMITS, ...overrides });

/**
 * What `read` gives once it holds `count` entries, or after `timeoutMs` of real time when it never
 * does: turns of the event loop, not timers (a test may have mocked them), with the disk's writes between.
 */
async function writtenWhenSettled<T>(read: () => T[], count: number, timeoutMs = 10_000): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  let seen = read();
  while (seen.length < count && Date.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
    seen = read();
  }
  return seen;
}

describe('what the history keeps of a call', () => {
  test('the record is taken when the call ends: the output cut to OUTPUT_KEPT_CHARS, the size counting the whole, the input redacted', async () => {
    const text = `${'é'.repeat(OUTPUT_KEPT_CHARS)}tail`;
    const input = { path: 'a', apiToken: 'tok-123', nested: { password: 'pw' } };
    const details = { ran: 'run big', exitCode: 0 };
    const finished = finishedCall('big', input, { text, isError: false, details }, { door: 'mcp', started: Date.UTC(2026, 0, 2), durationMs: 1.234, workspace: '/ws' });
    // What the model sent, or the result's details, change afterwards (the head is serialized
    // only when the batch is written): the record keeps what they were when the call ended.
    input.path = 'changed';
    details.ran = 'changed';
    details.exitCode = 1;
    const kept = `${'é'.repeat(OUTPUT_KEPT_CHARS)}\n[cut in the history at ${OUTPUT_KEPT_CHARS} characters]`;
    const taken = JSON.parse(lineOf(finished)) as CallRecord;
    assert.equal(taken.output, kept);
    assert.equal(taken.outputBytes, Buffer.byteLength(text));
    assert.ok(lineOf(finished).endsWith('}\n'), 'one line, its newline included');
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
      output: kept,
    });
  });

  test('a record\'s line is valid JSON whatever the output and input hold; absent fields are left out', async () => {
    const output = 'quotes " back\\ newline\n tab\t nul \u0000 DEL \u007f é 𝄞 lone \udc00 end';
    const finished = finishedCall('odd', { text: output }, { text: output, isError: true }, { door: 'lm', started: Date.UTC(2026, 0, 2), durationMs: 3, workspace: undefined });
    const history = new HistoryFile(path.join(dir.path, 'history.jsonl'), recordingLogger());
    history.record(finished);
    await history.flush();
    const [record] = readRecords(history.file);
    assert.deepEqual(record, { time: '2026-01-02T00:00:00.000Z', door: 'lm', tool: 'odd', input: { text: output }, durationMs: 3, outputBytes: Buffer.byteLength(output), isError: true, output });
  });

  test('an input JSON cannot hold (a BigInt, a cycle, a getter that throws) is left out of the record; the call is recorded and nothing throws', async () => {
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle['self'] = cycle;
    const throwing = Object.defineProperty({}, 'secret', { enumerable: true, get: () => { throw new Error('no reading this'); } });
    const history = new HistoryFile(path.join(dir.path, 'history.jsonl'), recordingLogger());
    for (const [name, input] of [['bigint', { count: 10n }], ['cycle', cycle], ['getter', throwing]] as const) {
      history.record(call(name, `output of ${name}`, input));
    }
    history.record(call('plain'));
    await history.flush();
    const records = readRecords(history.file);
    assert.deepEqual(records.map((record) => record.tool), ['bigint', 'cycle', 'getter', 'plain']);
    for (const record of records.slice(0, 3)) {
      assert.match(String(record.input), /^\[not recorded: .+\]$/, record.tool);
      assert.equal(record.output, `output of ${record.tool}`);
    }
    assert.match(String(records[2]?.input), /no reading this/);
    assert.deepEqual(records[3]?.input, { name: 'plain' });
  });

  test('outputs waiting as bytes in shared chunks are each written exactly: many records of every size, multibyte text, across chunk boundaries', async () => {
    const history = new HistoryFile(path.join(dir.path, 'history.jsonl'), recordingLogger(), limits({ batchMs: 60_000 }));
    const outputs = Array.from({ length: 120 }, (_, index) => `${index}:${'é✓"\n'.repeat((index * 97) % 4_000)}${'x'.repeat(index)}`);
    outputs.forEach((output, index) => history.record(call(`c${index}`, output)));
    await history.flush();
    assert.deepEqual(readRecords(history.file).map((record) => record.output), outputs);
    await history.close();
  });

  test('records waiting to be written do not keep the whole results alive', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const history = new HistoryFile(path.join(dir.path, 'history.jsonl'), recordingLogger(), limits({ batchMs: 60_000 }));
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 40; index++) {
      // 40 distinct 1 MB results: 40 MB if their records held on to them (a slice is a view of its
      // string), or to their details, which hold the whole output for some tools (HTTP's stdout).
      const text = String(index).padEnd(1_000_000, 'x');
      history.record(finishedCall(`read-${index}`, { index }, { text, isError: false, details: { ran: 'GET /', httpStatus: 200, stdout: text } }, { door: 'mcp', started: 0, durationMs: 1, workspace: undefined }));
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    assert.ok(grown < 8 * 1024 * 1024, `the heap grew by ${(grown / 1024 / 1024).toFixed(1)} MiB with 40 records waiting`);
    await history.flush();
    assert.equal(readRecords(history.file).length, 40);
  });
});

describe('hostile inputs: what reaches the history file', () => {
  test('a secret-named value deeper than the redaction walks is not written: the too-deep part is left out', async () => {
    // A model can nest its input as deep as it likes: 40 levels, a token at the bottom.
    let input: Record<string, unknown> = { apiToken: 'tok-deep-secret', note: 'ghp_' + 'a'.repeat(36) };
    for (let level = 0; level < 40; level++) {
      input = { level: input };
    }
    const history = new HistoryFile(path.join(dir.path, 'history.jsonl'), recordingLogger());
    history.record(call('deep', 'out', input));
    await history.flush();
    const text = readFileSync(history.file, 'utf8');
    assert.doesNotMatch(text, /tok-deep-secret/);
    assert.doesNotMatch(text, /ghp_a{36}/);
    assert.match(text, /deeper than 32 levels/);
  });

  test('an input whose toJSON renames its fields is redacted by the names it is written under', async () => {
    class Credentials {
      constructor(private readonly value: string) {}
      toJSON(): Record<string, string> {
        return { password: this.value, user: 'me' };
      }
    }
    const history = new HistoryFile(path.join(dir.path, 'history.jsonl'), recordingLogger());
    history.record(call('login', 'ok', { login: new Credentials('hunter2') }));
    await history.flush();
    const [record] = readRecords(history.file);
    assert.deepEqual(record?.input, { login: { password: '***', user: 'me' } });
    assert.doesNotMatch(readFileSync(history.file, 'utf8'), /hunter2/);
  });

  test('a getter that answers differently each time it is read is read once, when the call ends', async () => {
    let reads = 0;
    const input = Object.defineProperty({}, 'path', { enumerable: true, get: () => `read-${++reads}` });
    const history = new HistoryFile(path.join(dir.path, 'history.jsonl'), recordingLogger());
    history.record(call('getter', 'out', input));
    await history.flush();
    assert.deepEqual(readRecords(history.file)[0]?.input, { path: 'read-1' });
    assert.equal(reads, 1);
  });

  test('a huge input is written whole and soon, and a nesting too deep for JSON loses only its own input', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    const history = new HistoryFile(file, recordingLogger(), limits({ batchMs: 60_000 }));
    const huge = 'x'.repeat(2 * 1024 * 1024);
    let abyss: unknown = 'bottom';
    for (let level = 0; level < 200_000; level++) {
      abyss = [abyss];
    }
    history.record(call('abyss', 'out', { abyss }));
    history.record(call('huge', 'out', { huge }));
    // 2 MB waiting is past batchBytes: written without waiting out the minute.
    const until = Date.now() + 5_000;
    while (!existsSync(file) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(existsSync(file), 'a 2 MB input waited for its batch a minute away');
    await history.close();
    const records = readRecords(file);
    assert.deepEqual(records.map((record) => record.tool), ['abyss', 'huge']);
    assert.match(String(records[0]?.input), /^\[not recorded: .*call stack/i);
    assert.equal((records[1]?.input as { huge: string }).huge.length, huge.length);
  });
});

describe('writing', () => {
  test('the memory of written outputs is filled again, and no record reads another\'s output', async () => {
    const history = new HistoryFile(path.join(dir.path, 'history.jsonl'), recordingLogger(), limits({ maxPending: 10, maxBytes: 64 * 1024 * 1024 }));
    const outputOf = (index: number): string => `${String(index).padStart(6, '0')} ${'é✓'.repeat(1500 + (index % 97))}`;
    let index = 0;
    /** 20 calls end, then the history is written: 10 of them wait at most (maxPending), the first 10 are dropped. */
    const batch = async (): Promise<void> => {
      for (const end = index + 20; index < end; index++) {
        history.record(call(`t${index}`, outputOf(index)));
      }
      await history.flush();
    };
    // Warm up: the chunks a batch of this size needs.
    for (let round = 0; round < 3; round++) {
      await batch();
    }
    const before = keptChunksAllocated();
    // 60 batches: 1,200 outputs of ~9-10 KB, 600 written (~6 MB) and 600 dropped.
    for (let round = 0; round < 60; round++) {
      await batch();
    }
    assert.ok(keptChunksAllocated() - before <= 1, `${keptChunksAllocated() - before} new chunks for 6 MB of outputs written in batches`);
    const records = readRecords(history.file);
    assert.equal(records.length, 63 * 10);
    for (const [position, record] of records.entries()) {
      const index = Number(record.tool.slice(1));
      assert.equal(index % 20 >= 10, true, `${record.tool} was one of the 10 dropped`);
      assert.equal(record.dropped, index % 20 === 10 ? 10 : undefined, record.tool);
      assert.equal(record.output, outputOf(index), `${record.tool} (line ${position + 1})`);
    }
  });

  test('the memory of outputs is filled again when the history cannot be written, and after records written at exit', async () => {
    const unwritable = new HistoryFile(dir.path, recordingLogger());
    const exiting = new HistoryFile(path.join(dir.path, 'exit.jsonl'), recordingLogger(), limits({ batchMs: 60_000 }));
    const output = 'x'.repeat(10_000);
    const rounds = async (count: number): Promise<void> => {
      for (let round = 0; round < count; round++) {
        for (let index = 0; index < 50; index++) {
          unwritable.record(call(`u${index}`, output));
          exiting.record(call(`e${index}`, output));
        }
        await unwritable.flush();
        exiting.writePendingSync();
      }
    };
    await rounds(2);
    const before = keptChunksAllocated();
    // 40 rounds of 2 x 50 outputs of 10 KB: 40 MB through the chunks.
    await rounds(40);
    assert.ok(keptChunksAllocated() - before <= 1, `${keptChunksAllocated() - before} new chunks`);
    assert.equal(readRecords(exiting.file).length, 42 * 50);
  });

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

  test('records waiting are written before batchMs once they hold batchBytes, and a steady stream of them does not put the write off', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    // maxBytes out of the way: the stream below writes tens of megabytes, and rotation is not tested here.
    const history = new HistoryFile(file, recordingLogger(), limits({ batchMs: 60_000, batchBytes: 64 * 1024, maxBytes: 1024 ** 4 }));
    history.record(call('small'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(existsSync(file), false, 'a record holding less than batchBytes waits for batchMs');
    // Past batchBytes, a record every 0.2 ms for 150 ms, the loop never idle long enough for a
    // timer of its own: the batch must not be put off by each new record. (About 750 records,
    // under the 1,000-record queue however slowly a loaded machine writes.)
    const until = performance.now() + 150;
    let index = 0;
    let next = performance.now();
    let writtenWhileCalling = false;
    while (performance.now() < until) {
      if (performance.now() >= next) {
        history.record(call(`big-${index++}`, 'x'.repeat(4 * 1024)));
        next += 0.2;
        writtenWhileCalling ||= existsSync(file) && statSync(file).size > 0;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(writtenWhileCalling, 'records holding batchBytes were not written while calls went on');
    await history.close();
    assert.deepEqual(readRecords(file).map((record) => record.tool), ['small', ...Array.from({ length: index }, (_, at) => `big-${at}`)]);
  });

  test('a batch timer is set by the first record waiting: later records do not put it off, and a full batch brings it forward', async (t) => {
    // Mocked setTimeout: the timer's place in time is read exactly, however loaded the machine.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const file = path.join(dir.path, 'history.jsonl');
    const history = new HistoryFile(file, recordingLogger(), limits({ batchMs: 250, batchBytes: 2048 }));
    // Whole lines only: the file is read while a batch may still be going into it.
    const written = (): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(0, -1).map((line) => (JSON.parse(line) as CallRecord).tool) : []);
    history.record(call('first'));
    t.mock.timers.tick(200);
    history.record(call('second'));
    t.mock.timers.tick(49);
    assert.deepEqual(await writtenWhenSettled(written, 1, 200), [], 'written before batchMs');
    t.mock.timers.tick(1);
    assert.deepEqual(await writtenWhenSettled(written, 2), ['first', 'second'], 'a record 200 ms into the batch put the batch off');
    history.record(call('small'));
    t.mock.timers.tick(10);
    history.record(call('large', 'x'.repeat(4096)));
    t.mock.timers.tick(1);
    assert.deepEqual(await writtenWhenSettled(written, 4), ['first', 'second', 'small', 'large'], 'a full batch waited for the timer set before it');
    await history.close();
  });

  test('a fast stream of small records is written in batches of a quarter of maxPending: none is dropped while the disk keeps up', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    const logger = recordingLogger();
    const history = new HistoryFile(file, logger, limits({ batchMs: 60_000 }));
    // 1.5 times the queue within one batchMs, at about 10 calls a millisecond (fast calls of a
    // busy client): ten, then a timer's turn. Not one a turn: at ~100 a millisecond a write slowed
    // by a loaded machine lets the queue fill, which is the disk falling behind, not this case.
    const count = DEFAULT_HISTORY_LIMITS.maxPending * 1.5;
    for (let index = 0; index < count; index++) {
      history.record(call(`c${index}`));
      if (index % 10 === 9) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    await history.close();
    const records = readRecords(file);
    assert.equal(records.length, count);
    assert.equal(records.filter((record) => record.dropped !== undefined).length, 0);
    assert.deepEqual(logger.warnings, []);
  });

  test('docs/mcp-server.md states the limits the history has: its batch window and size, its queue, its rotation', () => {
    const docs = readFileSync(path.resolve(__dirname, '../../../../docs/mcp-server.md'), 'utf8').replace(/\s+/g, ' ');
    const { batchMs, batchBytes, maxPending, maxBytes } = DEFAULT_HISTORY_LIMITS;
    assert.ok(docs.includes(`in batches of the calls that end within ${batchMs} ms, or sooner once those waiting hold ${batchBytes / 1024 ** 2} MB or number ${maxPending / 4}`), 'the batch window and size');
    assert.ok(docs.includes(`loses the calls of its last ${batchMs} ms`), 'what a crash loses');
    assert.ok(docs.includes(`${maxPending.toLocaleString('en-US')} records wait`), 'the queue');
    assert.ok(docs.includes(`Past ${maxBytes / 2 / 1024 ** 2} MB the file is renamed`), 'the rotation');
  });

  test('a batch of many chunks, and a record larger than a chunk, are written whole and in order', async () => {
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

  test('records that end while a batch is written wait for the next batch, not for the write to finish', { skip: process.platform === 'win32' ? 'named pipes differ on Windows' : false }, async () => {
    // A named pipe as the file: the first batch's write waits until the test reads, so the second
    // record ends while a batch is being written.
    const file = path.join(dir.path, 'history.jsonl');
    execFileSync('mkfifo', [file]);
    const batchMs = 400;
    const history = new HistoryFile(file, recordingLogger(), limits({ batchMs }));
    history.record(call('first'));
    await new Promise((resolve) => setTimeout(resolve, batchMs + 100));
    history.record(call('second'));
    const arrivals: Array<{ readonly at: number; readonly tools: string[] }> = [];
    const reader = createReadStream(file);
    reader.on('data', (chunk) => arrivals.push({ at: performance.now(), tools: [...chunk.toString().matchAll(/"tool":"(\w+)"/g)].map((match) => match[1] ?? '') }));
    const closed = new Promise<void>((resolve) => reader.on('close', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, batchMs * 2));
    await history.close();
    await closed;
    assert.deepEqual(arrivals.flatMap((arrival) => arrival.tools), ['first', 'second']);
    const [first, second] = arrivals;
    assert.ok(first !== undefined && second !== undefined, 'the two records came in one write');
    assert.ok(second.at - first.at >= batchMs * 0.75, `the second record was written ${Math.round(second.at - first.at)} ms after the first batch, within batchMs (${batchMs} ms)`);
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

describe('rotation', () => {
  test('past half of maxBytes the file is renamed to <file>.1 and a new one begun: both stay within the cap, owner-only, and read() takes the newest from both', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    const history = new HistoryFile(file, recordingLogger(), limits({ maxBytes: 4_000 }));
    const sizeOf = (name: string): number => (existsSync(name) ? statSync(name).size : 0);
    let recordSize = 0;
    for (let index = 0; index < 40; index++) {
      history.record(call(`c${index}`));
      // One record a batch, as calls a moment apart are: the bound is checked after each batch.
      await history.flush();
      recordSize ||= sizeOf(file);
      assert.ok(sizeOf(file) <= 2_000, `${sizeOf(file)} bytes in the current file after c${index}`);
      assert.ok(sizeOf(`${file}.1`) <= 2_000 + recordSize, `${sizeOf(`${file}.1`)} bytes in the rotated file after c${index}`);
    }
    assert.ok(existsSync(`${file}.1`), 'never rotated');
    assert.equal(existsSync(`${file}.2`), false);
    if (process.platform !== 'win32') {
      assert.equal(statSync(`${file}.1`).mode & 0o777, 0o600);
    }
    // The two files hold the newest records, in order, with none missing between them.
    const current = existsSync(file) ? readRecords(file) : [];
    const kept = [...readRecords(`${file}.1`), ...current].map((record) => record.tool);
    assert.ok(kept.length >= 8, `${kept.length} records kept`);
    assert.deepEqual(kept, Array.from({ length: kept.length }, (_, index) => `c${40 - kept.length + index}`));
    assert.deepEqual((await history.read(1_000)).map((record) => record.tool), [...kept].reverse());
    assert.deepEqual((await history.read(3)).map((record) => record.tool), ['c39', 'c38', 'c37']);
    await history.close();
  });

  test('a batch larger than half the cap is written whole, then rotated: no record is cut or lost', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    const history = new HistoryFile(file, recordingLogger(), limits({ maxBytes: 4_000 }));
    for (let index = 0; index < 30; index++) {
      history.record(call(`c${index}`));
    }
    await history.flush();
    assert.deepEqual(readRecords(`${file}.1`).map((record) => record.tool), Array.from({ length: 30 }, (_, index) => `c${index}`));
    assert.equal(existsSync(file), false, 'the next record begins the new file');
    history.record(call('next'));
    await history.flush();
    assert.deepEqual((await history.read(2)).map((record) => record.tool), ['next', 'c29']);
  });

  test('two writers on one file (a window and the server it starts): whichever rotates, every record is read back', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    const one = new HistoryFile(file, recordingLogger(), limits({ maxBytes: 6_000 }));
    const two = new HistoryFile(file, recordingLogger(), limits({ maxBytes: 6_000 }));
    const tools: string[] = [];
    for (let index = 0; index < 12; index++) {
      for (const [name, writer] of [['one', one], ['two', two]] as const) {
        tools.push(`${name}-${index}`);
        writer.record(call(`${name}-${index}`));
        await writer.flush();
      }
    }
    const read = (await one.read(1_000)).map((record) => record.tool).reverse();
    assert.ok(read.length >= 10, `${read.length} records read`);
    assert.deepEqual(read, tools.slice(-read.length), 'the newest records, in order, none missing');
    await Promise.all([one.close(), two.close()]);
  });

  test('rotation waits for the lock another writer holds, and is checked again under it', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    writeFileSync(`${file}.lock`, 'another process\n');
    const history = new HistoryFile(file, recordingLogger(), limits({ maxBytes: 2_000 }));
    for (let index = 0; index < 20; index++) {
      history.record(call(`c${index}`));
    }
    const flushed = history.flush();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(existsSync(`${file}.1`), false, 'rotated while another writer held the lock');
    assert.equal(readRecords(file).length, 20);
    rmSync(`${file}.lock`);
    await flushed;
    assert.equal(readRecords(`${file}.1`).length, 20);
    // Another process rotated it meanwhile: the path names a small file, which is kept.
    writeFileSync(file, `${JSON.stringify({ tool: 'small' })}\n`);
    assert.equal(await rotateIfNeeded(file, 2_000), false);
    assert.equal(readRecords(`${file}.1`).length, 20);
  });

  test('read(): lines cut by a crash are skipped in both files, and a missing file is an empty history', async () => {
    const file = path.join(dir.path, 'history.jsonl');
    const history = new HistoryFile(file, recordingLogger());
    assert.deepEqual(await history.read(), []);
    const line = (tool: string): string => lineOf(call(tool)).trimEnd();
    writeFileSync(`${file}.1`, `${line('a')}\n${line('b')}\n{"tool":"cut`);
    writeFileSync(file, `${line('c')}\n\n{"tool":"also cut\n${line('d')}`);
    assert.deepEqual((await history.read(10)).map((record) => record.tool), ['d', 'c', 'b', 'a']);
    assert.deepEqual((await history.read(3)).map((record) => record.tool), ['d', 'c', 'b']);
  });
});

describe('exit', () => {
  /** Runs `script` in a fresh Node process with HistoryFile, call() and the file in scope. */
  function runChild(script: string, file: string): { status: number | null; stderr: string } {
    const compiled = (name: string): string => JSON.stringify(path.join(__dirname, `../../../src/core/history/${name}.js`));
    const prelude = [
      `const { HistoryFile } = require(${compiled('history-file')});`,
      `const { finishedCall } = require(${compiled('finished-call')});`,
      `const file = ${JSON.stringify(file)};`,
      "const logger = { trace() {}, debug() {}, info() {}, warn(m) { console.error(m); }, error(m) { console.error(m); } };",
      "const call = (name) => finishedCall(name, { name }, { text: 'out ' + name, isError: false }, { door: 'cli', started: Date.now(), durationMs: 1, workspace: '/ws' });",
    ].join('\n');
    const run = spawnSync(process.execPath, ['-e', `${prelude}\n${script}`], { encoding: 'utf8', timeout: 20_000 });
    return { status: run.status, stderr: run.stderr };
  }

  test('a process whose work is done exits at once: the batch timer does not hold it, and what waits is written as it goes', () => {
    // `call` on the command line: the tool ran and its result was printed; the record waits for a
    // batch a minute away. The process must not wait for it (it did, for batchMs).
    const file = path.join(dir.path, 'state', 'history.jsonl');
    const started = performance.now();
    const done = runChild("const h = new HistoryFile(file, logger, { maxBytes: 1e7, maxPending: 1000, batchMs: 60000, batchBytes: 1e6 }); h.record(call('a'));", file);
    assert.equal(done.status, 0, `the process did not end by itself within ${Math.round(performance.now() - started)} ms: ${done.stderr}`);
    assert.deepEqual(readRecords(file).map((record) => record.tool), ['a']);
  });

  test('records waiting when the process exits are written before it goes: process.exit(), an uncaught exception', () => {
    const file = path.join(dir.path, 'state', 'history.jsonl');
    // A batch interval of a minute: nothing would be written before the exit but by the exit hook.
    const exited = runChild("const h = new HistoryFile(file, logger, { maxBytes: 1e7, maxPending: 1000, batchMs: 60000 }); h.record(call('a')); h.record(call('b')); process.exit(3);", file);
    assert.equal(exited.status, 3, exited.stderr);
    assert.deepEqual(readRecords(file).map((record) => [record.tool, record.input]), [['a', { name: 'a' }], ['b', { name: 'b' }]]);
    if (process.platform !== 'win32') {
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
    }
    const thrown = runChild("const h = new HistoryFile(file, logger, { maxBytes: 1e7, maxPending: 1000, batchMs: 60000 }); h.record(call('c')); setImmediate(() => { throw new Error('boom'); });", file);
    assert.equal(thrown.status, 1);
    assert.match(thrown.stderr, /boom/);
    assert.deepEqual(readRecords(file).map((record) => record.tool), ['a', 'b', 'c']);
  });

  test('records already written are not written again at exit, and a process with nothing waiting writes nothing', () => {
    const file = path.join(dir.path, 'history.jsonl');
    const flushed = runChild("const h = new HistoryFile(file, logger); h.record(call('a')); h.flush().then(() => { h.record(call('b')); process.exit(0); });", file);
    assert.equal(flushed.status, 0, flushed.stderr);
    assert.deepEqual(readRecords(file).map((record) => record.tool), ['a', 'b']);
    const idle = runChild("new HistoryFile(file + '.unused', logger); process.exit(0);", file);
    assert.equal(idle.status, 0, idle.stderr);
    assert.equal(existsSync(`${file}.unused`), false);
  });

  test('an exit with records waiting for a named pipe nobody reads does not hang', { skip: process.platform === 'win32' ? 'named pipes differ on Windows' : false }, () => {
    const file = path.join(dir.path, 'history.jsonl');
    execFileSync('mkfifo', [file]);
    const started = Date.now();
    const exited = runChild("const h = new HistoryFile(file, logger, { maxBytes: 1e7, maxPending: 1000, batchMs: 60000 }); h.record(call('a')); process.exit(0);", file);
    assert.equal(exited.status, 0, exited.stderr);
    assert.ok(Date.now() - started < 10_000);
  });
});
