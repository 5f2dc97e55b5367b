import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { complete, CompletionError, MAX_COMPLETION_VALUES } from '../../../src/core/completions';
import type { CompletionContext } from '../../../src/core/completions';
import { folderOf, makeFixtureRepo, makeTempDir, toolContext } from '../helpers/git-repo';
import type { TempDir } from '../helpers/git-repo';

function contextFor(dir: TempDir, overrides: { timeoutMs?: number; signal?: AbortSignal } = {}): CompletionContext {
  const run = toolContext([folderOf(dir)], { limits: overrides.timeoutMs === undefined ? {} : { timeoutMs: overrides.timeoutMs }, ...(overrides.signal === undefined ? {} : { signal: overrides.signal }) });
  return { folder: folderOf(dir), env: run.env, limits: run.limits, logger: run.logger, signal: run.signal };
}

describe('complete: enum values', () => {
  const dir = makeTempDir();
  after(() => dir.cleanup());

  test('values that start with the prefix, case-exact ones first, then case-insensitive ones', async () => {
    const result = await complete({ enum: ['security', 'style', 'Speed', 'perf'] }, 's', contextFor(dir));
    assert.deepEqual(result, { values: ['security', 'style', 'Speed'], total: 3, hasMore: false });
  });

  test('an empty prefix gives every value; no match gives none', async () => {
    assert.deepEqual((await complete({ enum: ['a', 'b'] }, '', contextFor(dir))).values, ['a', 'b']);
    assert.deepEqual(await complete({ enum: ['a', 'b'] }, 'zz', contextFor(dir)), { values: [], total: 0, hasMore: false });
  });

  test('at most 100 values, with the total and hasMore', async () => {
    const many = Array.from({ length: 250 }, (_, index) => `v${index}`);
    const result = await complete({ enum: many }, 'v', contextFor(dir));
    assert.equal(result.values.length, MAX_COMPLETION_VALUES);
    assert.equal(result.total, 250);
    assert.equal(result.hasMore, true);
  });

  test('a source with nothing to complete from answers no values', async () => {
    assert.deepEqual(await complete({}, 'x', contextFor(dir)), { values: [], total: 0, hasMore: false });
  });
});

describe('complete: workspace files (git ls-files, gitignore-aware)', () => {
  const repo = makeFixtureRepo();
  after(() => repo.cleanup());

  test('tracked and untracked files matching the glob and the prefix; ignored ones never', async () => {
    const all = await complete({ complete: { files: '**/*' } }, '', contextFor(repo));
    assert.ok(all.values.includes('src/app.ts') && all.values.includes('notes.txt'), JSON.stringify(all));
    assert.ok(!all.values.includes('debug.log') && !all.values.some((file) => file.startsWith('build/')), JSON.stringify(all));
    const ts = await complete({ complete: { files: 'src/**/*.ts' } }, 'src/f', contextFor(repo));
    assert.deepEqual(ts, { values: ['src/feature.ts'], total: 1, hasMore: false });
  });

  test('a glob that leaves the folder is refused with a clear error', async () => {
    await assert.rejects(complete({ complete: { files: '../**' } }, '', contextFor(repo)), (error: unknown) => error instanceof CompletionError && /must stay inside the workspace folder/.test(error.message));
  });

  test('outside a git repository: a directory walk that never follows a symlink out', async () => {
    const dir = makeTempDir();
    const outside = makeTempDir();
    try {
      dir.write('docs/a.md', 'a');
      outside.write('secret.md', 's');
      const { symlinkSync } = await import('node:fs');
      symlinkSync(outside.path, path.join(dir.path, 'docs', 'link'));
      const result = await complete({ complete: { files: '**/*.md' } }, '', contextFor(dir));
      assert.deepEqual(result.values, ['docs/a.md']);
    } finally {
      dir.cleanup();
      outside.cleanup();
    }
  });
});

describe('complete: a declared command (argv, no shell)', () => {
  const dir = makeTempDir();
  after(() => dir.cleanup());

  test('each non-empty line it prints is a value, filtered by the prefix', async () => {
    const result = await complete({ complete: { command: [process.execPath, '-e', 'console.log("main\\nmaster\\n\\n  feature/x  \\nmain")'] } }, 'ma', contextFor(dir));
    assert.deepEqual(result, { values: ['main', 'master'], total: 2, hasMore: false });
  });

  test('runs in the workspace folder, and shell syntax in its argv stays literal', async () => {
    writeFileSync(path.join(dir.path, 'marker.txt'), 'x');
    const result = await complete({ complete: { command: [process.execPath, '-e', 'console.log(require("fs").readdirSync(".").join("\\n")); console.log(process.argv[1])', '$(touch pwned); echo hi'] } }, '', contextFor(dir));
    assert.ok(result.values.includes('marker.txt'), JSON.stringify(result));
    assert.ok(result.values.includes('$(touch pwned); echo hi'), JSON.stringify(result));
    assert.equal((await complete({ complete: { command: [process.execPath, '-e', 'console.log(require("fs").existsSync("pwned"))'] } }, '', contextFor(dir))).values[0], 'false');
  });

  test('a command that fails says how, with what it printed', async () => {
    await assert.rejects(
      complete({ complete: { command: [process.execPath, '-e', 'console.error("no branches here"); process.exit(3)'] } }, '', contextFor(dir)),
      (error: unknown) => error instanceof CompletionError && /exited with code 3: no branches here/.test(error.message),
    );
  });

  test('a command that hangs is stopped at the timeout', async () => {
    const started = Date.now();
    await assert.rejects(
      complete({ complete: { command: [process.execPath, '-e', 'setInterval(() => {}, 1000)'] } }, '', contextFor(dir, { timeoutMs: 300 })),
      (error: unknown) => error instanceof CompletionError && /timed out after 300 ms/.test(error.message),
    );
    assert.ok(Date.now() - started < 4_000);
  });

  test('a flood of output is capped; values are still given', async () => {
    const result = await complete({ complete: { command: [process.execPath, '-e', 'for (let i = 0; i < 200000; i++) console.log("value-" + i)'] } }, 'value-1', contextFor(dir));
    assert.equal(result.values.length, MAX_COMPLETION_VALUES);
    assert.equal(result.hasMore, true);
    assert.ok(result.total < 200_000);
  });

  test('a program that does not exist is a clear error', async () => {
    await assert.rejects(complete({ complete: { command: ['no-such-program-wt-xyz'] } }, '', contextFor(dir)), (error: unknown) => error instanceof CompletionError && /no-such-program-wt-xyz/.test(error.message));
  });
});
