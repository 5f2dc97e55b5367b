/**
 * Issue 21, attack 3: one call of a code tool capped at 64 MB of heap started 2,000 callTools of
 * a file-read tool at once, each ~1 MB result held in the server (+1 GB); and the same tool,
 * tagged only `read`, started 60 concurrent shell processes. Now nested calls of one call run at
 * most `nestedConcurrency` at once, a call's turn lasts until its answer is handed over, results
 * are cut at the caller's output limit and counted against a total, and a tool reaches through
 * callTool only what its own tags allow. The server's resident memory is measured from /proc
 * during each attack, against a margin the +1 GB attack would pass several times over.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MAX_NESTED_CALLS } from '../../../src/core/registry/call-budget';
import { isAlive } from '../helpers/processes';
import { residentMb, watchPeakResident } from '../helpers/proc';
import type { SandboxServer } from './sandbox-server';
import { codeTool, pluginFile, startSandboxServer } from './sandbox-server';

/** Most the server's resident memory may grow during one attack, in MB (the attack grew it past 1,000). */
const SERVER_GROWTH_LIMIT_MB = 250;

/** ~1 MB of text, under file-read's 1 MiB default size cap. */
const BIG_FILE = `${'0123456789abcdef'.repeat(64)}\n`.repeat(1000);

/** Attack 3 as written: 2,000 calls at once, every result kept. */
const AMPLIFY = `
export default async (input, context) => {
  const results = await Promise.all(Array.from({ length: 2000 }, () => context.callTool('read-big', { path: 'big.txt' })));
  return 'held ' + results.reduce((sum, result) => sum + result.text.length, 0) + ' characters';
};
`;

/** The same, keeping only a summary: the server's totals end it, not the sandbox's heap. */
const AMPLIFY_AND_DROP = `
export default async (input, context) => {
  const outcomes = await Promise.all(Array.from({ length: 2000 }, () => context.callTool('read-big', { path: 'big.txt' }).then((result) => (result.isError ? result.text : 'ok'))));
  const errors = outcomes.filter((outcome) => outcome !== 'ok');
  return { structured: { ok: outcomes.length - errors.length, errors: errors.length, firstError: errors[0] ?? null } };
};
`;

/** Starts calls and then never reads an answer: the answers would pile up in the server. */
const NEVER_READS = `
export default async (input, context) => {
  for (let index = 0; index < 500; index++) context.callTool('read-big', { path: 'big.txt' });
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (;;) {}
};
`;

/** Writes callTool messages to the channel itself, past the runner's queue. */
const FORGED_FLOOD = `
import { writeSync } from 'node:fs';
export default async () => {
  for (let id = 1000; id < 11000; id++) writeSync(3, JSON.stringify({ type: 'callTool', id, name: 'read-big', input: { path: 'big.txt' } }) + '\\n');
  await new Promise((resolve) => setTimeout(resolve, 5000));
  return 'flooded';
};
`;

/** 60 calls of a shell tool at once, as the attack did; reports each outcome. */
const SIXTY_SHELLS = `
export default async (input, context) => {
  const results = await Promise.all(Array.from({ length: input.count }, () => context.callTool(input.tool, {})));
  const ok = results.filter((result) => !result.isError);
  return { structured: { ok: ok.length, errors: [...new Set(results.filter((result) => result.isError).map((result) => result.text))], outputs: ok.map((result) => result.text) } };
};
`;

/** Sequential calls of a cheap tool, past the total count. */
const COUNT_PAST_TOTAL = `
export default async (input, context) => {
  let ok = 0;
  for (let index = 0; index < input.count; index++) {
    const result = await context.callTool('read-small', { path: 'small.txt' });
    if (result.isError) return { structured: { ok, error: result.text } };
    ok++;
  }
  return { structured: { ok, error: null } };
};
`;

/**
 * A shell tool that says when each of its runs starts and ends (nanoseconds). It runs long
 * against the time a spawn takes, so runs that are let through at once really overlap. Read-only:
 * it prints its span (a file would take `write` in the OS sandbox, and a read-only caller could
 * not call it).
 */
