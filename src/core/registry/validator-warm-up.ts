/**
 * Compiles tool input validators ahead of the tools' first calls, in the background. Without it
 * the first call of each tool after start pays for compiling its schema (~1 ms), and the very
 * first call also for loading Ajv: ~10x a warm call.
 */
import type { Logger, ToolDefinition } from '../types';
import type { InputValidator } from './input-validator';

/** Resolves on the next turn of the event loop, after the I/O (requests) waiting there. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Compiles one tool's validator per turn of the event loop, so requests that arrive meanwhile
 * wait for one compile (~1 ms) at most, never for all of them (~1 s for 1,000 tools). Ajv itself,
 * which cannot be cut smaller, is loaded at once when the run starts (and only when a tool needs
 * it: the built-ins' validators are precompiled). A call that comes before its tool's turn
 * compiles its own validator, as it would without this.
 */
export class ValidatorWarmUp {
  private running: Promise<number> | undefined;
  /** Asked for again while running: the tools may have changed, so go over them once more. */
  private again = false;
  private disposed = false;

  constructor(
    private readonly validator: InputValidator,
    /** The tools to compile for, read afresh on every pass (a reload replaces them). */
    private readonly tools: () => readonly ToolDefinition[],
    private readonly logger: Logger,
  ) {}

  /**
   * Compiles every validator of `tools()` not compiled yet; a request while a run is under way
   * joins it and makes it go over the tools once more. Resolves to how many it compiled; never
   * rejects (a schema Ajv cannot compile is left to its call, which reports the error).
   */
  run(): Promise<number> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = this.passes().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops a run at its next turn. */
  dispose(): void {
    this.disposed = true;
  }

  private async passes(): Promise<number> {
    const started = performance.now();
    const stats = { compiled: 0, longestMs: 0 };
    // At once, before the first turn: the caller (the MCP server, before its first answer) waits
    // for Ajv, not for the compiles.
    this.validator.loadAjvFor(this.tools().map((tool) => tool.inputSchema));
    do {
      this.again = false;
      await this.pass(stats);
    } while (this.again && !this.disposed);
    if (stats.compiled > 0) {
      this.logger.debug(
        `[registry] compiled ${stats.compiled} input validators ahead of their first calls in ${(performance.now() - started).toFixed(1)} ms (longest turn ${stats.longestMs.toFixed(1)} ms)`,
      );
    }
    return stats.compiled;
  }

  private async pass(stats: { compiled: number; longestMs: number }): Promise<void> {
    for (const tool of this.tools()) {
      if (this.validator.isCompiled(tool.inputSchema)) {
        continue;
      }
      await nextTurn();
      if (this.disposed) {
        return;
      }
      const started = performance.now();
      if (this.compileOne(tool)) {
        stats.compiled += 1;
      }
      stats.longestMs = Math.max(stats.longestMs, performance.now() - started);
    }
  }

  /** Compiles one tool's validator unless a call did meanwhile; whether this compiled it. */
  private compileOne(tool: ToolDefinition): boolean {
    if (this.validator.isCompiled(tool.inputSchema)) {
      return false;
    }
    try {
      this.validator.compile(tool.inputSchema);
      return true;
    } catch (error) {
      this.logger.debug(`[registry] could not compile the input validator of ${tool.name} ahead of its call: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }
}
