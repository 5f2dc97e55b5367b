import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ContentPart } from '../../../src/core/types';
import { formatRunResult } from '../../../src/extension/view-text/run-result';
import { NO_DATA_PARTS, lmPartsOf } from '../../../src/extension/view-text/lm-parts';
import { finishedCall } from '../../../src/core/history/finished-call';
import { RED_PIXEL_PNG } from '../helpers/media';

const CONTENT: readonly ContentPart[] = [
  { type: 'text', text: 'pixel.png (image/png, 70 bytes)' },
  { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
  { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
];

describe('the lm door\'s parts', () => {
  test('where VS Code has data parts, an image goes as its bytes; audio is described', () => {
    const parts = lmPartsOf(CONTENT, true);
    assert.deepEqual(parts[0], { kind: 'text', text: 'pixel.png (image/png, 70 bytes)' });
    assert.equal(parts[1]?.kind, 'image');
    assert.equal(parts[1]?.kind === 'image' ? Buffer.from(parts[1].bytes).toString('base64') : '', RED_PIXEL_PNG);
    assert.deepEqual(parts[2], { kind: 'text', text: '[audio/wav, 4 bytes]' });
  });

  test('where it has none, the image is a text stand-in that says why it is not attached', () => {
    const parts = lmPartsOf(CONTENT, false);
    assert.deepEqual(parts[1], { kind: 'text', text: `[image/png, 70 bytes, ${NO_DATA_PARTS}]` });
    assert.ok(parts.every((part) => part.kind === 'text' && !part.text.includes('iVBOR')));
  });
});

describe('Run Tool\'s result document with content parts', () => {
  test('names the parts and never holds the base64', () => {
    const image = Buffer.alloc(3 * 1024 * 1024, 1).toString('base64');
    const document = formatRunResult({
      name: 'file-reader',
      runs: 'read a file inside the workspace folder',
      input: { path: 'big.png' },
      result: { isError: false, text: 'big.png (image/png, 3.0 MB)\n[image/png, 3.0 MB]', content: [{ type: 'text', text: 'big.png (image/png, 3.0 MB)' }, { type: 'image', data: image, mimeType: 'image/png' }] },
      elapsedMs: 12,
      startedAt: new Date(0),
      locale: 'en-US',
    });
    assert.match(document, /- Content: text, image\/png 3\.0 MB \(images and audio are described below, not shown\)/);
    assert.match(document, /\[image\/png, 3\.0 MB\]/);
    assert.ok(document.length < 2000, `the document is ${document.length} characters`);
  });
});

describe('the history of a call with content parts', () => {
  test('keeps the text stand-in, never the base64', () => {
    const image = Buffer.alloc(2 * 1024 * 1024, 1).toString('base64');
    const record = finishedCall('file-reader', { path: 'big.png' }, { isError: false, text: '[image/png, 2.0 MB]', content: [{ type: 'image', data: image, mimeType: 'image/png' }] }, { door: 'mcp', started: 0, durationMs: 1, workspace: undefined });
    const line = Buffer.concat(record.parts());
    assert.equal((JSON.parse(line.toString()) as { output: string }).output, '[image/png, 2.0 MB]');
    assert.ok(line.length < 500, `the record is ${line.length} bytes`);
  });
});