const TIMED_SCRIPT = 'start=$(date +%s%N); sleep 1; echo "$start $(date +%s%N)"';

const FILES = {
  'big.txt': BIG_FILE,
  'small.txt': 'small\n',
  'tools/amplify.mjs': AMPLIFY,
  'tools/amplify-and-drop.mjs': AMPLIFY_AND_DROP,
  'tools/never-reads.mjs': NEVER_READS,
  'tools/forged-flood.mjs': FORGED_FLOOD,
  'tools/sixty-shells.mjs': SIXTY_SHELLS,
  'tools/count-past-total.mjs': COUNT_PAST_TOTAL,
  '.vscode/tools/attacks.json': pluginFile([
    { name: 'read-big', description: 'reads files', tags: ['read'], handler: { type: 'file-read' } },
    { name: 'read-small', description: 'reads files', tags: ['read'], handler: { type: 'file-read' } },
    { name: 'shell-execute', description: 'starts a program', tags: ['execute'], handler: { type: 'shell', command: ['touch', 'shell-execute-ran'] } },
    { name: 'shell-read-timed', description: 'a read-only program that takes a while', tags: ['read'], handler: { type: 'shell', script: TIMED_SCRIPT } },
    codeTool('amplify', 'tools/amplify.mjs', ['read'], {}, { maxHeapMb: 64 }),
    codeTool('amplify-and-drop', 'tools/amplify-and-drop.mjs', ['read'], {}, { maxHeapMb: 64 }),
    codeTool('never-reads', 'tools/never-reads.mjs', ['read'], {}, { timeout: 4000 }),
    codeTool('forged-flood', 'tools/forged-flood.mjs', ['read']),
    codeTool('sixty-shells', 'tools/sixty-shells.mjs', ['read'], { inputSchema: { type: 'object', properties: { tool: { type: 'string' }, count: { type: 'integer' } } } }),
    codeTool('count-past-total', 'tools/count-past-total.mjs', ['read'], { inputSchema: { type: 'object', properties: { count: { type: 'integer' } } } }, { timeout: 120_000 }),
  ]),
};

let sandbox: SandboxServer;
before(async () => {
  sandbox = await startSandboxServer({ files: FILES });
});
after(async () => {
  await sandbox.close();
});

/** Runs `attack`, watching the server's resident memory; the growth over the memory before it, in MB. */
async function serverGrowthDuring<T>(attack: () => Promise<T>): Promise<{ value: T; growthMb: number }> {
  const before = residentMb(sandbox.pid);
  const watch = watchPeakResident(sandbox.pid);
  try {
    const value = await attack();
    return { value, growthMb: watch.stop() - before };
  } finally {
    watch.stop();
  }
}

/** The largest number of runs that overlapped in time, from the spans they printed. */
function mostAtOnce(outputs: readonly string[]): number {
  const spans = outputs.map((line) => line.trim().split(' ').map(Number) as [number, number]);
  return Math.max(...spans.map(([start]) => spans.filter(([otherStart, otherEnd]) => otherStart <= start && start < otherEnd).length));
}

