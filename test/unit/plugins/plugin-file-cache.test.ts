import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { PluginFileCache, loadPluginDirectories } from '../../../src/core/plugins/scan-directories';

const tool = (name: string): string =>
  JSON.stringify({ tools: [{ name, description: 'd', tags: ['read'], handler: { type: 'shell', command: ['echo', name] } }] });

describe('PluginFileCache', () => {
  test('a reload reuses unchanged files, loads changed ones again and forgets removed ones', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wt-cache-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const directories = [{ path: dir, folder: { name: 'ws', path: dir } }];
    writeFileSync(path.join(dir, 'a.json'), tool('a'));
    writeFileSync(path.join(dir, 'b.json'), tool('b'));
    const cache = new PluginFileCache();

    const [a1, b1] = await loadPluginDirectories(directories, cache);
    writeFileSync(path.join(dir, 'b.json'), tool('b2'));
    const [a2, b2] = await loadPluginDirectories(directories, cache);
    assert.equal(a2, a1, 'unchanged a.json is the same load result');
    assert.notEqual(b2, b1, 'changed b.json is loaded again');
    assert.equal(b2?.tools[0]?.name, 'b2');

    unlinkSync(path.join(dir, 'a.json'));
    assert.deepEqual((await loadPluginDirectories(directories, cache)).map((file) => path.basename(file.file)), ['b.json']);
    writeFileSync(path.join(dir, 'a.json'), tool('a'));
    const [a3] = await loadPluginDirectories(directories, cache);
    assert.notEqual(a3, a1, 'a removed file was forgotten, so it is loaded afresh when it comes back');
    assert.equal(a3?.contentHash, a1?.contentHash);
  });
});
