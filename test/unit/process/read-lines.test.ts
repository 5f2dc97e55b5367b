// runProcessLines: output reaches the reader line by line, and the program is killed (not just
// no longer read) once the reader has enough: `yes` never ends on its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runProcessLines } from '../../../src/core/process/read-lines';
import { isAlive } from '../helpers/processes';

const base = { cwd: process.cwd(), env: process.env, timeoutMs: 10_000, maxOutputBytes: 1024, processGroup: false } as const;

test('the reader stops an endless program: it is killed, the run is not a cancellation', { skip: process.platform === 'win32' }, async () => {
  const lines: string[] = [];
  let pid: number | undefined;
  const { outcome, stoppedEarly } = await runProcessLines(
    { ...base, file: 'sh', args: ['-c', 'echo $$; exec yes line'] },
    {
      onLine: ({ text }) => {
        pid ??= Number(text);
        lines.push(text);
        return lines.length < 5;
      },
    },
  );
  assert.equal(stoppedEarly, true);
  assert.equal(outcome.cancelled, false);
  assert.equal(outcome.timedOut, false);
  assert.deepEqual(lines.slice(1), ['line', 'line', 'line', 'line']);
  assert.ok(outcome.durationMs < 5_000, `took ${outcome.durationMs} ms`);
  assert.ok(pid !== undefined && pid > 0);
  assert.equal(isAlive(pid), false, 'the program still runs after the reader had enough');
});

test('a line longer than the cap is cut and flagged; the next line is whole', async () => {
  const seen: { text: string; cut: boolean }[] = [];
  const { stoppedEarly } = await runProcessLines(
    { ...base, file: process.execPath, args: ['-e', 'process.stdout.write("x".repeat(100000) + "\\nshort\\n")'] },
    { maxLineBytes: 10, onLine: (line) => (seen.push(line), true) },
  );
  assert.equal(stoppedEarly, false);
  assert.deepEqual(seen, [{ text: 'x'.repeat(10), cut: true }, { text: 'short', cut: false }]);
});
