// Issue 33, attacks 7 and 8: what anyone who can write a file in the workspace decides the size
// of must cost time linear in it and never keep the server from answering. Each test runs the
// real server (or CLI) over stdio with a private HOME, and fails if the attack works again: a
// 450-task dependsOn chain stalled pings for 22 s, a 3,000-deep one overflowed the stack and
// served nothing of its import section, 10 tools of 1,000 steps took 18 s to `check`, and 1 MB of
// output through 301 patterns stalled pings for over 21 s.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { MAX_MATCH_CHECKS } from '../../../src/core/imports/problem-matchers';
import { MAX_CHAIN_TASKS } from '../../../src/core/imports/task-chains';
import { runCli } from '../helpers/cli';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { connectServer, listAllTools, resultText, type ConnectedServer } from '../helpers/mcp-client';
import { pingBudget, until, worstPingDuring } from '../helpers/ping-latency';

/** A ping may take this long while the work runs (the issue's bar is 100 ms on a quiet machine; CI is not one). */
const PING_FLOOR_MS = 500;

/** A tasks.json with one independent task, then a dependsOn chain t0 ← t1 ← ... of `length`, one task per line. */
function chainTasksJson(length: number): { text: string; lineOf: (label: string) => number } {
  const tasks = [{ label: 'hello', type: 'shell', command: 'echo hello' }, ...Array.from({ length }, (_, i) => ({ label: `t${i}`, type: 'shell', command: `echo ${i}`, ...(i > 0 ? { dependsOn: `t${i - 1}` } : {}) }))];
  const text = `{\n"version": "2.0.0",\n"tasks": [\n${tasks.map((task) => JSON.stringify(task)).join(',\n')}\n]\n}\n`;
  // Line 4 holds "hello", line 5 holds t0.
  return { text, lineOf: (label) => (label === 'hello' ? 4 : 5 + Number(label.slice(1))) };
}

const IMPORT_PLUGIN = JSON.stringify({ name: 'imported', import: [{ from: 'tasks' }, { from: 'make' }] });

let workspace: TempDir;
let home: TempDir;

beforeEach(() => {
  workspace = makeTempDir('wt-linear-');
  home = makeTempDir('wt-linear-home-');
});

afterEach(() => {
  workspace.cleanup();
  home.cleanup();
});

function connect(args: readonly string[]): Promise<ConnectedServer> {
  return connectServer(['--workspace', workspace.path, '--no-builtins', ...args], { env: { HOME: home.path } });
}

