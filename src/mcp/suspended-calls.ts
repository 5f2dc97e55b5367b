/**
 * Calls that wait for the user across requests (protocol 2026-07-28). There a question is not a
 * request to the client in the middle of `tools/call`: the server answers the call with
 * `input_required` and the client sends the call again with the answers (`inputResponses`) and
 * the opaque `requestState` the server gave. Our tools ask in the middle of running (a code tool
 * waiting in `elicit`, a `confirm` before the run), and running them again from the start would
 * run what they did before the question twice. So the call keeps running, suspended at its
 * question; the answer to an `input_required` is the token of the suspended call, and the retry
 * hands its answer to the question and waits for the next step: the result, or the next question.
 *
 * A token is 128 random bits known only to the client that got it, and is good for one retry of
 * the same tool; a call nobody resumes within `ttlMs` is cancelled (its process tree killed, as any
 * cancelled call), and so is one the door abandons (`abandon`: on 2025-11-25 the question was a
 * request inside the call's, and that request ended without the answer). A call cancelled while it
 * waits (the window's Cancel) gives its question up at once, and its token with it. One connection
 * holds at most `maxWaiting` calls at a question: each may keep a process alive until it is
 * answered, so a question past that is refused (the tool gets the error and ends; a confirm runs
 * nothing).
 */
import { randomBytes } from 'node:crypto';
import type { CallResult } from '../core/registry/call-pipeline';
import type { AskUser, ElicitAnswer, ElicitRequest } from '../core/types';

/** Where a call stands when a request about it is answered. */
export type CallStep =
  | { readonly kind: 'done'; readonly result: CallResult }
  | {
      readonly kind: 'asking';
      readonly token: string;
      readonly request: ElicitRequest;
      /**
       * The call's step after this one: the one its answer brings (what `resume` resolves with),
       * or, when the call ends while its question waits (its time limit, a cancel), its end.
       */
      readonly next: Promise<CallStep>;
    };

/** How long a suspended call waits for the client's retry. */
export const DEFAULT_SUSPENDED_TTL_MS = 10 * 60 * 1000;

/**
 * Most calls one connection may have waiting at a question. A person answers one question at a
 * time; a few calls in parallel may each ask, but not dozens (each may hold a code tool's process).
 */
export const MAX_WAITING_CALLS = 8;

/** Where a call's progress goes: the request that drives it now. */
export type ProgressSink = ((message: string) => void) | undefined;

interface Flight {
  readonly tool: string;
  /** The progress of the request driving the call now (none while it waits for the retry). */
  progress: ProgressSink;
  readonly controller: AbortController;
  /** Settles with the call's next step; replaced as each question is asked. */
  next: Promise<CallStep>;
  settleNext: (step: CallStep) => void;
  /** The question's resolver while the call waits for an answer. */
  answer?: (answer: ElicitAnswer) => void;
  /** Fails the question the call waits on (it expired, was abandoned or was cancelled). */
  fail?: (error: Error) => void;
  expiry?: NodeJS.Timeout;
}

/** The calls of one server that wait for the user, by token. */
export class SuspendedCalls {
  private readonly waiting = new Map<string, Flight>();
  /**
   * Questions given up while their call went on (a step's own time limit): the client's retry
   * with an answer gets the call's next step, its end or its next question, instead of a call it
   * would start again. Kept as long as a question would have waited.
   */
  private readonly withdrawn = new Map<string, { readonly flight: Flight; readonly next: Promise<CallStep>; readonly expiry: NodeJS.Timeout }>();
  /** Every call not over yet, running or waiting: dispose cancels them all. */
  private readonly flights = new Set<Flight>();
  private disposed = false;

  constructor(
    private readonly ttlMs = DEFAULT_SUSPENDED_TTL_MS,
    private readonly maxWaiting = MAX_WAITING_CALLS,
  ) {}

  /**
   * Starts `run` with an `ask` that suspends it, and resolves with its first step. `signal` is the
   * request's: cancelling it cancels the call (while it runs; a suspended call waits for the retry).
   * `run` is also given a `cancel` that cancels the call whatever request drives it (the window's
   * Cancel on a listed call: tool-calls.ts).
   */
  start(
    tool: string,
    run: (ask: AskUser, signal: AbortSignal, progress: (message: string) => void, cancel: () => void) => Promise<CallResult>,
    signal: AbortSignal,
    progress?: ProgressSink,
  ): Promise<CallStep> {
    const flight = this.flight(tool);
    flight.progress = progress;
    const ask: AskUser = (request, askSignal) =>
      new Promise<ElicitAnswer>((resolve, reject) => {
        askSignal.throwIfAborted();
        // One question a call at a time (parallel steps may each ask): a second would take the
        // first's place, and the first would never hear its answer.
        if (flight.answer !== undefined) {
          reject(new Error('this call already waits for the answer to another question; it asks one at a time'));
          return;
        }
        if (this.waiting.size >= this.maxWaiting) {
          reject(new Error(`${this.waiting.size} calls of this client already wait for the user's answer, the most one client may have at once (${this.maxWaiting}); answer or cancel one of them, then call again`));
          return;
        }
        const token = randomBytes(16).toString('base64url');
        // Cancelled while it waits (the window's Cancel, the call's own time limit, a step's or an
        // inner tool's): the question fails now and its place is free, instead of waiting for a
        // retry or the expiry. Only the question: a step's limit is not the call's, which goes on.
        const cancelled = (): void => this.withdraw(token, new Error('the call was cancelled while it waited for the answer'), { resumable: true });
        askSignal.addEventListener('abort', cancelled, { once: true });
        flight.answer = (answer) => {
          askSignal.removeEventListener('abort', cancelled);
          resolve(answer);
        };
        flight.fail = (error) => {
          askSignal.removeEventListener('abort', cancelled);
          reject(error);
        };
        flight.progress = undefined;
        this.waiting.set(token, flight);
        flight.expiry = setTimeout(() => this.stop(token, new Error(`the user's answer did not come within ${Math.round(this.ttlMs / 1000)} s`)), this.ttlMs);
        flight.expiry.unref();
        // The promise of the step after this one is made now, not at the answer: a call that
        // ends while it waits settles it, and whoever waits on the question hears of the end.
        const settleAsking = flight.settleNext;
        this.renew(flight);
        settleAsking({ kind: 'asking', token, request, next: flight.next });
      });
    this.flights.add(flight);
    if (this.disposed) {
      flight.controller.abort();
    }
    // Taken before the call runs: a call that asks at once replaces it before run returns.
    const first = flight.next;
    run(ask, flight.controller.signal, (message) => flight.progress?.(message), () => flight.controller.abort()).then(
      (result) => {
        this.flights.delete(flight);
        flight.settleNext({ kind: 'done', result });
      },
      (error: unknown) => {
        this.flights.delete(flight);
        flight.settleNext({ kind: 'done', result: { text: `Tool "${tool}" failed: ${error instanceof Error ? error.message : String(error)}`, isError: true } });
      },
    );
    return this.nextStep(first, flight, signal);
  }

