/**
 * The parent's side of a sandbox's callTool messages. At most `maxInFlight` run at once, and a
 * call's turn ends only when its answer has been handed to the sandbox (written to the socket),
 * so a sandbox that stops reading cannot make this process hold more than that many answers.
 * Each answer is cut at the caller's output limit before it is held. The runner queues its own
 * calls to stay within the limit; a sandbox that sends far more (a module writing to fd 3 itself)
 * is stopped as a protocol error.
 */
import type { Duplex } from 'node:stream';
import { capResult } from '../../output/capped-result';
import type { ToolResult } from '../../types';
import type { ToSandbox } from './protocol';

/** What the calls of one sandbox need. */
export interface SandboxCallOptions {
  readonly maxInFlight: number;
  /** The caller's output limit: each answer is cut to it. */
  readonly maxResultBytes: number;
  readonly callTool?: (name: string, input: unknown, signal?: AbortSignal) => Promise<ToolResult>;
  /** Aborts when the sandbox's run is over (its end, its timeout, its kill): the calls in flight stop with it. */
  readonly runEnded: AbortSignal;
  /** The sandbox broke the protocol: nothing more is read from it and it is stopped. */
  readonly onProtocolError: (message: string) => void;
}

interface PendingCall {
  readonly id: number;
  readonly name: string;
  readonly input: unknown;
}

/** A sandbox's callTool messages, answered within the limits. */
export class SandboxCalls {
  private running = 0;
  private readonly waiting: PendingCall[] = [];

  constructor(
    private readonly pipe: Duplex,
    private readonly options: SandboxCallOptions,
  ) {}

  /**
   * A callTool message. The runner never has more than maxInFlight unanswered, but may send the
   * next before this side has seen its last answer flushed: up to as many again wait here.
   */
  receive(call: PendingCall): void {
    const { maxInFlight } = this.options;
    if (this.running + this.waiting.length >= 2 * maxInFlight) {
      this.options.onProtocolError(`the sandbox asked for more than ${2 * maxInFlight} tool calls at once (the runner sends at most ${maxInFlight})`);
      return;
    }
    this.waiting.push(call);
    this.startWaiting();
  }

  private startWaiting(): void {
    while (this.running < this.options.maxInFlight) {
      const next = this.waiting.shift();
      if (next === undefined) {
        return;
      }
      this.running += 1;
      void this.answer(next).finally(() => {
        this.running -= 1;
        this.startWaiting();
      });
    }
  }

  private async answer(call: PendingCall): Promise<void> {
    const { callTool, maxResultBytes } = this.options;
    let result: ToolResult;
    try {
      result = callTool === undefined ? { text: 'callTool is not available to this tool here.', isError: true } : await callTool(call.name, call.input, this.options.runEnded);
    } catch (error) {
      result = { text: `callTool failed: ${error instanceof Error ? error.message : String(error)}`, isError: true };
    }
    const { text, isError, structured } = capResult(result, maxResultBytes);
    await this.write({ type: 'toolResult', id: call.id, result: { text, isError, ...(structured === undefined ? {} : { structured }) } });
  }

  /** Resolves once the message has been handed to the socket (or the socket is gone). */
  private write(message: ToSandbox): Promise<void> {
    const { pipe } = this;
    return new Promise((resolve) => {
      if (pipe.destroyed || !pipe.writable) {
        resolve();
        return;
      }
      pipe.write(`${JSON.stringify(message)}\n`, () => resolve());
    });
  }
}
