/**
 * The latest non-empty line a program printed, for progress reports ("what is it doing now"):
 * only the tail of each chunk is decoded, so a program printing 100 MB costs almost nothing.
 */

/** Longest line reported; progress is a sign of life, not the output. */
const MAX_REPORTED_CHARS = 200;
/** Bytes of each chunk looked at: enough for the last line of any sane output. */
const TAIL_BYTES = 1024;

/** A chunk observer that calls `report` with the latest complete, non-empty line it has seen. */
export function latestLineReporter(report: (line: string) => void): (chunk: Buffer) => void {
  let partial = '';
  return (chunk) => {
    const tail = chunk.subarray(Math.max(0, chunk.length - TAIL_BYTES)).toString('utf8');
    const text = chunk.length > TAIL_BYTES ? tail : partial + tail;
    const lines = text.split(/\r\n|\r|\n/);
    partial = (lines.pop() ?? '').slice(-MAX_REPORTED_CHARS);
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i]?.trim() ?? '';
      if (line !== '') {
        report(line.length > MAX_REPORTED_CHARS ? `${line.slice(0, MAX_REPORTED_CHARS)}…` : line);
        return;
      }
    }
  };
}
