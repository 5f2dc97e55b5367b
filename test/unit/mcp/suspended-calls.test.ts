/**
 * Calls suspended at a question across requests (2026-07-28's input_required round trip): the
 * call keeps running, each retry hands one answer on, a token is good once and for its own tool,
 * and a call nobody resumes is cancelled.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallResult } from '../../../src/core/registry/call-pipeline';
import type { AskUser, ElicitRequest } from '../../../src/core/types';
import type { CallStep } from '../../../src/mcp/suspended-calls';
import { SuspendedCalls } from '../../../src/mcp/suspended-calls';

const form = (message: string): ElicitRequest => ({ message, requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
const never = new AbortController().signal;

/** A call that asks twice, counting how often its start ran (it must run once). */
function twoQuestions(runs: { count: number }): (ask: AskUser, signal: AbortSignal) => Promise<CallResult> {
  return async (ask, signal) => {
    runs.count += 1;
    const first = await ask(form('first?'), signal);
    const second = await ask(form('second?'), signal);
    return { text: `${first.action}:${String(first.content?.['name'])} ${second.action}`, isError: false };
  };
}

/** `promise`, with the process held until it settles: the timers it waits on (an expiry, a signal's timeout) do not hold it. */
async function held<T>(promise: Promise<T>): Promise<T> {
  const alive = setInterval(() => undefined, 1000);
  try {
    return await promise;
  } finally {
    clearInterval(alive);
  }
}

function asking(step: CallStep | undefined): Extract<CallStep, { kind: 'asking' }> {
  assert.equal(step?.kind, 'asking', JSON.stringify(step));
  return step;
}