  /**
   * Hands `answer` to the question the call behind `token` waits on and resolves with its next
   * step; undefined when there is no such call (unknown, already resumed, expired, another tool's).
   */
  resume(token: string, tool: string, answer: ElicitAnswer, signal: AbortSignal, progress?: ProgressSink): Promise<CallStep> | undefined {
    const given = this.withdrawn.get(token);
    if (given !== undefined && given.flight.tool === tool) {
      // Its question was given up; the answer has nothing to go to, the call's next step is the reply.
      this.withdrawn.delete(token);
      clearTimeout(given.expiry);
      given.flight.progress = progress;
      return this.nextStep(given.next, given.flight, signal);
    }
    const flight = this.waiting.get(token);
    if (flight === undefined || flight.tool !== tool || flight.answer === undefined) {
      return undefined;
    }
    this.waiting.delete(token);
    clearTimeout(flight.expiry);
    const resolve = flight.answer;
    flight.answer = undefined;
    flight.fail = undefined;
    flight.progress = progress;
    const next = flight.next;
    resolve(answer);
    return this.nextStep(next, flight, signal);
  }

  /**
   * Cancels the call behind `token` if it still waits (its question fails with `reason`); a token
   * already answered, expired or unknown is no error.
   */
  abandon(token: string, reason: string): void {
    this.stop(token, new Error(reason));
  }

  /**
   * Cancels every call, running or waiting, and every call started from now on (the server is
   * shutting down: their process trees are killed). One set of calls, not a signal combined per
   * call: AbortSignal.any cost each call more than the rest of this class.
   */
  dispose(): void {
    this.disposed = true;
    // The questions first: one asked with a signal other than its call's would wait on, unanswerable.
    for (const token of [...this.waiting.keys()]) {
      this.stop(token, new Error('the server is shutting down'));
    }
    for (const flight of this.flights) {
      clearTimeout(flight.expiry);
      flight.controller.abort();
    }
    for (const given of this.withdrawn.values()) {
      clearTimeout(given.expiry);
    }
    this.flights.clear();
    this.waiting.clear();
    this.withdrawn.clear();
  }

  /** How many calls wait for an answer now. */
  get size(): number {
    return this.waiting.size;
  }

  private flight(tool: string): Flight {
    const flight = { tool, progress: undefined, controller: new AbortController() } as Flight;
    this.renew(flight);
    return flight;
  }

  /** A new promise for the flight's next step. */
  private renew(flight: Flight): void {
    flight.next = new Promise((resolve) => {
      flight.settleNext = resolve;
    });
  }

  /** The call's `next` step, cancelling the call if the request is cancelled first. */
  private async nextStep(next: Promise<CallStep>, flight: Flight, signal: AbortSignal): Promise<CallStep> {
    const cancel = (): void => flight.controller.abort();
    // Already aborted (a task cancelled at its question): no abort event will come.
    if (signal.aborted) {
      cancel();
    }
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return await next;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  /** Ends the wait of `token`: its call is cancelled (its process tree killed) and its question fails. */
  private stop(token: string, error: Error): void {
    const flight = this.waiting.get(token);
    // The question first, with this reason: the abort would withdraw it with its own.
    this.withdraw(token, error);
    flight?.controller.abort();
  }

  /**
   * The question of `token` fails and its place is free; its call goes on (or ends) on its own.
   * `resumable`: the token still fetches the call's next step (see `withdrawn`).
   */
  private withdraw(token: string, error: Error, { resumable = false } = {}): void {
    const flight = this.waiting.get(token);
    if (flight === undefined) {
      return;
    }
    this.waiting.delete(token);
    clearTimeout(flight.expiry);
    if (resumable) {
      const expiry = setTimeout(() => this.withdrawn.delete(token), this.ttlMs);
      expiry.unref();
      this.withdrawn.set(token, { flight, next: flight.next, expiry });
    }
    const fail = flight.fail;
    flight.answer = undefined;
    flight.fail = undefined;
    fail?.(error);
  }
}
