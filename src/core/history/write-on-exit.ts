/**
 * Records still waiting to be written when the process exits are written before it goes, with
 * synchronous writes in the process's `exit` event: a window closing, `process.exit()` anywhere, an
 * uncaught exception. One listener for every history file in the process (a test makes dozens).
 * What no process can do is write after SIGKILL or a native crash: then the records of the last
 * batch (the last 250 ms, or a write's time more) are lost, and a line cut in the middle is
 * skipped when read.
 */
import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';
import * as path from 'node:path';

/** A history with records waiting: writes them now, synchronously, and never throws. */
export interface ExitWriter {
  writePendingSync(): void;
}

const waiting = new Set<ExitWriter>();
let listening = false;

/** `writer` has records waiting: they are written if the process exits before it does. */
export function writeOnExit(writer: ExitWriter): void {
  waiting.add(writer);
  if (!listening) {
    listening = true;
    process.on('exit', () => {
      for (const each of waiting) {
        each.writePendingSync();
      }
    });
  }
}

/** `writer` has nothing waiting any more. */
export function nothingOnExit(writer: ExitWriter): void {
  waiting.delete(writer);
}

/**
 * Appends `bytes` to `file` (owner-only, its directory made owner-only when missing) at once. The
 * file is opened non-blocking: a named pipe nobody reads would otherwise hold the exit forever
 * (a regular file ignores the flag).
 */
export function appendSync(file: string, bytes: Buffer): void {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0);
  let fd: number;
  try {
    fd = openSync(file, flags, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error;
    }
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fd = openSync(file, flags, 0o600);
  }
  try {
    for (let done = 0; done < bytes.length; ) {
      done += writeSync(fd, bytes, done, bytes.length - done);
    }
  } finally {
    closeSync(fd);
  }
}
