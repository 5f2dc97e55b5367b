/**
 * A request's progress (src/mcp/tool-calls.ts): its result keeps a gap after the last progress
 * notification, so that a client of SDK 1.x, which handles a notification a microtask after the
 * response read in the same chunk, never sees a notification after the result; a request that
 * reported nothing lately answers at once, and nothing is sent once the result is due. A plain call
 * is listed in the window's running calls for its whole life, across a question, and the
 * listing's Cancel cancels it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import { ApproveAllPolicy } from '../../../src/core/approval/approval-policy';
import { RESULT_AFTER_PROGRESS_MS, ToolCalls } from '../../../src/mcp/tool-calls';
import { SuspendedCalls } from '../../../src/mcp/suspended-calls';
import { RunningCalls } from '../../../src/core/running/running-calls';
import type { ToolDefinition } from '../../../src/core/types';
import { textResult } from '../../../src/core/types';
import { memoryLogger, testRegistryDefaults, toolDefinition } from '../helpers/fake-tools';

function toolCalls(builtins: ToolDefinition[] = [], running?: RunningCalls): ToolCalls {
  const registry = new ToolRegistry({ ...testRegistryDefaults, builtins, approval: new ApproveAllPolicy(), logger: memoryLogger() });
  return new ToolCalls({ registry, suspended: new SuspendedCalls(), logger: memoryLogger(), ...(running === undefined ? {} : { running }) });
}

/** A tool that asks one question, then reports a line and waits until its signal is aborted or `release` is called. */
function askingTool(): { tool: ToolDefinition; release: () => void } {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tool = toolDefinition('asker', {
    run: async (_input, context) => {
      await context.ask?.({ message: 'go on?', requestedSchema: { type: 'object', properties: {} } }, context.signal);
      context.progress?.('working after the answer');
      await Promise.race([released, new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }))]);
      return textResult(context.signal.aborted ? 'cancelled' : 'done');
    },
  });
  return { tool, release };
}

const REQUEST = { signal: new AbortController().signal, progress: undefined, cannotAsk: undefined };

test('a plain call is listed while it runs, across its question, until it ends', async () => {
  const running = new RunningCalls();
  const { tool, release } = askingTool();
  const calls = toolCalls([tool], running);
  const first = await calls.start('asker', {}, REQUEST);
  assert.equal(first.kind, 'asking');
  assert.deepEqual(running.list().map((call) => [call.tool, call.door]), [['asker', 'mcp']], 'listed while it waits at its question');
  const resumed = first.kind === 'asking' ? calls.resume(first.token, 'asker', { action: 'accept', content: {} }, REQUEST) : undefined;
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(running.list()[0]?.latest, 'working after the answer', 'listed after the answer, with its output line');
  release();
  const done = await resumed;
  assert.equal(done?.kind === 'done' ? done.result.text : undefined, 'done');
  assert.deepEqual(running.list(), []);
});

test('the listing\'s Cancel cancels a call resumed after its question', async () => {
  const running = new RunningCalls();
  const { tool } = askingTool();
  const calls = toolCalls([tool], running);
  const first = await calls.start('asker', {}, REQUEST);
  const resumed = first.kind === 'asking' ? calls.resume(first.token, 'asker', { action: 'accept', content: {} }, REQUEST) : undefined;
  await new Promise((resolve) => setTimeout(resolve, 20));
  const [listed] = running.list();
  assert.ok(listed !== undefined);
  assert.equal(running.cancel(listed.id), true);
  const done = await resumed;
  assert.equal(done?.kind === 'done' ? done.result.text : undefined, 'cancelled');
  assert.deepEqual(running.list(), []);
});

test('the result waits RESULT_AFTER_PROGRESS_MS after the last progress notification, and nothing is sent after', async () => {
  const sent: string[] = [];
  const progress = toolCalls().progressOf('t', (params) => {
    sent.push(params.message);
    return Promise.resolve();
  });
  assert.ok(progress !== undefined);
  progress.report('line 1');
  assert.deepEqual(sent, ['line 1'], 'the first report goes out at once');
  const started = performance.now();
  await progress.settle();
  // A timer may fire a millisecond or two early; what counts is that it waited, not that it did not.
  assert.ok(performance.now() - started >= RESULT_AFTER_PROGRESS_MS - 5, `settled after ${(performance.now() - started).toFixed(1)} ms`);
  progress.report('line 2');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(sent, ['line 1'], 'nothing after the result was due');
});

test('a request that reported nothing lately answers at once; one without a token has no progress', async () => {
  const calls = toolCalls();
  assert.equal(calls.progressOf(undefined, () => Promise.resolve()), undefined);
  const progress = calls.progressOf(7, () => Promise.resolve());
  assert.ok(progress !== undefined);
  const started = performance.now();
  await progress.settle();
  assert.ok(performance.now() - started < RESULT_AFTER_PROGRESS_MS, 'waited without a notification to wait after');
});
