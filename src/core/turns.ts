/**
 * Work whose length a file or an output decides (a plugin file with thousands of tools, a
 * tasks.json of thousands of tasks, a megabyte of output through a problem matcher) must not
 * hold the server's only thread: a ping waits behind it. Such work is written once, as a
 * generator that yields wherever it may pause, and run by one of two drivers: `finishNow` at once
 * (sync callers: tests, the editor's Problems panel), `finishInTurns` giving the event loop a turn
 * every TURN_MS, so requests that arrive meanwhile are answered within about that much.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work that may pause at each `yield` and ends with a value. */
export type Pausable<T> = Generator<void, T, void>;

/** Longest run of work between two turns of the event loop. */
export const TURN_MS = 10;

/** Runs the work to its end without pausing. */
export function finishNow<T>(work: Pausable<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done === true) {
      return step.value;
    }
  }
}

/** Runs the work to its end, giving the event loop a turn whenever it ran TURN_MS since the last. */
export async function finishInTurns<T>(work: Pausable<T>): Promise<T> {
  let since = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done === true) {
      return step.value;
    }
    if (performance.now() - since >= TURN_MS) {
      await nextTurn();
      since = performance.now();
    }
  }
}
