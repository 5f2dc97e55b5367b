// Input a model controls, or a file it writes, must not stall the server's only event loop: each
// attack runs against the real stdio server while a `ping` must still be answered within 200 ms,
// or, on a machine so busy that pings to the idle server already take longer, within three times
// the worst ping to the idle server measured just before (an attack that works stalls for seconds
// to hours, far beyond either). The reload attack is measured up to three times, each with new
// files: a stall comes back every time, while a burst of load on a shared 2-core machine does not.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import type { ConnectedServer } from '../helpers/mcp-client';
import { connectServer, resultText } from '../helpers/mcp-client';

const PING_BUDGET_MS = 200;
/** How many reloads of hostile files may be measured before the worst ping of each counts as a stall. */
const RELOAD_ATTEMPTS = 3;

/** A plugin file with one tool whose input has a pattern that backtracks catastrophically. */
const SLUG_PLUGIN = JSON.stringify({
  tools: [
    {
      name: 'slug',
      description: 'Echoes a slug',
      tags: ['read'],
      inputSchema: { type: 'object', properties: { slug: { type: 'string', pattern: '^([a-z0-9]+-?)+$' } }, required: ['slug'] },
      handler: { type: 'shell', command: ['node', '-e', 'process.stdout.write(process.argv[1])', '{{slug}}'] },
    },
  ],
});

/** 1.5 million nested arrays: under the 4 MiB file cap, far over any parser's stack. */
const DEEP_PLUGIN = `{"tools": ${'['.repeat(1_500_000)}${']'.repeat(1_500_000)}}`;

/** One tool with a 100,000-entry enum (about 1 MB). */
const HUGE_ENUM_PLUGIN = JSON.stringify({
  tools: [
    {
      name: 'huge',
      description: 'An enum nobody needs',
      inputSchema: { type: 'object', properties: { x: { type: 'string', enum: Array.from({ length: 100_000 }, (_, i) => `value-${i}`) } } },
      handler: { type: 'shell', command: ['echo', '{{x}}'] },
    },
  ],
});

/** How long a ping takes while `work` runs (pinging every 20 ms until it settles): the worst one. */
async function worstPingDuring(server: ConnectedServer, work: Promise<unknown>): Promise<number> {
  let settled = false;
  const done = work.finally(() => {
    settled = true;
  });
  let worst = 0;
  do {
    const started = performance.now();
    await server.client.ping();
    worst = Math.max(worst, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  } while (!settled);
  await done;
  return worst;
}

/** The most a ping may take during an attack: 200 ms, or 3x the idle server's worst ping on a busy machine. */
async function pingBudget(server: ConnectedServer): Promise<number> {
  const idle = await worstPingDuring(server, new Promise((resolve) => setTimeout(resolve, 500)));
  return Math.max(PING_BUDGET_MS, 3 * idle);
}

let workspace: TempDir;

beforeEach(() => {
  workspace = makeTempDir('wt-stall-');
});

afterEach(() => {
  workspace.cleanup();
});

describe('nothing a model controls stalls the server', () => {
  test('a backtracking pattern in an approved plugin schema meets a hostile input', async () => {
    workspace.write('.vscode/tools/slug.json', SLUG_PLUGIN);
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins']);
    try {
      const budget = await pingBudget(server);
      const call = server.client.callTool({ name: 'slug', arguments: { slug: `${'a'.repeat(40)}!` } });
      const worst = await worstPingDuring(server, call);
      const result = await call;
      assert.equal(result.isError, true);
      assert.match(resultText(result), /slug.*must match pattern/s);
      assert.ok(worst < budget, `a ping took ${worst.toFixed(0)} ms during the call (budget ${budget.toFixed(0)} ms)`);
      const ok = await server.client.callTool({ name: 'slug', arguments: { slug: 'good-slug-1' } });
      assert.equal(resultText(ok), 'good-slug-1');
    } finally {
      await server.close();
    }
  });

  test('a glob made to backtrack, in a folder that is not a git repository', async () => {
    workspace.write(`${'a'.repeat(35)}`, 'x');
    workspace.write('docs/readme.md', 'x');
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing']);
    try {
      const budget = await pingBudget(server);
      const call = server.client.callTool({ name: 'list-files', arguments: { glob: `${'*a'.repeat(20)}*b` } });
      const worst = await worstPingDuring(server, call);
      assert.match(resultText(await call), /No files matching/);
      assert.ok(worst < budget, `a ping took ${worst.toFixed(0)} ms during the call (budget ${budget.toFixed(0)} ms)`);
    } finally {
      await server.close();
    }
  });

  test('a deeply nested and a huge-enum file beside an approved one: it stays served, at start and on reload', async () => {
    workspace.write('.vscode/tools/slug.json', SLUG_PLUGIN);
    workspace.write('.vscode/tools/deep.json', DEEP_PLUGIN);
    workspace.write('.vscode/tools/huge.json', HUGE_ENUM_PLUGIN);
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins']);
    try {
      assert.deepEqual((await server.client.listTools()).tools.map((tool) => tool.name), ['slug']);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.match(server.stderr(), /deep\.json:1:\d+.*more than 200 levels deep/);
      assert.match(server.stderr(), /huge\.json:\d+:\d+.*100000 entries/);

      // The same files written again while the server runs (new content, a reload each).
      const measured: string[] = [];
      let stalled = true;
      for (let attempt = 1; attempt <= RELOAD_ATTEMPTS && stalled; attempt++) {
        const budget = await pingBudget(server);
        const reloaded = server.nextListChanged(10_000).catch(() => undefined);
        workspace.write('.vscode/tools/deep2.json', `${DEEP_PLUGIN}${' '.repeat(attempt)}`);
        workspace.write('.vscode/tools/huge2.json', `${HUGE_ENUM_PLUGIN}${' '.repeat(attempt)}`);
        const worst = await worstPingDuring(server, new Promise((resolve) => setTimeout(resolve, 1500)));
        await reloaded;
        measured.push(`${worst.toFixed(0)} ms (budget ${budget.toFixed(0)} ms)`);
        stalled = worst >= budget;
      }
      assert.ok(!stalled, `the worst ping while the files loaded, in each of ${RELOAD_ATTEMPTS} reloads: ${measured.join(', ')}`);
      assert.deepEqual((await server.client.listTools()).tools.map((tool) => tool.name), ['slug']);
    } finally {
      await server.close();
    }
  });
});
