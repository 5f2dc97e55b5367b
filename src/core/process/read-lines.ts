/**
 * Runs a program and hands its stdout to a consumer line by line, stopping the program as soon as
 * the consumer has enough: a search that wants 100 matches does not wait for (or read) the rest
 * of a 30,000-file tree, and its results are never cut by a byte cap on the whole output.
 */
import type { Line } from './line-splitter';
import { LineSplitter } from './line-splitter';
import type { ProcessOutcome, ProcessRequest } from './run-process';
import { runProcess } from './run-process';

/** How stdout is split and consumed. */
export interface LineReader {
  /** Byte that ends a record: newline (default) or NUL (`-z` output). */
  readonly separator?: 'newline' | 'nul';
  /** Longest line kept; the rest of a longer one is dropped and the line flagged `cut`. */
  readonly maxLineBytes?: number;
  /** Called for each line in order; return false once there is enough (the program is killed). */
  readonly onLine: (line: Line) => boolean;
}

/** The outcome, and whether the consumer stopped the program (then it is not a cancellation). */
export interface LinesOutcome {
  readonly outcome: ProcessOutcome;
  readonly stoppedEarly: boolean;
}

export async function runProcessLines(request: Omit<ProcessRequest, 'onStdout'>, reader: LineReader): Promise<LinesOutcome> {
  const enough = new AbortController();
  const signal = request.signal === undefined ? enough.signal : AbortSignal.any([request.signal, enough.signal]);
  let wantsMore = true;
  const splitter = new LineSplitter(
    (line) => {
      if (wantsMore) {
        wantsMore = reader.onLine(line);
        if (!wantsMore) {
          enough.abort();
        }
      }
    },
    reader.separator === 'nul' ? 0x00 : 0x0a,
    reader.maxLineBytes,
  );
  const outcome = await runProcess({ ...request, signal, onStdout: (chunk) => splitter.push(chunk) });
  const stoppedEarly = enough.signal.aborted && request.signal?.aborted !== true;
  if (!stoppedEarly) {
    splitter.end();
  }
  return { outcome: stoppedEarly ? { ...outcome, cancelled: false } : outcome, stoppedEarly };
}
