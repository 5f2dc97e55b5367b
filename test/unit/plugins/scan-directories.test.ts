import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadPluginDirectories } from '../../../src/core/plugins/scan-directories';
import type { WorkspaceFolder } from '../../../src/core/types';
import { FOLDER, fixture } from './fixtures';

describe('loadPluginDirectories', () => {
  test('a syntax error in one file does not stop the others; only *.json, in name order', async () => {
    const files = await loadPluginDirectories([{ path: fixture('mixed'), folder: FOLDER }]);
    assert.deepEqual(
      files.map((file) => [path.basename(file.file), file.tools.map((tool) => tool.name)]),
      [
        ['a-valid.json', ['list-todos']],
        ['b-syntax-error.json', []],
        ['c-comments.json', ['ping']],
      ],
    );
    const broken = files[1];
    assert.deepEqual(
      broken?.diagnostics.map((d) => [d.file, d.line, d.column]),
      [[fixture('mixed', 'b-syntax-error.json'), 6, 7]],
    );
    assert.ok(files.every((file) => file.folder === FOLDER));
  });

  test('a missing directory is empty, not an error; directories keep the order given', async () => {
    const other: WorkspaceFolder = { name: 'other', path: '/elsewhere' };
    const files = await loadPluginDirectories([
      { path: fixture('does-not-exist'), folder: FOLDER },
      { path: fixture('semantic'), folder: other },
      { path: fixture('mixed', 'a-valid.json'), folder: FOLDER },
      { path: fixture('mixed'), folder: FOLDER },
    ]);
    const names = files.map((file) => `${path.basename(path.dirname(file.file))}/${path.basename(file.file)}`);
    assert.deepEqual(names, [
      'semantic/duplicates.json',
      'semantic/file-read.json',
      'semantic/handler-problem.json',
      'semantic/invalid-input-schema.json',
      'semantic/tags.json',
      'mixed/a-valid.json',
      'mixed/b-syntax-error.json',
      'mixed/c-comments.json',
    ]);
    assert.equal(files[0]?.folder, other);
    assert.deepEqual(await loadPluginDirectories([{ path: fixture('nope'), folder: FOLDER }]), []);
  });

  test('names sort by code unit, not by locale; an unreadable file is a diagnostic', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wt-plugins-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const tool = (name: string) => JSON.stringify({ tools: [{ name, description: 'd', handler: { type: 'file-read' } }] });
    writeFileSync(path.join(dir, 'b.json'), tool('lower'));
    writeFileSync(path.join(dir, 'B.json'), tool('upper'));
    writeFileSync(path.join(dir, 'a.JSON'), tool('ignored'));
    mkdirSync(path.join(dir, 'dir.json'));
    symlinkSync(path.join(dir, 'gone'), path.join(dir, 'c.json'));
    const files = await loadPluginDirectories([{ path: dir, folder: FOLDER }]);
    assert.deepEqual(files.map((file) => path.basename(file.file)), ['B.json', 'b.json', 'c.json']);
    const dangling = files[2];
    assert.deepEqual(dangling?.tools, []);
    assert.equal(dangling?.contentHash, '');
    assert.deepEqual(dangling?.diagnostics.map((d) => [d.line, d.column]), [[1, 1]]);
    assert.match(dangling?.diagnostics[0]?.message ?? '', /^cannot read plugin file: ENOENT/);
  });

  test('100 files of 10 tools load in file-name order with no problems (speed: npm run bench)', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wt-plugins-perf-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    for (let f = 0; f < 100; f++) {
      const tools = Array.from({ length: 10 }, (_, i) => ({
        name: `t${f}_${i}`,
        description: 'A generated tool',
        inputSchema: { type: 'object', properties: { pattern: { type: 'string', default: 'TODO' } } },
        tags: ['read'],
        handler: { type: 'shell', command: ['grep', '-rn', '{{pattern}}', '.'], timeout: 1000 },
      }));
      writeFileSync(path.join(dir, `p${String(f).padStart(3, '0')}.json`), JSON.stringify({ tools }, null, 2));
    }
    const directories = [{ path: dir, folder: FOLDER }];
    const files = await loadPluginDirectories(directories);
    assert.equal(files.flatMap((file) => file.tools).length, 1000);
    assert.deepEqual(files.flatMap((file) => file.diagnostics), []);
    assert.deepEqual(files.map((file) => path.basename(file.file)).slice(0, 3), ['p000.json', 'p001.json', 'p002.json']);
    assert.equal(files[99]?.tools[9]?.name, 't99_9');
  });
});
