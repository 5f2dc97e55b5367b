import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { clearRegisteredLeftovers, registeredFileName, registeredFileText } from '../../../src/core/plugins/registered-tool-file';
import { makeTempDir } from '../helpers/git-repo';

const folder = { name: 'ws', path: '/ws' };
const FILE = '/storage/registered-tools/acme.tools.json';
const TOOL = { name: 'acme-status', description: 'Status of the acme service', tags: ['read'], handler: { type: 'http', method: 'GET', url: 'https://acme.example/status' } };

describe('tools registered by other extensions', () => {
  test('one file per extension (and per named collection), named to stay the same across sessions', () => {
    assert.equal(registeredFileName({ extensionId: 'acme.tools' }), 'acme.tools.json');
    assert.equal(registeredFileName({ extensionId: 'acme.tools', name: 'Deploy Tools!' }), 'acme.tools.Deploy-Tools-.json');
    assert.equal(registeredFileName({ extensionId: '../../etc' }), 'etc.json');
  });

  test('the definitions become a plugin file that the loader loads as is, under the given name', () => {
    const built = registeredFileText([TOOL], 'Acme Tools', 'From the Acme extension', FILE, folder);
    assert.ok(built.ok);
    const loaded = loadPluginFile(FILE, built.text, folder);
    assert.equal(loaded.pluginName, 'Acme Tools');
    assert.deepEqual(loaded.tools.map((tool) => [tool.name, tool.tags]), [['acme-status', ['read']]]);
    assert.deepEqual(loaded.diagnostics, []);
  });

  test('definitions the loader refuses are refused whole, with every problem', () => {
    const built = registeredFileText([TOOL, { name: 'bad name!', description: 'x', handler: { type: 'shell', command: 'a | b' } }], 'Acme', undefined, FILE, folder);
    assert.ok(!built.ok);
    assert.ok(built.problems.length >= 1);
    assert.ok(built.problems.every((problem) => problem.startsWith('acme.tools.json:')), built.problems.join('\n'));
    assert.match(built.problems.join('\n'), /bad name!/);
    assert.deepEqual(registeredFileText([], 'Acme', undefined, FILE, folder), { ok: false, problems: ['registerTools takes a non-empty array of tool definitions (the "tools" of a plugin file).'] });
    assert.equal(registeredFileText({ tools: [TOOL] }, 'Acme', undefined, FILE, folder).ok, false);
  });
});

describe('the leftovers of a past session', () => {
  test('files go; a link goes itself, never what it points to; a folder put there stays and does not stop the load', () => {
    const storage = makeTempDir('wt-registered-');
    const outside = makeTempDir('wt-outside-');
    try {
      const directory = path.join(storage.path, 'registered-tools');
      mkdirSync(directory);
      writeFileSync(path.join(directory, 'old.json'), '{"tools":[]}');
      outside.write('precious.json', 'keep me');
      // Attacks: a link swapped in for a leftover, pointing at a file elsewhere, and at a folder elsewhere.
      symlinkSync(path.join(outside.path, 'precious.json'), path.join(directory, 'link.json'));
      symlinkSync(outside.path, path.join(directory, 'folder-link.json'));
      mkdirSync(path.join(directory, 'a-folder.json'));
      writeFileSync(path.join(directory, 'a-folder.json', 'inside'), 'x');
      clearRegisteredLeftovers(directory);
      assert.deepEqual(readdirSync(directory), ['a-folder.json']);
      assert.equal(readFileSync(path.join(outside.path, 'precious.json'), 'utf8'), 'keep me');
      assert.deepEqual(readdirSync(path.join(directory, 'a-folder.json')), ['inside']);
    } finally {
      storage.cleanup();
      outside.cleanup();
    }
  });

  test('an absent directory is made', () => {
    const storage = makeTempDir('wt-registered-');
    try {
      const directory = path.join(storage.path, 'nested', 'registered-tools');
      clearRegisteredLeftovers(directory);
      assert.deepEqual(readdirSync(directory), []);
    } finally {
      storage.cleanup();
    }
  });
});
