import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { workspaceFileUri } from '../../../src/core/resources/workspace-uri';
import { mkfifoSync } from './fifo';
import { symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import type { PromptDefinition } from '../../../src/core/prompts';
import { PromptArgumentError, renderPrompt } from '../../../src/core/prompts';
import { folderOf, makeTempDir } from '../helpers/git-repo';

/** A 1x1 PNG. */
export const PNG_BYTES = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('renderPrompt', () => {
  const dir = makeTempDir();
  const outside = makeTempDir();
  after(() => {
    dir.cleanup();
    outside.cleanup();
  });
  dir.write('src/a.ts', 'export const a = 1;\n');
  dir.write('notes.md', '# Notes\n');
  writeFileSync(path.join(dir.path, 'docs-diagram.png'), PNG_BYTES);
  writeFileSync(path.join(dir.path, 'data.bin'), Buffer.from([0, 1, 2, 255]));
  writeFileSync(path.join(dir.path, 'fake.png'), 'not an image');
  writeFileSync(path.join(dir.path, 'big.txt'), 'x'.repeat(2 * 1024 * 1024));
  outside.write('secret.txt', 'top secret');
  symlinkSync(path.join(outside.path, 'secret.txt'), path.join(dir.path, 'escape.txt'));
  symlinkSync(path.join(dir.path, 'notes.md'), path.join(dir.path, 'inside-link.md'));

  function prompt(spec: object): PromptDefinition {
    const loaded = loadPluginFile(path.join(dir.path, '.vscode/tools/p.json'), JSON.stringify({ prompts: [{ name: 'p', description: 'd', ...spec }] }), folderOf(dir));
    assert.deepEqual(loaded.diagnostics, []);
    return loaded.prompts?.[0] as PromptDefinition;
  }

  const review = (): PromptDefinition =>
    prompt({
      arguments: [{ name: 'file', required: true }, { name: 'focus', enum: ['security', 'style'] }],
      messages: [
        { role: 'user', text: 'Review {{file}} with a focus on {{focus}}.' },
        { role: 'user', file: '{{file}}' },
        { role: 'assistant', image: 'docs-diagram.png' },
      ],
    });

  test('text is filled, the file embedded as a text resource, the image as image content', async () => {
    const rendered = await renderPrompt(review(), { file: 'src/a.ts', focus: 'style' });
    assert.equal(rendered.description, 'd');
    assert.deepEqual(rendered.messages, [
      { role: 'user', content: { type: 'text', text: 'Review src/a.ts with a focus on style.' } },
      { role: 'user', content: { type: 'resource', resource: { uri: workspaceFileUri(folderOf(dir), 'src/a.ts'), mimeType: 'text/x-typescript', text: 'export const a = 1;\n' } } },
      { role: 'assistant', content: { type: 'image', data: PNG_BYTES.toString('base64'), mimeType: 'image/png' } },
    ]);
  });

  test('a value that looks like a template stays literal text', async () => {
    const rendered = await renderPrompt(prompt({ arguments: [{ name: 'a' }, { name: 'b' }], messages: [{ role: 'user', text: '{{a}} and {{b}}' }] }), { a: '{{b}}', b: 'x' });
    assert.deepEqual(rendered.messages[0]?.content, { type: 'text', text: '{{b}} and x' });
  });

  test('a binary file is embedded as a blob', async () => {
    const rendered = await renderPrompt(prompt({ messages: [{ role: 'user', file: 'data.bin' }] }), {});
    assert.deepEqual(rendered.messages[0]?.content, { type: 'resource', resource: { uri: workspaceFileUri(folderOf(dir), 'data.bin'), mimeType: 'application/octet-stream', blob: Buffer.from([0, 1, 2, 255]).toString('base64') } });
  });

  test('a missing required argument, an unknown argument and a value outside enum are clear errors', async () => {
    await assert.rejects(renderPrompt(review(), {}), new PromptArgumentError('Prompt "p" needs the argument "file".'));
    await assert.rejects(renderPrompt(review(), { file: '' }), /needs the argument "file"/);
    await assert.rejects(renderPrompt(review(), { file: 'src/a.ts', color: 'red' }), new PromptArgumentError('Prompt "p" has no argument "color" (its arguments: file, focus).'));
    await assert.rejects(renderPrompt(review(), { file: 'src/a.ts', focus: 'speed' }), new PromptArgumentError('Prompt "p": "speed" is not a value of "focus" (one of: security, style).'));
  });

  test('an optional argument left out is empty text, and a file message naming it is left out', async () => {
    const optional = prompt({ arguments: [{ name: 'extra' }], messages: [{ role: 'user', text: 'A[{{extra}}]' }, { role: 'user', file: '{{extra}}' }] });
    const rendered = await renderPrompt(optional, {});
    assert.deepEqual(rendered.messages, [{ role: 'user', content: { type: 'text', text: 'A[]' } }]);
  });

  test('paths from arguments stay in the workspace: "..", absolute, a symlink out, all refused', async () => {
    const file = prompt({ arguments: [{ name: 'f', required: true }], messages: [{ role: 'user', file: '{{f}}' }] });
    await assert.rejects(renderPrompt(file, { f: '../secret.txt' }), /contains "\.\."/);
    await assert.rejects(renderPrompt(file, { f: path.join(outside.path, 'secret.txt') }), /must be relative to the workspace folder, not absolute/);
    await assert.rejects(renderPrompt(file, { f: 'escape.txt' }), /cannot read escape\.txt: Path "escape\.txt" leads \(through a symbolic link\) outside the allowed directory/);
    await assert.rejects(renderPrompt(file, { f: 'missing.txt' }), /cannot read missing\.txt: File not found: missing\.txt/);
    const inside = await renderPrompt(file, { f: 'inside-link.md' });
    // Named as asked for (the link), read from where it leads (inside the folder).
    assert.deepEqual(inside.messages[0]?.content, { type: 'resource', resource: { uri: workspaceFileUri(folderOf(dir), 'inside-link.md'), mimeType: 'text/markdown', text: '# Notes\n' } });
  });

  test('a file over the size cap, a FIFO and a directory are refused without hanging', async () => {
    const file = prompt({ arguments: [{ name: 'f', required: true }], messages: [{ role: 'user', file: '{{f}}' }] });
    await assert.rejects(renderPrompt(file, { f: 'big.txt' }), /larger than 1048576 bytes/);
    if (mkfifoSync(path.join(dir.path, 'pipe'))) {
      await assert.rejects(renderPrompt(file, { f: 'pipe' }), /not a regular file/);
    }
    await assert.rejects(renderPrompt(file, { f: 'src' }), /cannot read src/);
  });

  test('an image message refuses a file that is not an image by its bytes', async () => {
    const image = prompt({ arguments: [{ name: 'i', required: true }], messages: [{ role: 'user', image: '{{i}}' }] });
    await assert.rejects(renderPrompt(image, { i: 'fake.png' }), new PromptArgumentError('Prompt "p": fake.png is not a PNG, JPEG, GIF or WebP image.'));
  });
});
