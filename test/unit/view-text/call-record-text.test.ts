import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallRecord } from '../../../src/core/history/call-record';
import { doorLabel, hiddenTestsNote, recordDescription, recordDocument, recordTitle, shownRecords } from '../../../src/extension/view-text/call-record-text';
import { titleTime } from '../../../src/extension/view-text/local-time';

const started = new Date(2026, 10, 24, 23, 10, 47);
const record: CallRecord = {
  time: started.toISOString(),
  door: 'run-tool',
  tool: 'list-todos',
  input: { pattern: 'TODO' },
  ran: 'grep -rn TODO .',
  exitCode: 0,
  durationMs: 12.4,
  outputBytes: 20,
  isError: false,
  output: 'src/a.ts:1: TODO',
};

describe('the History view in the person\'s words', () => {
  test('where a call came from, without the code\'s jargon', () => {
    assert.deepEqual(['lm', 'mcp', 'run-tool', 'test', 'cli', 'future'].map(doorLabel), ['chat', 'chat (MCP)', 'Run Tool', 'test', 'terminal', 'future']);
    assert.equal(recordDescription(record, 'en-US', started), 'Run Tool · exit 0 · 12 ms · 11:10:47 PM');
    assert.doesNotMatch(recordDocument(record, 'en-US'), /run-tool|door/);
    assert.match(recordDocument(record, 'en-US'), /- From: Run Tool/);
  });

  test('tab titles carry the local time in the locale\'s format, never UTC ISO and never a "/"', () => {
    assert.equal(recordTitle(record, 'en-US', started), 'list-todos · 11:10:47 PM');
    assert.equal(recordTitle(record, 'de-DE', started), 'list-todos · 23:10:47');
    const nextDay = new Date(2026, 10, 25, 9, 0, 0);
    assert.equal(titleTime(started, 'en-US', nextDay), '11\u221524\u221526, 11:10:47 PM');
    assert.doesNotMatch(recordTitle(record, 'en-US', nextDay), /\/|T\d\d:|Z$/);
  });

  test('test runs are left out of the list unless asked for, and counted', () => {
    const records: CallRecord[] = [
      { ...record, door: 'test', tool: 't1' },
      { ...record, door: 'lm', tool: 'chat-call' },
      { ...record, door: 'test', tool: 't2' },
      { ...record, door: 'run-tool', tool: 'run-call' },
      { ...record, door: 'mcp', tool: 'mcp-call' },
    ];
    const hidden = shownRecords(records, { showTests: false, limit: 2 });
    assert.deepEqual(hidden.records.map((shown) => shown.tool), ['chat-call', 'run-call']);
    assert.equal(hidden.hidden, 2);
    assert.equal(hiddenTestsNote(hidden.hidden), '2 test runs hidden');
    assert.equal(hiddenTestsNote(1), '1 test run hidden');
    assert.equal(hiddenTestsNote(0), undefined);
    const all = shownRecords(records, { showTests: true, limit: 10 });
    assert.deepEqual([all.records.length, all.hidden], [5, 0]);
  });
});