describe('suspended calls', () => {
  test('the call runs once; each retry answers one question; the last step is the result', async () => {
    const calls = new SuspendedCalls();
    const runs = { count: 0 };
    const first = asking(await calls.start('t', twoQuestions(runs), never));
    assert.equal(first.request.message, 'first?');
    assert.equal(calls.size, 1);
    const second = asking(await calls.resume(first.token, 't', { action: 'accept', content: { name: 'Ada' } }, never));
    assert.equal(second.request.message, 'second?');
    assert.notEqual(second.token, first.token);
    const done = await calls.resume(second.token, 't', { action: 'decline' }, never);
    assert.deepEqual(done, { kind: 'done', result: { text: 'accept:Ada decline', isError: false } });
    assert.equal(runs.count, 1);
    assert.equal(calls.size, 0);
  });

  test('a token is good once, for its own tool, and an unknown one is refused', async () => {
    const calls = new SuspendedCalls();
    const first = asking(await calls.start('t', twoQuestions({ count: 0 }), never));
    assert.equal(calls.resume(first.token, 'other-tool', { action: 'accept' }, never), undefined);
    assert.equal(calls.resume('made-up', 't', { action: 'accept' }, never), undefined);
    asking(await calls.resume(first.token, 't', { action: 'accept', content: { name: 'x' } }, never));
    assert.equal(calls.resume(first.token, 't', { action: 'accept' }, never), undefined, 'used once');
    calls.dispose();
  });

  test('a call that ends while its question waits settles the question\'s next step with its end: what a task waits on besides the answer', async () => {
    const calls = new SuspendedCalls(50);
    const step = asking(
      await calls.start(
        't',
        async (ask, signal) => {
          await ask(form('anyone?'), signal).catch(() => undefined);
          return { text: 'ended at the expiry', isError: true };
        },
        never,
      ),
    );
    assert.deepEqual(await held(step.next), { kind: 'done', result: { text: 'ended at the expiry', isError: true } });
    assert.equal(calls.resume(step.token, 't', { action: 'accept' }, never), undefined, 'nothing to resume');
  });

  test('the next step of an answered question is the one resume resolves with', async () => {
    const calls = new SuspendedCalls();
    const first = asking(await calls.start('t', twoQuestions({ count: 0 }), never));
    const resumed = calls.resume(first.token, 't', { action: 'accept', content: { name: 'Ada' } }, never);
    const [viaResume, viaNext] = await Promise.all([resumed, first.next]);
    assert.equal(asking(viaNext).request.message, 'second?');
    assert.equal(viaResume, viaNext);
    calls.dispose();
  });

  test('a call nobody resumes is cancelled after the wait, and its question fails', async () => {
    const calls = new SuspendedCalls(50);
    let sawAbort = false;
    let failure = '';
    const step = asking(
      await calls.start(
        't',
        async (ask, signal) => {
          signal.addEventListener('abort', () => (sawAbort = true));
          try {
            await ask(form('anyone?'), signal);
          } catch (error) {
            failure = error instanceof Error ? error.message : String(error);
          }
          return { text: 'gave up', isError: true };
        },
        never,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(sawAbort, true);
    assert.match(failure, /the user's answer did not come within 0 s/);
    assert.equal(calls.resume(step.token, 't', { action: 'accept' }, never), undefined);
  });

  test('cancelling the request while the call runs cancels the call', async () => {
    const calls = new SuspendedCalls();
    const request = new AbortController();
    const step = calls.start(
      't',
      (_ask, signal) => new Promise<CallResult>((resolve) => signal.addEventListener('abort', () => resolve({ text: 'cancelled', isError: true }))),
      request.signal,
    );
    request.abort();
    assert.deepEqual(await step, { kind: 'done', result: { text: 'cancelled', isError: true } });
  });

  test('a call that throws ends as an error result', async () => {
    const calls = new SuspendedCalls();
    const step = await calls.start('t', () => Promise.reject(new Error('boom')), never);
    assert.deepEqual(step, { kind: 'done', result: { text: 'Tool "t" failed: boom', isError: true } });
  });

  test('dispose (the server shutting down) cancels every call: running, waiting at a question, and any started after', async () => {
    const calls = new SuspendedCalls();
    const aborted: string[] = [];
    const runUntilAborted =
      (label: string) =>
      (_ask: AskUser, signal: AbortSignal): Promise<CallResult> =>
        new Promise((resolve) => {
          const cancelled = (): void => {
            aborted.push(label);
            resolve({ text: `${label} cancelled`, isError: true });
          };
          if (signal.aborted) {
            cancelled();
          } else {
            signal.addEventListener('abort', cancelled);
          }
        });
    const running = calls.start('t', runUntilAborted('running'), never);
    const waiting = asking(await calls.start('t', async (ask, signal) => {
      signal.addEventListener('abort', () => aborted.push('waiting'));
      await ask(form('still there?'), signal).catch(() => undefined);
      return { text: 'over', isError: false };
    }, never));
    calls.dispose();
    assert.deepEqual(await running, { kind: 'done', result: { text: 'running cancelled', isError: true } });
    assert.equal(calls.resume(waiting.token, 't', { action: 'accept' }, never), undefined);
    assert.deepEqual(await calls.start('t', runUntilAborted('late'), never), { kind: 'done', result: { text: 'late cancelled', isError: true } });
    assert.deepEqual(aborted.sort(), ['late', 'running', 'waiting']);
  });

  test('dispose fails a question asked with a signal of its own, and its call ends', async () => {
    const calls = new SuspendedCalls();
    let failure = '';
    const waiting = asking(
      await calls.start(
        't',
        async (ask) => {
          // Not the call's signal: aborting the call does not reach this question.
          await ask(form('still there?'), never).catch((error: unknown) => (failure = error instanceof Error ? error.message : String(error)));
          return { text: 'ended', isError: true };
        },
        never,
      ),
    );
    calls.dispose();
    assert.deepEqual(await waiting.next, { kind: 'done', result: { text: 'ended', isError: true } });
    assert.equal(failure, 'the server is shutting down');
  });

  test('a question asked with a narrower signal (a step\'s time limit) fails when it aborts; the call goes on', async () => {
    const calls = new SuspendedCalls();
    let callSignal: AbortSignal | undefined;
    let failure = '';
    const step = asking(
      await calls.start(
        't',
        async (ask, signal) => {
          callSignal = signal;
          const stepLimit = AbortSignal.timeout(30);
          await ask(form('within the step?'), stepLimit).catch((error: unknown) => (failure = error instanceof Error ? error.message : String(error)));
          // The next step of the call runs: the call itself was not cancelled.
          return { text: `went on, cancelled: ${String(signal.aborted)}`, isError: false };
        },
        never,
      ),
    );
    assert.deepEqual(await held(step.next), { kind: 'done', result: { text: 'went on, cancelled: false', isError: false } });
    assert.equal(callSignal?.aborted, false);
    assert.match(failure, /cancelled while it waited/);
    assert.equal(calls.size, 0, 'its place is free');
    // A plain call's client retries with its answer: it gets how the call went on, not a call to start again.
    assert.equal(calls.resume(step.token, 'other-tool', { action: 'accept' }, never), undefined, 'for its own tool only');
    assert.deepEqual(await calls.resume(step.token, 't', { action: 'accept' }, never), { kind: 'done', result: { text: 'went on, cancelled: false', isError: false } });
  });

  test('one question a call at a time: a second, asked while the first waits, is refused; the first is still answered', async () => {
    const calls = new SuspendedCalls();
    let second = '';
    const step = asking(
      await calls.start(
        't',
        async (ask, signal) => {
          const first = ask(form('first?'), signal);
          await ask(form('second?'), signal).catch((error: unknown) => (second = error instanceof Error ? error.message : String(error)));
          return { text: `first: ${(await first).action}`, isError: false };
        },
        never,
      ),
    );
    assert.equal(step.request.message, 'first?');
    assert.match(second, /already waits for the answer to another question/);
    assert.deepEqual(await calls.resume(step.token, 't', { action: 'accept' }, never), { kind: 'done', result: { text: 'first: accept', isError: false } });
  });

  test('an answer handed on with a signal already aborted (a task cancelled at its question) cancels the call', async () => {
    const calls = new SuspendedCalls();
    let cancelled = false;
    const step = asking(
      await calls.start(
        't',
        async (ask, signal) => {
          await ask(form('go on?'), never);
          // Runs on until cancelled.
          if (!signal.aborted) {
            await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
          }
          cancelled = true;
          return { text: 'cancelled', isError: true };
        },
        never,
      ),
    );
    const aborted = new AbortController();
    aborted.abort();
    assert.deepEqual(await calls.resume(step.token, 't', { action: 'cancel' }, aborted.signal), { kind: 'done', result: { text: 'cancelled', isError: true } });
    assert.equal(cancelled, true);
  });

  test('past the most calls that may wait, a question is refused at once; an answered one frees its place', async () => {
    const calls = new SuspendedCalls(60_000, 2);
    const refusals: string[] = [];
    const asker = (ask: AskUser, signal: AbortSignal): Promise<CallResult> =>
      ask(form('wait?'), signal).then(
        (answer) => ({ text: answer.action, isError: false }),
        (error: unknown) => {
          refusals.push(error instanceof Error ? error.message : String(error));
          return { text: 'refused', isError: true };
        },
      );
    const first = asking(await calls.start('t', asker, never));
    asking(await calls.start('t', asker, never));
    assert.deepEqual(await calls.start('t', asker, never), { kind: 'done', result: { text: 'refused', isError: true } });
    assert.match(refusals[0] ?? '', /2 calls of this client already wait for the user's answer, the most one client may have at once \(2\)/);
    assert.equal(calls.size, 2);
    assert.deepEqual(await calls.resume(first.token, 't', { action: 'accept' }, never), { kind: 'done', result: { text: 'accept', isError: false } });
    asking(await calls.start('t', asker, never));
    calls.dispose();
  });

  test('a call cancelled while it waits at its question (the window\'s Cancel) gives the question up at once and frees its place', async () => {
    const calls = new SuspendedCalls(60_000, 1);
    let cancelCall: (() => void) | undefined;
    let failure = '';
    const step = asking(
      await calls.start(
        't',
        async (ask, signal, _progress, cancel) => {
          cancelCall = cancel;
          await ask(form('anyone?'), signal).catch((error: unknown) => (failure = String(error)));
          return { text: 'gave up', isError: true };
        },
        never,
      ),
    );
    assert.equal(calls.size, 1);
    cancelCall?.();
    await new Promise((resolve) => setImmediate(resolve));
    assert.match(failure, /the call was cancelled while it waited for the answer/);
    assert.equal(calls.size, 0, 'its place is free for another question');
    // The client's retry learns how the call ended, rather than to call the tool again.
    assert.deepEqual(await calls.resume(step.token, 't', { action: 'accept' }, never), { kind: 'done', result: { text: 'gave up', isError: true } });
    assert.equal(calls.resume(step.token, 't', { action: 'accept' }, never), undefined, 'once');
    // The one place (maxWaiting 1) takes the next question.
    asking(await calls.start('t', (ask, signal) => ask(form('next?'), signal).then(() => ({ text: 'ok', isError: false })), never));
    calls.dispose();
  });

  test('an abandoned call is cancelled and its question fails with the reason; its token then resumes nothing', async () => {
    const calls = new SuspendedCalls();
    let sawAbort = false;
    let failure = '';
    const step = asking(
      await calls.start(
        't',
        async (ask, signal) => {
          signal.addEventListener('abort', () => (sawAbort = true));
          await ask(form('anyone?'), signal).catch((error: unknown) => (failure = String(error)));
          return { text: 'gave up', isError: true };
        },
        never,
      ),
    );
    calls.abandon(step.token, 'the client went away');
    calls.abandon(step.token, 'twice is no error');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sawAbort, true);
    assert.match(failure, /the client went away/);
    assert.equal(calls.size, 0);
    assert.equal(calls.resume(step.token, 't', { action: 'accept' }, never), undefined);
  });
});
