/**
 * What a tool reports while it runs (its latest output line, the step it is on), passed on to a
 * door at most once per interval (the latest message wins) and never after the call is over:
 * some MCP clients fail on a progress notification for a request they consider finished, and a
 * VS Code notification need not repaint a thousand times a second.
 */

/** At most 4 messages a second. */
export const PROGRESS_INTERVAL_MS = 250;

export interface ThrottledProgress {
  /** The tool's latest sign of life; passed on now or at the end of the current interval. */
  report(message: string): void;
  /** The call is over: a pending message is dropped, and nothing is passed on from now on. */
  close(): void;
}

/** `send` receives each message passed on, with its count (1, 2, ...: MCP's increasing `progress`). */
export function throttleProgress(send: (message: string, count: number) => void, intervalMs = PROGRESS_INTERVAL_MS): ThrottledProgress {
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
    send(message, count);
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
