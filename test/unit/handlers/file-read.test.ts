import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileReadHandler } from '../../../src/core/handlers/file-read/handler';
import type { FileReadHandlerSpec } from '../../../src/core/handlers/file-read/spec';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import type { ToolInput, ToolRunContext } from '../../../src/core/types';
import { memoryLogger } from '../helpers/fake-tools';
import { compiled, problemsOf, runAsRegistry } from '../helpers/handler-run';

const FIXED_SCHEMA = fileReadHandler.fixedInputSchema ?? { type: 'object' };
const target = (folder: string) => ({ toolName: 'docs', inputSchema: FIXED_SCHEMA, folder: { name: 'ws', path: folder } });
/** The registry's wording of an input error. */
const inputError = (message: string) => `Invalid input for tool "docs":\n${message}\nFix the arguments and call the tool again.`;

function context(folder: string, signal = new AbortController().signal): ToolRunContext {
  return { folders: [{ name: 'ws', path: folder }], signal, limits: DEFAULT_LIMITS, logger: memoryLogger(), env: {} };
}

describe('file-read handler', () => {
  let root = '';
  let folder = '';

  before(async () => {
    root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'wt-fileread-')));
    folder = path.join(root, 'ws');
    await mkdir(path.join(folder, 'base', 'docs'), { recursive: true });
    await mkdir(path.join(folder, 'base-evil'));
    await writeFile(path.join(folder, 'base', 'docs', 'a.md'), '# A\nalpha\nbeta\n');
    await writeFile(path.join(folder, 'base-evil', 'secret'), 'TOP SECRET');
    await writeFile(path.join(folder, 'top.txt'), 'top of folder');
    await writeFile(path.join(root, 'outside.txt'), 'OUTSIDE');
    await symlink(path.join(root, 'outside.txt'), path.join(folder, 'base', 'out-link'));
    await symlink(path.join(folder, 'base', 'docs', 'a.md'), path.join(folder, 'base', 'in-link'));
    await writeFile(path.join(folder, 'base', 'big.txt'), 'x'.repeat(2048));
    await writeFile(path.join(folder, 'base', 'blob.bin'), Buffer.from([1, 2, 0, 3]));
  });

  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  function run(spec: Partial<FileReadHandlerSpec>, input: ToolInput, signal?: AbortSignal) {
    return runAsRegistry(fileReadHandler, { type: 'file-read', ...spec }, target(folder), input, context(folder, signal));
  }

  test('reads a file under basePath, whole and by line range', async () => {
    assert.deepEqual(await run({ basePath: 'base' }, { path: 'docs/a.md' }), { text: '# A\nalpha\nbeta\n', isError: false, details: { ran: 'read base/docs/a.md' } });
    const ranged = await run({ basePath: 'base' }, { path: 'docs/a.md', startLine: 2, endLine: 2 });
    assert.deepEqual(ranged, { text: 'alpha\n[lines 2-2; the file continues after line 2]', isError: false, details: { ran: 'read base/docs/a.md' } });
  });

  test('basePath defaults to the workspace folder', async () => {
    assert.equal((await run({}, { path: 'top.txt' })).text, 'top of folder');
  });

  test('a symlink inside pointing inside is allowed', async () => {
    assert.equal((await run({ basePath: 'base' }, { path: 'in-link' })).text, '# A\nalpha\nbeta\n');
  });

  const refused: [string, string, RegExp][] = [
    ['../../etc/passwd', '../../etc/passwd', /outside the allowed directory/],
    ['/etc/passwd', '/etc/passwd', /outside the allowed directory/],
    ['a symlink pointing out', 'out-link', /symbolic link/],
    ['a sibling with the base as prefix', '../base-evil/secret', /outside the allowed directory/],
  ];
  for (const [name, requested, message] of refused) {
    test(`refuses ${name}, reading nothing`, async () => {
      const result = await run({ basePath: 'base' }, { path: requested });
      assert.equal(result.isError, true);
      assert.match(result.text, message);
      assert.doesNotMatch(result.text, /SECRET|OUTSIDE|root:/);
    });
  }

  test('an absolute path outside (the file exists) is refused', async () => {
    const result = await run({ basePath: 'base' }, { path: path.join(root, 'outside.txt') });
    assert.equal(result.isError, true);
    assert.match(result.text, /outside the allowed directory/);
  });

  test('a file over maxSize is refused with its size and the cap', async () => {
    const result = await run({ basePath: 'base', maxSize: 1024 }, { path: 'big.txt', startLine: 1, endLine: 1 });
    assert.deepEqual(result, {
      isError: true,
      text: inputError('File big.txt is 2,048 bytes (2.0 KiB), over the 1,024 bytes (1.0 KiB) limit for this tool; it was not read.'),
    });
  });

  test('a binary file is refused with the reason', async () => {
    const result = await run({ basePath: 'base' }, { path: 'blob.bin' });
    assert.equal(result.isError, true);
    assert.match(result.text, /blob\.bin looks binary/);
  });

  test('an invalid range is an error result that says what to fix', async () => {
    const result = await run({ basePath: 'base' }, { path: 'docs/a.md', startLine: 3, endLine: 1 });
    assert.deepEqual(result, { isError: true, text: inputError('endLine (1) must not be before startLine (3).') });
  });

  test('a basePath that is a symlink out of the folder is refused at run time', async () => {
    await symlink(root, path.join(folder, 'escape'));
    const result = await run({ basePath: 'escape' }, { path: 'outside.txt' });
    assert.equal(result.isError, true);
    assert.match(result.text, /^Tool "docs" failed: the tool is misconfigured: basePath: .*symbolic link/);
  });

  test('a cancelled call reads nothing and says so', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run({ basePath: 'base' }, { path: 'docs/a.md' }, controller.signal);
    assert.deepEqual(result, { isError: true, text: 'Tool "docs" failed: reading docs/a.md was cancelled.' });
  });
});

describe('file-read handler: compile problems and summary', () => {
  const check = (spec: FileReadHandlerSpec) => problemsOf(fileReadHandler, spec, target(process.cwd()));

  test('accepts a relative basePath inside the folder', () => {
    assert.deepEqual(check({ type: 'file-read', basePath: 'docs/api', maxSize: 10 }), []);
    assert.deepEqual(check({ type: 'file-read', basePath: 'a/../b' }), []);
  });

  test('refuses an absolute or escaping basePath at handler.basePath', () => {
    for (const basePath of ['/etc', '..', '../sibling', 'a/../../b', 'C:\\Windows']) {
      const problems = check({ type: 'file-read', basePath });
      assert.equal(problems.length, 1, basePath);
      assert.deepEqual(problems[0]?.path, ['handler', 'basePath']);
    }
  });

  test('refuses a maxSize that is not a positive whole number', () => {
    const problems = check({ type: 'file-read', maxSize: 0 });
    assert.deepEqual(problems.map((p) => p.path), [['handler', 'maxSize']]);
  });

  test('the fixed input schema requires path and allows only the range besides', () => {
    const fixed = fileReadHandler.fixedInputSchema;
    assert.deepEqual(fixed?.required, ['path']);
    assert.equal(fixed?.additionalProperties, false);
    assert.deepEqual(Object.keys(fixed?.properties ?? {}), ['path', 'startLine', 'endLine']);
  });

  test('the summary names the base path', () => {
    assert.equal(compiled(fileReadHandler, { type: 'file-read', basePath: 'docs' }, target(process.cwd())).summary, 'read files under docs');
    assert.equal(compiled(fileReadHandler, { type: 'file-read' }, target(process.cwd())).summary, 'read files under .');
  });
});
