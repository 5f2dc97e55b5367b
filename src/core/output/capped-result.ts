/**
 * A tool result held to an output limit: what one tool hands another (callTool, `tool` steps) is
 * counted against the caller's limit before it is kept, as a program's output is.
 */
import { truncationNote } from '../process/capped-buffer';
import type { ToolResult } from '../types';

/** The bytes `result` holds: its text and its structured value as JSON. */
export function resultBytes(result: Pick<ToolResult, 'text' | 'structured'>): number {
  return Buffer.byteLength(result.text, 'utf8') + (result.structured === undefined ? 0 : Buffer.byteLength(JSON.stringify(result.structured), 'utf8'));
}

/**
 * `result` with its text cut at `maxBytes` (with the usual note) and its structured value left
 * out when that alone is larger (a cut value would not be whole); unchanged when it fits.
 */
export function capResult(result: ToolResult, maxBytes: number): ToolResult {
  const textBytes = Buffer.byteLength(result.text, 'utf8');
  const structuredBytes = result.structured === undefined ? 0 : Buffer.byteLength(JSON.stringify(result.structured), 'utf8');
  if (textBytes <= maxBytes && structuredBytes <= maxBytes) {
    return result;
  }
  const kept = Buffer.from(result.text, 'utf8').subarray(0, maxBytes).toString('utf8').replace(/\uFFFD+$/, '');
  const notes = [
    ...(textBytes > maxBytes ? [truncationNote(textBytes - Buffer.byteLength(kept, 'utf8'), maxBytes)] : []),
    ...(structuredBytes > maxBytes ? [`[structured result left out: ${structuredBytes} bytes as JSON, over the cap of ${maxBytes} bytes]`] : []),
  ];
  const { structured, ...rest } = result;
  return { ...rest, text: `${kept}\n${notes.join('\n')}`, ...(structuredBytes > maxBytes || structured === undefined ? {} : { structured }) };
}
