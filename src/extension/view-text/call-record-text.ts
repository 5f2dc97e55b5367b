/**
 * How the History view words a call: where it came from in the person's words ("chat", "Run
 * Tool"), times in their locale, and the whole record as a document. Pure (no `vscode` import).
 */
import type { CallRecord, Door } from '../../core/history/call-record';
import { droppedNote, recordStatus } from '../../core/history/format-record';
import { codeBlock } from './describe-file';
import { formatDuration } from './run-result';
import { titleTime } from './local-time';

/** Where a call came from, as the person knows it. */
const DOORS: Readonly<Record<Door, string>> = {
  lm: 'chat',
  mcp: 'chat (MCP)',
  'run-tool': 'Run Tool',
  test: 'test',
  cli: 'terminal',
  bridge: 'agent in a terminal',
};

/** "chat", "Run Tool", ...; an unknown door (a newer server's) as it is recorded. */
export function doorLabel(door: string): string {
  return (DOORS as Readonly<Record<string, string>>)[door] ?? door;
}

/** A row's description: "Run Tool · exit 0 · 12 ms · 11:10:47 PM". */
export function recordDescription(record: CallRecord, locale: string | undefined, now?: Date): string {
  return [doorLabel(record.door), recordStatus(record), formatDuration(record.durationMs), titleTime(new Date(record.time), locale, now)].join(' · ');
}

/** The record document's tab title: "list-todos · 11:10:47 PM". */
export function recordTitle(record: CallRecord, locale: string | undefined, now?: Date): string {
  return `${record.tool} · ${titleTime(new Date(record.time), locale, now)}`;
}

/** The whole record as a document: how it ended, from where and when, what ran, the input and the output kept. */
export function recordDocument(record: CallRecord, locale: string | undefined): string {
  return [
    `# ${record.tool} — ${recordStatus(record)}`,
    [
      `- When: ${new Date(record.time).toLocaleString(locale)}, took ${formatDuration(record.durationMs)}`,
      `- From: ${doorLabel(record.door)}`,
      ...(record.caller === undefined ? [] : [`- Caller: ${record.caller}`]),
      ...(record.workspace === undefined ? [] : [`- Workspace: ${record.workspace}`]),
      `- Output: ${record.outputBytes} bytes`,
      ...(droppedNote(record) === undefined ? [] : [`- ${droppedNote(record)}`]),
    ].join('\n'),
    `## What ran\n\n${codeBlock(record.ran ?? '(a built-in tool: no command line)', 'text')}`,
    `## Input\n\n${codeBlock(JSON.stringify(record.input, null, 2), 'json')}`,
    `## Output\n\n${codeBlock(record.output === '' ? '(no output)' : record.output, 'text')}`,
    '',
  ].join('\n\n');
}

/**
 * What the History view lists: the newest `limit` records, without the runs of declared tests
 * unless asked. A test run checks a tool, it is not a use of it: its outcome and output are in the
 * Testing view, and a file of many tests would otherwise push the calls of chat and Run Tool out
 * of sight. The history file keeps them (the `history` command shows them, door `test`).
 * `hidden` counts the test runs left out of the records read.
 */
export function shownRecords(records: readonly CallRecord[], options: { readonly showTests: boolean; readonly limit: number }): { readonly records: CallRecord[]; readonly hidden: number } {
  const shown = options.showTests ? [...records] : records.filter((record) => record.door !== 'test');
  return { records: shown.slice(0, options.limit), hidden: records.length - shown.length };
}

/** The History view's description while test runs are left out (undefined when nothing is). */
export function hiddenTestsNote(hidden: number): string | undefined {
  return hidden === 0 ? undefined : `${hidden} test ${hidden === 1 ? 'run' : 'runs'} hidden`;
}
