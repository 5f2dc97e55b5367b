/**
 * One sandbox started ahead of a code tool's next call, so that the call does not wait for Node
 * to start (most of a trivial call's time). It is started when a call ends, with that call's
 * command line and environment, and runs only the runner, which waits on fd 3 for its work: no
 * module code runs in it before a call sends some. Killed after WARM_IDLE_MS unused; it also
 * exits by itself when this process goes (its fd 3 closes), and never keeps this process alive.
 */
import type { StartRequest } from '../../process/run-process';
import { StartedProcess } from '../../process/run-process';

/** How long a started sandbox waits for a call before it is killed. */
export const WARM_IDLE_MS = 30_000;

/** At most one waiting sandbox, for one command line and environment (`key`). */
export class WarmSandbox {
  private spare: { readonly key: string; readonly process: StartedProcess; readonly timer: NodeJS.Timeout } | undefined;

  /** The waiting sandbox if it was started for `key` and still runs; it is no longer spare then. */
  take(key: string): StartedProcess | undefined {
    const spare = this.spare;
    if (spare === undefined) {
      return undefined;
    }
    this.spare = undefined;
    clearTimeout(spare.timer);
    if (spare.key === key && spare.process.alive && spare.process.child.pid !== undefined) {
      return spare.process;
    }
    spare.process.kill();
    return undefined;
  }

  /** Starts a sandbox for `start` to wait for the next call, unless one waits already. */
  prepare(key: string, start: StartRequest): void {
    if (this.spare !== undefined) {
      return;
    }
    let process: StartedProcess;
    try {
      process = new StartedProcess(start);
    } catch {
      return; // the next call starts its own and reports why it cannot
    }
    const timer = setTimeout(() => {
      if (this.spare?.process === process) {
        this.spare = undefined;
      }
      process.kill();
    }, WARM_IDLE_MS);
    timer.unref();
    this.spare = { key, process, timer };
  }
}
