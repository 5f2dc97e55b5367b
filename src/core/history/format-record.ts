/** How a call record reads, in the `history` command and VS Code's History view. */
import type { CallRecord } from './call-record';

/** "exit 0", "HTTP 404", "error", "ok": how the call ended, in a word or two. */
export function recordStatus(record: CallRecord): string {
  const code = record.exitCode !== undefined ? `exit ${record.exitCode}` : record.httpStatus !== undefined ? `HTTP ${record.httpStatus}` : undefined;
  if (record.isError) {
    return code === undefined ? 'error' : `error (${code})`;
  }
  return code ?? 'ok';
}

/** One call in a few lines: the headline, then what ran and the input. */
export function formatRecord(record: CallRecord): string {
  const lines = [`${record.time}  ${record.door.padEnd(8)} ${record.tool}  ${recordStatus(record)}  ${record.durationMs} ms  ${record.outputBytes} bytes`];
  if (record.ran !== undefined) {
    lines.push(`    ran:   ${record.ran}`);
  }
  const sandbox = sandboxLine(record);
  if (sandbox !== undefined) {
    lines.push(`    ${sandbox}`);
  }
  lines.push(`    input: ${JSON.stringify(record.input)}`);
  const gap = droppedNote(record);
  if (gap !== undefined) {
    lines.push(`    ${gap}`);
  }
  return lines.join('\n');
}

/**
 * How the program ran, as to the OS sandbox: `sandboxed: writes: ...; network: ...` (the paths
 * every tool has hidden are left out: the record has them), or `NOT sandboxed: <why>`.
 */
export function sandboxLine(record: CallRecord): string | undefined {
  const sandbox = record.sandbox;
  if (sandbox === undefined) {
    return undefined;
  }
  return sandbox.sandboxed ? `sandboxed: ${sandbox.policy.filter((line) => !line.startsWith('hidden: ')).join('; ')}` : `NOT sandboxed: ${sandbox.reason}`;
}

/** What a record says about the calls dropped just before it, if any. */
export function droppedNote(record: CallRecord): string | undefined {
  const dropped = record.dropped ?? 0;
  return dropped === 0 ? undefined : `${dropped} call${dropped === 1 ? '' : 's'} just before this one ${dropped === 1 ? 'is' : 'are'} not in the history: it was written slower than calls ended`;
}

/** Whether the recorded input lost values to redaction (it cannot be run again as it was). */
export function hasRedactedValues(value: unknown): boolean {
  if (typeof value === 'string') {
    return value.includes('***');
  }
  if (value === null || typeof value !== 'object') {
    return false;
  }
  return Object.values(value).some(hasRedactedValues);
}
