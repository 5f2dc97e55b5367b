import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileReaderTool } from '../../../src/core/builtins/file-reader';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import type { ToolInput } from '../../../src/core/types';
import { memoryLogger } from '../helpers/fake-tools';
import { errorResultFor } from '../../../src/core/tool-errors';

describe('file-reader built-in tool', () => {
  let root = '';
  let first = '';
  let second = '';

  before(async () => {
    root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'wt-filereader-')));
    first = path.join(root, 'first');
    second = path.join(root, 'second');
    await mkdir(path.join(first, 'src'), { recursive: true });
    await mkdir(second);
    await writeFile(path.join(first, 'src', 'index.ts'), 'export const a = 1;\nexport const b = 2;\n');
    await writeFile(path.join(second, 'notes.md'), 'second folder\n');
    await symlink(path.join(second, 'notes.md'), path.join(first, 'to-second'));
  });

  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  function call(input: ToolInput) {
    const folders = [
      { name: 'first', path: first },
      { name: 'second', path: second },
    ];
    // As the registry calls it: a throw becomes the error result the model reads.
    return fileReaderTool.run(input, { folders, signal: new AbortController().signal, limits: DEFAULT_LIMITS, logger: memoryLogger(), env: {} }).catch((error: unknown) => errorResultFor(fileReaderTool.name, error));
  }

  test('is a read-only built-in with a schema the model can follow', () => {
    assert.equal(fileReaderTool.name, 'file-reader');
    assert.deepEqual(fileReaderTool.tags, ['read']);
    assert.deepEqual(fileReaderTool.source, { kind: 'builtin' });
    assert.deepEqual(fileReaderTool.inputSchema.required, ['path']);
    assert.equal(fileReaderTool.inputSchema.additionalProperties, false);
    assert.deepEqual(Object.keys(fileReaderTool.inputSchema.properties ?? {}), ['path', 'startLine', 'endLine', 'folder']);
  });

  test('reads in the first folder by default, whole or by range', async () => {
    assert.deepEqual(await call({ path: 'src/index.ts' }), { isError: false, text: 'export const a = 1;\nexport const b = 2;\n' });
    assert.deepEqual(await call({ path: 'src/index.ts', startLine: 2, endLine: 5 }), {
      isError: false,
      text: 'export const b = 2;\n[lines 2-2 of 2]',
    });
  });

  test('reads in another folder when asked by name', async () => {
    assert.equal((await call({ path: 'notes.md', folder: 'second' })).text, 'second folder\n');
  });

  test('refuses to leave the chosen folder, even into another workspace folder', async () => {
    for (const requested of ['../second/notes.md', 'to-second', path.join(second, 'notes.md'), '../../etc/passwd']) {
      const result = await call({ path: requested });
      assert.equal(result.isError, true, requested);
      assert.doesNotMatch(result.text, /second folder/);
    }
  });

  test('an unknown folder is an error listing the folders', async () => {
    const result = await call({ path: 'x', folder: 'third' });
    assert.equal(result.isError, true);
    assert.match(result.text, /Unknown workspace folder "third"\. Use one of: "first"/);
  });
});