describe('loading is linear and never blocks', () => {
  test('a 450-task dependsOn chain in an unapproved file: pings are answered while it loads', async (t) => {
    const server = await connect([]);
    try {
      const budget = await pingBudget(server, PING_FLOOR_MS);
      workspace.write('.vscode/tasks.json', chainTasksJson(450).text);
      const started = performance.now();
      workspace.write('.vscode/tools/imported.json', IMPORT_PLUGIN);
      const loaded = until(() => /imported\.json is new and waits for approval/.test(server.stderr()), 60_000, 'the load of the 450-task chain');
      const { worst, pings } = await worstPingDuring(server, loaded);
      const took = performance.now() - started;
      t.diagnostic(`worst ping ${worst.toFixed(0)} ms over ${pings} pings; load ${took.toFixed(0)} ms`);
      assert.ok(worst < budget, `a ping took ${worst.toFixed(0)} ms while the chain loaded (budget ${budget.toFixed(0)} ms, ${pings} pings, load ${took.toFixed(0)} ms)`);
      // The load itself: 9-22 s when it was cubic; linear, 0.6-1.5 s measured on a loaded 2-core
      // machine, so 6 s fails a return of the cubic walk without failing a slow CI run.
      assert.ok(took < 6_000, `loading the 450-task chain took ${took.toFixed(0)} ms`);
    } finally {
      await server.close();
    }
  });

  test('a 3,000-deep chain: a problem at the task\'s line, the rest of the import section is still served', async () => {
    const chain = chainTasksJson(3000);
    workspace.write('.vscode/tasks.json', chain.text);
    workspace.write('Makefile', 'made:\n\t@echo made\n');
    workspace.write('.vscode/tools/imported.json', IMPORT_PLUGIN);
    const server = await connect(['--approve-existing']);
    try {
      const names = new Set((await listAllTools(server.client)).tools.map((tool) => tool.name));
      assert.ok(names.has('task-hello') && names.has('make-made'), 'the rest of the import section is served');
      assert.ok(names.has('task-t0') && names.has(`task-t${MAX_CHAIN_TASKS - 1}`), `a chain of up to ${MAX_CHAIN_TASKS} tasks is served`);
      assert.equal(names.has(`task-t${MAX_CHAIN_TASKS}`), false);
      assert.equal(names.has('task-t2999'), false);
      const tasksFile = path.join(workspace.path, '.vscode/tasks.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      await until(() => server.stderr().includes('"t2999": not served'), 10_000, 'the problem of t2999');
      const first = new RegExp(`${tasksFile}:${chain.lineOf(`t${MAX_CHAIN_TASKS}`)}:1\\b.*"t${MAX_CHAIN_TASKS}": not served: its dependsOn chain runs more than ${MAX_CHAIN_TASKS} tasks`);
      assert.match(server.stderr(), first);
      // The deepest task says why at its own line, in one sentence (not one nested per task of the chain).
      const deepest = new RegExp(`${tasksFile}:${chain.lineOf('t2999')}:1\\b.*"t2999": not served: it depends on "t2998", which is not served: it depends in turn on "t${MAX_CHAIN_TASKS}", which is not served: its dependsOn chain runs more than ${MAX_CHAIN_TASKS} tasks[^\\n]*$`, 'm');
      assert.match(server.stderr(), deepest);
      assert.doesNotMatch(server.stderr(), /Maximum call stack|RangeError|could not be loaded/);
      const ran = await server.client.callTool({ name: 'task-t2', arguments: {} });
      assert.deepEqual(resultText(ran).match(/^\d$/gm), ['0', '1', '2']);
    } finally {
      await server.close();
    }
  });

  test('10 tools of 1,000 steps: `check` takes seconds, not 18', async (t) => {
    const tools = Array.from({ length: 10 }, (_, t) => ({
      name: `long-${t}`,
      description: 'A long tool',
      steps: Array.from({ length: 1000 }, (_, i) => ({ name: `s${i}`, handler: { type: 'shell', command: ['echo', `${i}`, ...(i > 0 ? [`{{steps.s${i - 1}.exitCode}}`] : [])] } })),
    }));
    workspace.write('.vscode/tools/long.json', JSON.stringify({ tools }, null, 1));
    const started = performance.now();
    const checked = await runCli(['check', '--workspace', workspace.path], { configHome: home.path, cwd: workspace.path, env: { HOME: home.path } });
    const took = performance.now() - started;
    t.diagnostic(`check took ${took.toFixed(0)} ms`);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    assert.match(checked.stderr, /1 plugin file checked/);
    assert.ok(took < 10_000, `check took ${took.toFixed(0)} ms`);
  });
});

describe('problem matching has a budget and never blocks', () => {
  const PATTERNS = [...Array.from({ length: 300 }, () => ({ regexp: '^(.*)$' })), { regexp: '^(\\S+):(\\d+): (.*)$', file: 1, line: 2, message: 3 }];
  const NOISE = [
    // 75,000 lines (900 KB; the result keeps its head and tail): the 301st is a problem the 300 lines above it lead to.
    'const lines = Array.from({ length: 75000 }, (_, i) => "line " + String(i).padStart(6, "0"));',
    'lines[300] = "src/a.c:3: oops";',
    'process.stdout.write(lines.join("\\n") + "\\n");',
    '',
  ].join('\n');

  test('1 MB of output through 301 patterns: pings are answered, and the result says where the matcher stopped', async (t) => {
    workspace.write('noise.js', NOISE);
    workspace.write('.vscode/tasks.json', JSON.stringify({ version: '2.0.0', tasks: [{ label: 'noisy', type: 'process', command: 'node', args: ['noise.js'], problemMatcher: { owner: 'x', pattern: PATTERNS } }] }));
    workspace.write('.vscode/tools/imported.json', JSON.stringify({ name: 'imported', import: [{ from: 'tasks' }] }));
    const server = await connect(['--approve-existing']);
    try {
      const budget = await pingBudget(server, PING_FLOOR_MS);
      const call = server.client.callTool({ name: 'task-noisy', arguments: {} }, undefined, { timeout: 120_000 });
      const { worst, pings } = await worstPingDuring(server, call);
      const result = await call;
      t.diagnostic(`worst ping ${worst.toFixed(0)} ms over ${pings} pings`);
      assert.ok(worst < budget, `a ping took ${worst.toFixed(0)} ms while the output was matched (budget ${budget.toFixed(0)} ms, ${pings} pings)`);
      const structured = result.structuredContent as { problems: unknown[]; problemsStopped?: string };
      assert.deepEqual(structured.problems[0], { file: path.join(workspace.path, 'src/a.c'), line: 3, severity: 'error', message: 'oops' });
      assert.match(structured.problemsStopped ?? '', new RegExp(`stopped at line \\d+ of \\d+: reading on would take more than ${MAX_MATCH_CHECKS} checks`));
      assert.match(resultText(result).slice(-1000), /\d\n\[the problem matcher inline pattern \/\^\(\.\*\)\$\/ then [^\n]{0,80} stopped at line \d+ of \d+[^\n]*problems after that line are not reported\]\n*$/);
    } finally {
      await server.close();
    }
  });
});
