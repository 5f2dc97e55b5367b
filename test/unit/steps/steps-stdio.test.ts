// Multi-step tools, aliases and declared tests, over the real MCP server with real commands.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { runCli } from '../helpers/cli';
import type { ConnectedServer } from '../helpers/mcp-client';
import { connectServer, resultText } from '../helpers/mcp-client';
import { waitForPid, waitGone } from '../helpers/processes';
import { stepsPlugin } from './steps-fixture';

let workspace: TempDir;
let config: TempDir;
let server: ConnectedServer;
let trace: string;
let counter: string;

before(async () => {
  workspace = makeTempDir('wt-steps-');
  config = makeTempDir('wt-steps-xdg-');
  trace = path.join(workspace.path, 'trace.txt');
  counter = path.join(workspace.path, 'counter.txt');
  workspace.write('.vscode/tools/steps.json', stepsPlugin(trace, counter, workspace.path));
  // Outside the OS sandbox: these tests are about the steps runner (its steps write traces into the
  // workspace and record the pids this process sees); test/unit/sandbox proves sandboxed steps.
  server = await connectServer(['--workspace', workspace.path, '--no-builtins', '--approve-existing', '--sandbox', 'off'], { configHome: config.path });
});

after(async () => {
  await server.close();
  workspace.cleanup();
  config.cleanup();
});

const call = async (name: string, args: Record<string, unknown> = {}) => {
  const result = await server.client.callTool({ name, arguments: args });
  return { text: resultText(result), isError: result.isError === true };
};

/** name → [start, end] from the trace file the traced commands append to. */
function traced(): Map<string, [number, number]> {
  const lines = readFileSync(trace, 'utf8').trim().split('\n');
  return new Map(lines.map((line) => {
    const [name = '', start = '0', end = '0'] = line.split(' ');
    return [name, [Number(start), Number(end)]];
  }));
}

