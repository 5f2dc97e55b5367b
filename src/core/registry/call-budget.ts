/**
 * What one top-level call (the one a client, a test or a command made) may spend on the calls its
 * tools make to other tools (callTool, `tool` steps, aliases), over the whole tree of them:
 * at most `concurrency` run at once (more wait their turn), at most MAX_NESTED_CALLS in all, and
 * at most MAX_NESTED_RESULT_BYTES of their results in all, each result first cut at the output
 * limit. Without it one call of a code tool could start thousands of tool runs and make this
 * process hold all their results.
 *
 * A nested call that would wait while its own caller has no nested call running takes its
 * caller's turn instead (the caller waits on it): tools calling tools several levels deep can
 * never all wait for turns their callers hold.
 */
import { capResult, resultBytes } from '../output/capped-result';
import type { ToolResult } from '../types';
import { errorResult } from '../types';

/** Most nested calls one top-level call makes in all. */
export const MAX_NESTED_CALLS = 1000;

/** Most bytes of nested results one top-level call receives in all. */
export const MAX_NESTED_RESULT_BYTES = 64 * 1024 * 1024;

/** One call in the tree: the top-level call (no parent) or a nested one. */
export class CallNode {
  /** Nested calls of this call that run now. */
  running = 0;

  constructor(
    readonly budget: CallBudget,
    readonly parent: CallNode | undefined,
  ) {}
}

/** A nested call's turn: its node in the tree, what it gives back, and its end. */
export interface NestedTurn {
  readonly node: CallNode;
  /** The result as the caller gets it: cut at `maxBytes`, or an error once the tree's results passed their total. */
  settle(name: string, result: ToolResult, maxBytes: number): ToolResult;
  /** Ends the turn (once): the next waiting call may run. */
  release(): void;
}

interface Waiter {
  readonly caller: CallNode;
  readonly grant: (turn: NestedTurn | string) => void;
}

/** The budget of one top-level call; `root()` is that call's node. */
export class CallBudget {
  private pooled = 0;
  private calls = 0;
  private bytes = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly concurrency: number) {}

  /** A new top-level call's node. */
  static root(concurrency: number): CallNode {
    return new CallNode(new CallBudget(Math.max(1, Math.floor(concurrency))), undefined);
  }

  /**
   * A turn for a nested call of `caller`, once one is free; or why the call may not run at all
   * (the tree's totals are spent, or `signal` aborted while it waited).
   */
  take(caller: CallNode, name: string, signal: AbortSignal): Promise<NestedTurn | string> {
    if (this.calls >= MAX_NESTED_CALLS) {
      return Promise.resolve(`"${name}" was not called: this call already made ${MAX_NESTED_CALLS} nested calls (callTool, tool steps, aliases), the most one call may make. Do the work in several calls.`);
    }
    if (this.bytes > MAX_NESTED_RESULT_BYTES) {
      return Promise.resolve(`"${name}" was not called: ${totalText()}.`);
    }
    if (signal.aborted) {
      return Promise.resolve(`"${name}" was not called: the call was cancelled before its turn`);
    }
    this.calls += 1;
    const turn = this.grant(caller);
    if (turn !== undefined) {
      return Promise.resolve(turn);
    }
    return new Promise((resolve) => {
      const onAbort = (): void => {
        const index = this.waiting.indexOf(waiter);
        if (index !== -1) {
          this.waiting.splice(index, 1);
          resolve(`"${name}" was not called: the call was cancelled while it waited for its turn`);
        }
      };
      const waiter: Waiter = {
        caller,
        grant: (granted) => {
          signal.removeEventListener('abort', onAbort);
          resolve(granted);
        },
      };
      this.waiting.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A turn for a call of `caller` if one is free now: from the pool, or lent by an idle caller. */
  private grant(caller: CallNode): NestedTurn | undefined {
    const pooled = this.pooled < this.concurrency;
    if (!pooled && (caller.parent === undefined || caller.running > 0)) {
      return undefined;
    }
    if (pooled) {
      this.pooled += 1;
    }
    caller.running += 1;
    let released = false;
    return {
      node: new CallNode(this, caller),
      settle: (name, result, maxBytes) => this.settle(name, result, maxBytes),
      release: () => {
        if (released) {
          return;
        }
        released = true;
        caller.running -= 1;
        if (pooled) {
          this.pooled -= 1;
        }
        this.grantWaiting();
      },
    };
  }

  private grantWaiting(): void {
    for (let index = 0; index < this.waiting.length; ) {
      const waiter = this.waiting[index];
      const turn = waiter === undefined ? undefined : this.grant(waiter.caller);
      if (waiter === undefined || turn === undefined) {
        index += 1;
        continue;
      }
      this.waiting.splice(index, 1);
      waiter.grant(turn);
    }
  }

  private settle(name: string, result: ToolResult, maxBytes: number): ToolResult {
    const capped = capResult(result, maxBytes);
    this.bytes += resultBytes(capped);
    return this.bytes > MAX_NESTED_RESULT_BYTES ? errorResult(`The result of "${name}" was dropped: ${totalText()}.`) : capped;
  }
}

function totalText(): string {
  return `the results of this call's nested calls passed ${MAX_NESTED_RESULT_BYTES / (1024 * 1024)} MB in all, the most one call may receive. Do the work in several calls`;
}
