/**
 * The budget of one top-level call's nested calls (registry/call-budget.ts) through a real
 * registry with in-process tools: how many run at once, that tools calling tools several levels
 * deep never wait for each other forever, a cancelled wait, and results cut at the output limit.
 * The attacks themselves run against the real server in test/unit/security/code-amplification.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApproveAllPolicy } from '../../../src/core/approval/approval-policy';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import type { ToolDefinition, ToolResult, ToolRunContext } from '../../../src/core/types';
import { DEFAULT_LIMITS, textResult } from '../../../src/core/types';
import { memoryLogger, testRegistryDefaults, toolDefinition } from '../helpers/fake-tools';

const never = new AbortController().signal;

/** How many runs of the tools it counts are under way, and the most there ever were. */
class Gauge {
  now = 0;
  most = 0;
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.now += 1;
    this.most = Math.max(this.most, this.now);
    try {
      return await work();
    } finally {
      this.now -= 1;
    }
  }
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function registryOf(tools: ToolDefinition[], limits = { ...DEFAULT_LIMITS, nestedConcurrency: 3 }): ToolRegistry {
  return new ToolRegistry({ ...testRegistryDefaults, limits: () => limits, builtins: tools, approval: new ApproveAllPolicy(), logger: memoryLogger() });
}

/** A tool that calls `inner` `count` times at once and says how many came back without error. */
function fanOut(name: string, inner: string, count: number): ToolDefinition {
  return toolDefinition(name, {
    run: async (_input, context: ToolRunContext) => {
      const results = await Promise.all(Array.from({ length: count }, () => context.callTool?.(inner, {}) ?? Promise.resolve(textResult('none'))));
      return textResult(`${results.filter((result) => !result.isError).length} of ${count}`);
    },
  });
}

describe('nested calls of one call', () => {
  test('at most nestedConcurrency run at once; the rest wait their turn and all finish', async () => {
    const gauge = new Gauge();
    const leaf = toolDefinition('leaf', { run: () => gauge.during(async () => (await pause(20), textResult('leaf'))) });
    const result = await registryOf([leaf, fanOut('outer', 'leaf', 20)]).call('outer', {}, never);
    assert.deepEqual(result, { text: '20 of 20', isError: false, folder: process.cwd() });
    assert.equal(gauge.most, 3);
  });

  test('tools calling tools three levels deep, fanning out wider than the turns, all finish (a waiting caller lends its turn)', { timeout: 10_000 }, async () => {
    const gauge = new Gauge();
    const leaf = toolDefinition('leaf', { run: () => gauge.during(async () => (await pause(5), textResult('leaf'))) });
    const middle = fanOut('middle', 'leaf', 4);
    const outer = fanOut('outer', 'middle', 10);
    const result = await registryOf([leaf, middle, outer]).call('outer', {}, never);
    assert.deepEqual(result, { text: '10 of 10', isError: false, folder: process.cwd() });
    // Three from the pool, each middle lending its own turn to one leaf at a time.
    assert.ok(gauge.most <= 3, `${gauge.most} leaves ran at once`);
  });

  test('each top-level call has a budget of its own', async () => {
    const gauge = new Gauge();
    const leaf = toolDefinition('leaf', { run: () => gauge.during(async () => (await pause(30), textResult('leaf'))) });
    const registry = registryOf([leaf, fanOut('outer', 'leaf', 6)]);
    const results = await Promise.all([registry.call('outer', {}, never), registry.call('outer', {}, never)]);
    assert.deepEqual(results.map((result) => result.text), ['6 of 6', '6 of 6']);
    assert.equal(gauge.most, 6, 'three of each call at once');
  });

  test('a call waiting for its turn when the call is cancelled is not run, and says why', async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const slow = toolDefinition('slow', { run: async () => (ran.push('slow'), await pause(50), textResult('slow')) });
    const outer = toolDefinition('outer', {
      run: async (_input, context) => {
        const results: ToolResult[] = await Promise.all(Array.from({ length: 4 }, () => context.callTool?.('slow', {}) ?? Promise.resolve(textResult('none'))));
        return textResult(results.map((result) => result.text).join('\n'));
      },
    });
    const pending = registryOf([slow, outer], { ...DEFAULT_LIMITS, nestedConcurrency: 1 }).call('outer', {}, controller.signal);
    await pause(10);
    controller.abort();
    const result = await pending;
    assert.match(result.text, /"slow" was not called: the call was cancelled while it waited for its turn/);
    assert.ok(ran.length < 4, `${ran.length} of 4 ran`);
  });

  test('a nested call made with a signal already aborted (a step whose time ran out) is not run, and says why', async () => {
    const ran: string[] = [];
    const inner = toolDefinition('inner', { run: () => (ran.push('inner'), Promise.resolve(textResult('inner ran'))) });
    const outer = toolDefinition('outer', {
      run: async (_input, context) => {
        const over = new AbortController();
        over.abort();
        return (await context.callTool?.('inner', {}, over.signal)) ?? textResult('none');
      },
    });
    const result = await registryOf([inner, outer]).call('outer', {}, new AbortController().signal);
    assert.match(result.text, /"inner" was not called: the call was cancelled before its turn/);
    assert.deepEqual(ran, []);
  });

  test('a nested result is cut at the output limit with a note before the caller gets it; a top-level result is not touched', async () => {
    const big = toolDefinition('big', { run: () => Promise.resolve(textResult('z'.repeat(5000), { payload: 'p'.repeat(5000) })) });
    let seen: ToolResult | undefined;
    const outer = toolDefinition('outer', {
      run: async (_input, context) => {
        seen = await context.callTool?.('big', {});
        return textResult('done');
      },
    });
    const registry = registryOf([big, outer], { ...DEFAULT_LIMITS, maxOutputBytes: 1000 });
    await registry.call('outer', {}, never);
    assert.equal(seen?.text.startsWith('z'.repeat(1000) + '\n[output truncated: 4000 more bytes were not captured (cap 1000 bytes)]'), true, seen?.text.slice(990, 1100));
    assert.match(seen?.text ?? '', /\[structured result left out: 5014 bytes as JSON, over the cap of 1000 bytes\]$/);
    assert.equal(seen?.structured, undefined);
    assert.equal((await registry.call('big', {}, never)).text.length, 5000);
  });
});
