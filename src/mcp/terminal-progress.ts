/**
 * A call's progress on the terminal (`call`): the tool's latest output line, or the step it is
 * on, as one line on stderr rewritten in place at most four times a second, and cleared before the
 * result is printed. Only on a terminal: a script that reads stderr gets nothing it did not before.
 */
import { throttleProgress } from '../core/progress-throttle';

export interface TerminalProgress {
  report(message: string): void;
  /** Stops reporting and clears the line, so the result starts on a clean line. */
  close(): void;
}

/** The progress line of `tool` on `stream`, or undefined when `stream` is no terminal. */
export function terminalProgress(tool: string, stream: NodeJS.WriteStream = process.stderr): TerminalProgress | undefined {
  if (stream.isTTY !== true) {
    return undefined;
  }
  let shown = false;
  const throttled = throttleProgress((message) => {
    const width = Math.max((stream.columns || 80) - 1, 20);
    // One line: a message with control characters or longer than the terminal is cut.
    const line = `${tool}: ${message.replace(/[\u0000-\u001f\u007f]/g, ' ')}`;
    stream.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    shown = true;
  });
  return {
    report: (message) => throttled.report(message),
    close: () => {
      throttled.close();
      if (shown) {
        stream.write('\r\x1b[2K');
      }
    },
  };
}
