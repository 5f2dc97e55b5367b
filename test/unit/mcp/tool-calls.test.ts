/**
 * A request's progress (src/mcp/tool-calls.ts): its result keeps a gap after the last progress
 * notification, so that a client of SDK 1.x, which handles a notification a microtask after the
 * response read in the same chunk, never sees a notification after the result; a request that
 * reported nothing lately answers at once, and nothing is sent once the result is due.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import { ApproveAllPolicy } from '../../../src/core/approval/approval-policy';
import { RESULT_AFTER_PROGRESS_MS, ToolCalls } from '../../../src/mcp/tool-calls';
import { SuspendedCalls } from '../../../src/mcp/suspended-calls';
import { memoryLogger, testRegistryDefaults } from '../helpers/fake-tools';

function toolCalls(): ToolCalls {
  const registry = new ToolRegistry({ ...testRegistryDefaults, builtins: [], approval: new ApproveAllPolicy(), logger: memoryLogger() });
  return new ToolCalls({ registry, suspended: new SuspendedCalls(), logger: memoryLogger() });
}

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
