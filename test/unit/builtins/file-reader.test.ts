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
import { RED_PIXEL_PNG } from '../helpers/media';

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
    await writeFile(path.join(first, 'pixel.png'), Buffer.from(RED_PIXEL_PNG, 'base64'));
    await writeFile(path.join(first, 'fake.png'), 'not a png at all\n');
    await writeFile(path.join(first, 'photo.JPG'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]));
    await writeFile(path.join(first, 'data.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    await writeFile(path.join(first, 'huge.gif'), Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(4 * 1024 * 1024)]));
    await symlink(path.join(second, 'outside.png'), path.join(first, 'escape.png'));
    await writeFile(path.join(second, 'outside.png'), Buffer.from(RED_PIXEL_PNG, 'base64'));
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

  test('a PNG, JPEG, GIF or WebP image is image content, with a line naming it; its text has no base64', async () => {
    const result = await call({ path: 'pixel.png' });
    assert.equal(result.isError, false, result.text);
    assert.deepEqual(result.content, [
      { type: 'text', text: 'pixel.png (image/png, 70 bytes)' },
      { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
    ]);
    assert.equal(result.text, 'pixel.png (image/png, 70 bytes)\n[image/png, 70 bytes]');
    assert.equal(result.structured, undefined, 'no structured content: the tool has no output schema');
    const jpeg = await call({ path: 'photo.JPG' });
    assert.equal(jpeg.content?.[1]?.type === 'image' ? jpeg.content[1].mimeType : undefined, 'image/jpeg');
  });

  test('an image name is not enough: a mislabelled file, an oversize image, a line range and an escape are refused', async () => {
    const cases: Array<[ToolInput, RegExp]> = [
      [{ path: 'fake.png' }, /fake\.png is named as image\/png but its content is not/],
      [{ path: 'huge.gif' }, /Image huge\.gif is over the 4\.0 MB limit for images; it was not read/],
      [{ path: 'pixel.png', startLine: 1 }, /pixel\.png is an image: startLine and endLine apply to text files only/],
      [{ path: 'escape.png' }, /outside/],
      [{ path: '../second/outside.png' }, /outside/],
    ];
    for (const [input, message] of cases) {
      const result = await call(input);
      assert.equal(result.isError, true, JSON.stringify(input));
      assert.match(result.text, message, JSON.stringify(input));
      assert.equal(result.content, undefined);
    }
  });

  test('other binary files are still refused', async () => {
    const result = await call({ path: 'data.bin' });
    assert.equal(result.isError, true);
    assert.match(result.text, /looks binary/);
  });
});
