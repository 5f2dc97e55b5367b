/**
 * The runner's end of fd 3, with synchronous reads and writes: the parent writes the run message
 * as it spawns the child, so one blocking read finds it, and a net.Socket (which costs a sandbox
 * start ~10 ms) is opened only for a module that can receive later messages (callTool answers,
 * cancellation). Node built-ins only: part of dist/code-runner.js.
 */
import { readSync, writeSync } from 'node:fs';
import type * as Net from 'node:net';

const FD = 3;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Waits `ms` without spinning (the fd is non-blocking once a Socket has opened it). */
function sleep(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

function isAgain(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EAGAIN';
}

/** Newline-delimited messages on fd 3. */
export class Channel {
  /** Whole lines read and not yet taken, oldest first. */
  private readonly lines: string[] = [];
  /** The start of the next line, in the pieces it arrived in (joined once, when it ends). */
  private partial: string[] = [];
  private socket: Net.Socket | undefined;

  /** The next whole line, waiting for it; undefined when the parent closed the channel first. */
  readLine(): string | undefined {
    const chunk = Buffer.alloc(64 * 1024);
    for (;;) {
      const line = this.takeLine();
      if (line !== undefined) {
        return line;
      }
      let read: number;
      try {
        read = readSync(FD, chunk, 0, chunk.length, null);
      } catch (error) {
        if (!isAgain(error)) {
          throw error;
        }
        sleep(1);
        continue;
      }
      if (read === 0) {
        return undefined;
      }
      this.add(chunk.toString('utf8', 0, read));
    }
  }

  /** Writes one line, all of it, waiting while the parent's end is full. */
  writeLine(text: string): void {
    const bytes = Buffer.from(`${text}\n`, 'utf8');
    for (let offset = 0; offset < bytes.length; ) {
      try {
        offset += writeSync(FD, bytes, offset);
      } catch (error) {
        if (!isAgain(error)) {
          throw error;
        }
        sleep(1);
      }
    }
  }

  /**
   * Delivers every later line to `onLine` as it arrives (lines already read first), and `onClose`
   * when the parent closes its end. Once: later calls do nothing.
   */
  listen(onLine: (line: string) => void, onClose: () => void): void {
    if (this.socket !== undefined) {
      return;
    }
    // Loaded here, not at start: requiring node:net alone costs every sandbox start milliseconds.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Socket } = require('node:net') as typeof Net;
    this.socket = new Socket({ fd: FD, readable: true, writable: false });
    this.socket.setEncoding('utf8');
    const drain = (): void => {
      for (let line = this.takeLine(); line !== undefined; line = this.takeLine()) {
        onLine(line);
      }
    };
    this.socket.on('data', (chunk: string) => {
      this.add(chunk);
      drain();
    });
    this.socket.on('end', onClose);
    this.socket.on('error', onClose);
    drain();
  }

  /**
   * Adds text as it arrived. Only the new text is searched for line ends, so a long line (a
   * callTool answer of megabytes, in many small reads) costs its length once, not once a read.
   */
  private add(text: string): void {
    const parts = text.split('\n');
    const last = parts.pop() ?? '';
    for (const part of parts) {
      this.partial.push(part);
      this.lines.push(this.partial.join(''));
      this.partial = [];
    }
    if (last !== '') {
      this.partial.push(last);
    }
  }

  private takeLine(): string | undefined {
    return this.lines.shift();
  }
}