describe('steps over MCP', () => {
  test('steps run in order; parallel steps really overlap (each waits to meet the other); a later step reads an earlier one\'s stdout', async () => {
    const result = await call('pipeline');
    assert.equal(result.isError, false, result.text);
    assert.match(result.text, /^Steps: build succeeded, lint succeeded, test succeeded, report succeeded\./);
    assert.match(result.text, /\[succeeded\] report · exit 0 · \d+ ms\nreport:build/);
    const times = traced();
    const [buildStart, buildEnd] = times.get('build') ?? [0, 0];
    const [lintStart, lintEnd] = times.get('lint') ?? [0, 0];
    const [testStart, testEnd] = times.get('test') ?? [0, 0];
    assert.ok(buildEnd <= lintStart && buildEnd <= testStart, 'lint and test start after build ends');
    assert.ok(lintStart < testEnd && testStart < lintEnd, `lint ${lintStart}-${lintEnd} and test ${testStart}-${testEnd} overlap`);
    assert.ok(buildStart < buildEnd);
  });

  test('continueOnError, runIf on an exit code, runIf failure skipped when nothing failed', async () => {
    const result = await call('conditions');
    assert.equal(result.isError, false, result.text);
    assert.match(result.text, /Steps: flaky failed \(allowed\), after-flaky succeeded, on-exit-3 succeeded, only-on-failure skipped\./);
    assert.match(result.text, /saw exit 3/);
    assert.doesNotMatch(result.text, /should not run/);
  });

  test('a failing step fails the tool, skips what follows, and an "always" step still runs', async () => {
    const result = await call('failing');
    assert.equal(result.isError, true);
    assert.match(result.text, /Steps: breaks failed, skipped skipped, cleanup succeeded\. The tool failed at step "breaks"\./);
    assert.match(result.text, /\[failed\] breaks · exit 2/);
    assert.match(result.text, /cleaned/);
  });

  test('retry runs a failing step again, up to its attempts', async () => {
    const result = await call('retrying');
    assert.equal(result.isError, false, result.text);
    assert.match(result.text, /\[succeeded\] third-time · exit 0 · 3 attempts/);
    assert.equal(readFileSync(counter, 'utf8'), '3');
  });

  test('a step output that would start an argument with "-" is refused like any value', async () => {
    const result = await call('dash-from-step');
    assert.equal(result.isError, true);
    assert.match(result.text, /Parameter "steps\.make\.stdout" would start an argument with "-"/);
    assert.equal(existsSync('/tmp/x'), false);
  });

  test('a tool step calls another tool with templated input; an alias is its base with new defaults', async () => {
    const composed = await call('composed');
    assert.equal(composed.isError, false, composed.text);
    assert.match(composed.text, /composed-wordcomposed-wordcomposed-word/);
    assert.equal((await call('echo-twice', { word: 'ab' })).text, 'abab');
    assert.equal((await call('echo-twice', { word: 'ab', times: 3 })).text, 'ababab');
    const listed = (await server.client.listTools()).tools.find((tool) => tool.name === 'echo-twice');
    assert.deepEqual(listed?.inputSchema.properties?.['times'], { type: 'integer', default: 2 });
  });

  test('the tool\'s timeout stops a tool step too: the called tool\'s process is killed and the call ends then', async () => {
    const started = Date.now();
    const result = await call('calls-sleeper');
    const pid = await waitForPid(path.join(workspace.path, 'sleeper.pid'));
    // Before, the called tool ran on to its own 60 s limit and the call waited for it.
    assert.ok(Date.now() - started < 10_000, `the call took ${Date.now() - started} ms`);
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /Stopped: the tool's timeout of 500 ms passed/);
    assert.equal(await waitGone(pid, 5000), true, `the called tool's process ${pid} is still alive`);
  });

  test('cancelling a steps tool kills every running step\'s process', async () => {
    const controller = new AbortController();
    const pending = server.client.callTool({ name: 'sleepers', arguments: {} }, undefined, { signal: controller.signal });
    const pids = await Promise.all([waitForPid(path.join(workspace.path, 'one.pid')), waitForPid(path.join(workspace.path, 'two.pid'))]);
    controller.abort();
    await assert.rejects(pending);
    for (const pid of pids) {
      assert.equal(await waitGone(pid, 5000), true, `step process ${pid} still alive`);
    }
  });
});

describe('the test subcommand', () => {
  test('one line per test, N passed, N failed, exit 1; a hanging test is stopped at its time', async () => {
    const result = await runCli(['test', '--workspace', workspace.path, '--no-builtins', '--approve-existing', '--sandbox', 'off'], { configHome: config.path, cwd: workspace.path });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^PASS pipeline › reports what build printed \(\d+ ms\)$/m);
    assert.match(result.stdout, /^FAIL pipeline › a wrong expectation fails \(\d+ ms\)\n {5}\.vscode\/tools\/steps\.json:\d+:\d+: the output does not contain "nothing like this"$/m);
    assert.match(result.stdout, /^PASS failing › fails, and cleans up/m);
    assert.match(result.stdout, /^PASS echo › says hi/m);
    assert.match(result.stdout, /^FAIL hangs › is stopped at its time \(\d+ ms\)\n.*timed out after 500 ms/m);
    assert.match(result.stdout, /^3 passed, 2 failed$/m);
  });

  test('only the named tools; all passing exits 0; without approval the tests do not run', async () => {
    const passing = await runCli(['test', 'echo', '--workspace', workspace.path, '--no-builtins', '--approve-existing', '--sandbox', 'off'], { configHome: config.path, cwd: workspace.path });
    assert.equal(passing.code, 0, passing.stdout);
    assert.match(passing.stdout, /^1 passed, 0 failed$/m);
    const unapproved = await runCli(['test', 'echo', '--workspace', workspace.path, '--no-builtins', '--sandbox', 'off'], { configHome: config.path, cwd: workspace.path });
    assert.equal(unapproved.code, 1);
    assert.match(unapproved.stdout, /FAIL echo › says hi .*\n.*not run: .*waits for the user's approval/);
  });
});
