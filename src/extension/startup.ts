import type { Logger } from '../core/types';

/**
 * The work features start with (file watchers, sync file system calls, scans, the editor bridge's
 * server, the first load of plugin files), kept out of activate(). VS Code measures activate()
 * and the extension host runs nothing else until it returns, so activate() registers only what
 * VS Code looks up when it activates the extension (language model tools, the MCP provider,
 * commands, views) and queues the rest here. Each step runs in its own turn of the event loop,
 * in the order queued, so other extensions' work can run in between.
 */
export class Startup {
  private readonly steps: [name: string, step: () => void][] = [];
  private began = false;
  private disposed = false;

  constructor(private readonly log: Logger) {}

  /** Queues `step`; once the steps have begun, it runs in the next turn. */
  later(name: string, step: () => void): void {
    if (this.began) {
      setImmediate(() => this.runStep(name, step));
      return;
    }
    this.steps.push([name, step]);
  }

  /** Begins the queued steps, one per turn (called as activate() returns). */
  begin(): void {
    this.began = true;
    const started = performance.now();
    const next = (): void => {
      const queued = this.steps.shift();
      if (queued === undefined) {
        this.log.info(`[activate] started in ${(performance.now() - started).toFixed(1)} ms after activation`);
        return;
      }
      this.runStep(...queued);
      setImmediate(next);
    };
    setImmediate(next);
  }

  /** The steps not yet run never run (the extension deactivated meanwhile). */
  dispose(): void {
    this.disposed = true;
    this.steps.length = 0;
  }

  /** One step's failure is logged; the others still run. */
  private runStep(name: string, step: () => void): void {
    if (this.disposed) {
      return;
    }
    try {
      step();
    } catch (error) {
      this.log.error(`[activate] ${name} failed to start: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