describe('issue 21 attack 3: callTool amplification is bounded', () => {
  test('2,000 calls at once of a 1 MB file-read, every result kept: a clear error, and the server stays within its limits', async () => {
    const { value: result, growthMb } = await serverGrowthDuring(() => sandbox.call('amplify', {}, { timeoutMs: 120_000 }));
    assert.equal(result.isError, true);
    // The sandbox holds what it asked for: its own heap cap ends it, not the server's memory.
    assert.match(result.text, /^The code tool ran out of memory: its JavaScript heap reached the cap of 64 MB|^The code tool ran out of memory: its process used/);
    assert.ok(growthMb < SERVER_GROWTH_LIMIT_MB, `the server grew by ${growthMb.toFixed(0)} MB`);
    assert.equal(isAlive(sandbox.pid), true);
  });

  test('2,000 calls whose results the module drops: the total of results ends them with a clear error, memory stays bounded', async () => {
    const { value: result, growthMb } = await serverGrowthDuring(() => sandbox.call('amplify-and-drop', {}, { timeoutMs: 120_000 }));
    assert.equal(result.isError, false, result.text);
    const summary = JSON.parse(result.text) as { ok: number; errors: number; firstError: string };
    assert.ok(summary.ok > 50 && summary.ok < 70, `${summary.ok} results fit the 64 MB total`);
    assert.equal(summary.ok + summary.errors, 2000);
    assert.match(summary.firstError, /the results of this call's nested calls passed 64 MB in all, the most one call may receive\. Do the work in several calls/);
    assert.ok(growthMb < SERVER_GROWTH_LIMIT_MB, `the server grew by ${growthMb.toFixed(0)} MB`);
  });

  test('a sandbox that stops reading its answers makes the server hold no more than its turns: the timeout ends it', async () => {
    const { value: result, growthMb } = await serverGrowthDuring(() => sandbox.call('never-reads'));
    assert.equal(result.isError, true);
    assert.match(result.text, /^The code tool timed out after 4000 ms; its process tree was killed\./);
    assert.ok(growthMb < 100, `the server grew by ${growthMb.toFixed(0)} MB holding answers nobody reads`);
  });

  test('callTool messages written to the channel past the runner\'s queue stop the sandbox as a protocol error', async () => {
    const result = await sandbox.call('forged-flood');
    assert.equal(result.isError, true);
    assert.match(result.text, /^The code tool's sandbox stopped being understood \(the sandbox asked for more than 16 tool calls at once \(the runner sends at most 8\)\); nothing it sent after that was used\./);
    assert.equal(isAlive(sandbox.pid), true);
  });

  test('a code tool tagged read cannot reach a tool tagged execute: 60 calls, 60 clear refusals, no process started', async () => {
    const result = await sandbox.call('sixty-shells', { tool: 'shell-execute', count: 60 });
    assert.equal(result.isError, false, result.text);
    const summary = JSON.parse(result.text) as { ok: number; errors: string[] };
    assert.equal(summary.ok, 0);
    assert.equal(summary.errors.length, 1, 'one refusal, sixty times');
    assert.match(summary.errors[0] ?? '', /"sixty-shells" \(tags: read(, network)?\) cannot call "shell-execute" \(tags: execute\): a tool reaches through other tools only what its own tags allow, and it is not tagged "execute"|the read-only tool "sixty-shells" cannot call "shell-execute"/);
    assert.equal(existsSync(path.join(sandbox.workspace.path, 'shell-execute-ran')), false);
  });

  test('40 calls at once of a read-only shell tool run at most 8 at a time', async () => {
    const result = await sandbox.call('sixty-shells', { tool: 'shell-read-timed', count: 40 });
    assert.equal(result.isError, false, result.text);
    const summary = JSON.parse(result.text) as { ok: number; outputs: string[] };
    assert.equal(summary.ok, 40);
    const most = mostAtOnce(summary.outputs);
    assert.ok(most <= 8 && most >= 2, `${most} ran at once`);
  });

  test(`a call makes at most ${MAX_NESTED_CALLS} nested calls; the next is a clear error`, async () => {
    const result = await sandbox.call('count-past-total', { count: MAX_NESTED_CALLS + 5 }, { timeoutMs: 120_000 });
    assert.equal(result.isError, false, result.text);
    const summary = JSON.parse(result.text) as { ok: number; error: string };
    assert.equal(summary.ok, MAX_NESTED_CALLS);
    assert.match(summary.error, new RegExp(`"read-small" was not called: this call already made ${MAX_NESTED_CALLS} nested calls \\(callTool, tool steps, aliases\\), the most one call may make`));
  });
});

describe('issue 21 attack 3: the concurrency is a setting (--nested-concurrency)', () => {
  test('with --nested-concurrency 3, at most 3 run at a time', async () => {
    const three = await startSandboxServer({ files: FILES, serverArgs: ['--nested-concurrency', '3'] });
    try {
      const result = await three.call('sixty-shells', { tool: 'shell-read-timed', count: 9 });
      assert.equal(result.isError, false, result.text);
      const most = mostAtOnce((JSON.parse(result.text) as { outputs: string[] }).outputs);
      assert.ok(most <= 3 && most >= 2, `${most} ran at once`);
    } finally {
      await three.close();
    }
  });
});
