/**
 * MCP progress notifications for one call: what the tool reports (its latest output line, the
 * step it is on) goes out as `notifications/progress` with an increasing `progress`, at most once
 * per interval (the latest message wins), and never after the call's result: some clients fail
 * on a progress notification for a request they consider finished.
 */

/** The params of one `notifications/progress`. */
export interface ProgressParams {
  readonly progressToken: string | number;
  readonly progress: number;
  readonly message: string;
}

/** At most 4 notifications a second. */
export const PROGRESS_INTERVAL_MS = 250;

export interface ProgressReporter {
  /** The tool's latest sign of life; sent now or at the end of the current interval. */
  report(message: string): void;
  /** The call is over: a pending message is dropped, and nothing is sent from now on. */
  close(): void;
}

export function progressReporter(
  progressToken: string | number,
  send: (params: ProgressParams) => void,
  intervalMs = PROGRESS_INTERVAL_MS,
): ProgressReporter {
  let closed = false;
  let count = 0;
  let lastSent = -Infinity;
  let pending: string | undefined;
  let timer: NodeJS.Timeout | undefined;

  const flush = (): void => {
    timer = undefined;
    if (closed || pending === undefined) {
      return;
    }
    lastSent = performance.now();
    count += 1;
    const message = pending;
    pending = undefined;
    send({ progressToken, progress: count, message });
  };

  return {
    report(message) {
      if (closed) {
        return;
      }
      pending = message;
      const wait = lastSent + intervalMs - performance.now();
      if (wait <= 0 && timer === undefined) {
        flush();
      } else {
        timer ??= setTimeout(flush, Math.max(wait, 0));
      }
    },
    close() {
      closed = true;
      pending = undefined;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
