/**
 * One rule from a process outcome to a result (src/core/process/outcome.ts): every outcome of a
 * real program classified, each way of ending worded once (a grep of src/core keeps "timed out
 * after" in that one place), and the rule applied alike: could not run is thrown, ran and ended
 * badly is returned as an error result, by shell, git, ripgrep, code tools and the file reader.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { createBuiltinTools, builtinDependencies, fileReaderTool, fixedRipgrep, gitStatusTool, ripgrepFromEnvironment } from '../../../src/core/builtins';
import { classifyOutcome, endedHow } from '../../../src/core/process/outcome';
import { runProcess } from '../../../src/core/process/run-process';
import type { ProcessRequest } from '../../../src/core/process/run-process';
import { ToolInputError } from '../../../src/core/tool-errors';
import type { ToolDefinition } from '../../../src/core/types';
import { folderOf, makeGitRepo, toolContext } from '../helpers/git-repo';
import { ShellFixture } from '../handlers/shell-fixture';

const ROOT = path.resolve(__dirname, '../../../..');
const node = (script: string, extra: Partial<ProcessRequest> = {}): Promise<ReturnType<typeof classifyOutcome>> =>
  runProcess({ file: process.execPath, args: ['-e', script], cwd: tmpdir(), env: process.env, timeoutMs: 10_000, maxOutputBytes: 1024, ...extra }).then((outcome) =>
    classifyOutcome(outcome, extra.timeoutMs ?? 10_000, [0, 3]),
  );

describe('classifying a real program\'s outcome', () => {
  test('ok, an exit code that is not accepted, a timeout, a cancellation, a signal, could not start', async () => {
    assert.deepEqual(await node('process.exit(3)'), { kind: 'ok', exitCode: 3 });
    assert.deepEqual(await node('process.exit(4)'), { kind: 'exit-code', exitCode: 4 });
    assert.deepEqual(await node('setTimeout(() => {}, 60_000)', { timeoutMs: 200 }), { kind: 'timeout', timeoutMs: 200 });
    assert.deepEqual(await node('setTimeout(() => {}, 60_000)', { signal: AbortSignal.abort() }), { kind: 'cancelled' });
    if (process.platform !== 'win32') {
      assert.deepEqual(await node('process.kill(process.pid, "SIGTERM"); setTimeout(() => {}, 60_000)'), { kind: 'signal', signal: 'SIGTERM' });
    }
    const missing = await runProcess({ file: 'wt-no-such-program', args: [], cwd: tmpdir(), env: process.env, timeoutMs: 1000, maxOutputBytes: 1024 });
    const end = classifyOutcome(missing, 1000);
    assert.equal(end.kind, 'not-started');
    assert.match(endedHow(end), /^could not start: .*ENOENT/);
  });

  test('each way of ending has one wording', () => {
    assert.equal(endedHow({ kind: 'timeout', timeoutMs: 250 }), 'timed out after 250 ms');
    assert.equal(endedHow({ kind: 'cancelled' }), 'was cancelled');
    assert.equal(endedHow({ kind: 'signal', signal: 'SIGKILL' }), 'was killed by SIGKILL');
    assert.equal(endedHow({ kind: 'exit-code', exitCode: 2 }), 'exited with code 2');
  });

  test('"timed out after" is worded in exactly one place in src/core', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : []));
    const places = files(path.join(ROOT, 'src/core')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (/timed out after/i.test(line) ? [`${path.relative(ROOT, file)}:${index + 1}`] : [])),
    );
    assert.equal(places.length, 1, places.join(', '));
    assert.match(places[0] ?? '', /^src\/core\/process\/outcome\.ts:/);
  });
});

describe('the rule, applied alike', () => {
  const repo = makeGitRepo();
  repo.commit('one', { 'a.txt': 'needle\n' });
  const shell = new ShellFixture();
  after(() => {
    repo.cleanup();
    shell.dispose();
  });
  const cancelled = toolContext([folderOf(repo)], { signal: AbortSignal.abort() });

  test('git that ran and was cancelled is the tool\'s error result, not a throw', async () => {
    const result = await gitStatusTool.run({}, cancelled);
    assert.deepEqual(result, { isError: true, text: 'git status was cancelled.' });
  });

  test('ripgrep and git grep that were cancelled are search-text\'s error result', async () => {
    const rg = ripgrepFromEnvironment()(process.env);
    assert.ok(rg !== undefined, 'ripgrep is installed (scripts/test-unit.mjs installs it)');
    for (const [ripgrep, text] of [[rg, 'ripgrep was cancelled.'], [undefined, 'git grep was cancelled.']] as const) {
      const searchText = createBuiltinTools(builtinDependencies({ ripgrep: fixedRipgrep(ripgrep) })).find((tool) => tool.name === 'search-text') as ToolDefinition;
      assert.deepEqual(await searchText.run({ query: 'needle' }, cancelled), { isError: true, text });
    }
  });

  test('a shell program that cannot start is thrown (the call could not run); one that times out is a result', async () => {
    const notStarted = await shell.run({ command: ['wt-no-such-program'] }, {});
    assert.match(notStarted.text, /^Tool "my-tool" failed: Could not start "wt-no-such-program"/);
    const timedOut = await shell.run({ command: [process.execPath, '-e', 'setTimeout(() => {}, 60_000)'], timeout: 200 }, {});
    assert.match(timedOut.text, /^The command timed out after 200 ms; the process tree was killed\./);
  });

  test('the file reader throws wrong input as every built-in does (it returned it)', async () => {
    await assert.rejects(fileReaderTool.run({ path: 'a.txt', folder: 'nope' }, toolContext([folderOf(repo)])), (error) => error instanceof ToolInputError && /Unknown workspace folder "nope"/.test(error.message));
  });
});
