import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ApprovalStore, parseStore } from '../../../src/core/approval/approval-store';
import { withFileLock } from '../../../src/core/approval/file-lock';
import { defaultApprovalStorePath } from '../../../src/core/approval/store-path';
import type { TempDir } from '../helpers/git-repo';
import { platformNamed } from '../../../src/core/platform/platform';
import { makeTempDir } from '../helpers/git-repo';
import { withUmask } from '../helpers/umask';

const HASH = 'a'.repeat(64);

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('wt-store-');
});
afterEach(() => dir.cleanup());

describe('defaultApprovalStorePath', () => {
  test('XDG_CONFIG_HOME, else ~/.config; a relative XDG_CONFIG_HOME is ignored; %APPDATA% on Windows', () => {
    assert.equal(defaultApprovalStorePath({ XDG_CONFIG_HOME: '/xdg' }, platformNamed('linux'), '/home/u'), '/xdg/workspace-tools/approvals.json');
    assert.equal(defaultApprovalStorePath({}, platformNamed('darwin'), '/Users/u'), '/Users/u/.config/workspace-tools/approvals.json');
    assert.equal(defaultApprovalStorePath({ XDG_CONFIG_HOME: 'rel' }, platformNamed('linux'), '/home/u'), '/home/u/.config/workspace-tools/approvals.json');
    assert.equal(defaultApprovalStorePath({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, platformNamed('win32'), 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Roaming\\workspace-tools\\approvals.json');
  });
});

describe('parseStore: a store this version cannot use approves nothing and says why, with its path', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['truncated', '{"version":1,"approved":{"/a":"', /is not valid JSON/],
    ['not an object', '[1,2]', /does not hold a JSON object/],
    ['another version', '{"version":2,"approved":{}}', /has version 2, not 1/],
    ['no approved map', '{"version":1}', /has no "approved" object/],
    ['a value that is no hash', '{"version":1,"approved":{"/a":"yes"}}', /the entry for "\/a" is not a SHA-256 hash/],
  ];
  for (const [name, text, message] of cases) {
    test(name, () => {
      const content = parseStore('/cfg/approvals.json', text);
      assert.equal(content.ok, false);
      assert.match(content.ok ? '' : content.problem, message);
      assert.match(content.ok ? '' : content.problem, /^\/cfg\/approvals\.json/);
    });
  }

  test('a good store', () => {
    const content = parseStore('/s', JSON.stringify({ version: 1, approved: { '/a': HASH } }));
    assert.deepEqual(content.ok ? [...content.approved] : [], [['/a', HASH]]);
  });
});

describe('ApprovalStore', () => {
  test('a missing store is empty; approve creates it (directories too) with real paths as keys', async () => {
    const store = new ApprovalStore(path.join(dir.path, 'cfg', 'workspace-tools', 'approvals.json'));
    assert.deepEqual(await store.read(), { ok: true, approved: new Map() });
    dir.write('ws/a.json', '{}');
    await store.approve([{ file: path.join(dir.path, 'ws', '.', 'a.json'), contentHash: HASH }]);
    const text = readFileSync(store.path, 'utf8');
    assert.deepEqual(JSON.parse(text), { version: 1, approved: { [path.join(dir.path, 'ws/a.json')]: HASH } });
  });

  test('the store is private to its user (0600) after each approval, the first one that makes it and the next that replace it', () =>
    withUmask(0o022, async () => {
      const store = new ApprovalStore(path.join(dir.path, 'cfg', 'approvals.json'));
      dir.write('ws/a.json', '{}');
      dir.write('ws/b.json', '{}');
      for (const name of ['a', 'b']) {
        await store.approve([{ file: path.join(dir.path, `ws/${name}.json`), contentHash: HASH }]);
        if (process.platform !== 'win32') {
          assert.equal(statSync(store.path).mode & 0o777, 0o600, `after approving ${name}.json`);
        }
      }
      const content = await store.read();
      assert.deepEqual(content.ok ? [...content.approved.keys()].map((file) => path.basename(file)) : [], ['a.json', 'b.json']);
    }));

  test('approving into a malformed store fails, naming it, and leaves its bytes as they were', async () => {
    const file = path.join(dir.path, 'approvals.json');
    writeFileSync(file, '{"version":1,"approved":{');
    await assert.rejects(new ApprovalStore(file).approve([{ file: '/x.json', contentHash: HASH }]), new RegExp(`${file} is not valid JSON.*left unchanged`));
    assert.equal(readFileSync(file, 'utf8'), '{"version":1,"approved":{');
  });

  test('many writers at once (separate store objects, as separate processes are): no approval is lost', async () => {
    const file = path.join(dir.path, 'approvals.json');
    const files = Array.from({ length: 40 }, (_, index) => `/ws/${index}.json`);
    await Promise.all(files.map((name) => new ApprovalStore(file).approve([{ file: name, contentHash: HASH }])));
    const content = await new ApprovalStore(file).read();
    assert.deepEqual(content.ok ? [...content.approved.keys()].sort() : [], [...files].sort());
  });
});

describe('withFileLock', () => {
  test('a lock left by a dead process is taken over once it is stale', async () => {
    const lock = path.join(dir.path, 'x.lock');
    writeFileSync(lock, '999999\n');
    const ran = await withFileLock(lock, () => Promise.resolve('ran'), { staleMs: 0, timeoutMs: 2000 });
    assert.equal(ran, 'ran');
  });

  test('a held lock that is not stale times out with a message that names it', async () => {
    const lock = path.join(dir.path, 'y.lock');
    writeFileSync(lock, `${process.pid}\n`);
    await assert.rejects(withFileLock(lock, () => Promise.resolve(), { timeoutMs: 100 }), /y\.lock is held by another process/);
  });
});

describe('ApprovalStore: what an approval covers, kept to name a change', () => {
  test('recorded with the approval, replaced by the next one, dropped when it covers nothing; a malformed entry is ignored, never fatal', async () => {
    const store = new ApprovalStore(path.join(dir.path, 'approvals.json'));
    const file = path.join(dir.path, 't.json');
    writeFileSync(file, '{}');
    await store.approve([{ file, contentHash: HASH, covers: { 'scripts/x.sh': 'sha256 1', '.npmrc': 'absent' } }]);
    const read = await store.read();
    assert.ok(read.ok);
    assert.deepEqual(read.covers?.get(file), { 'scripts/x.sh': 'sha256 1', '.npmrc': 'absent' });
    await store.approve([{ file, contentHash: HASH, covers: {} }]);
    const again = await store.read();
    assert.ok(again.ok);
    assert.equal(again.covers, undefined);
    assert.deepEqual(JSON.parse(readFileSync(store.path, 'utf8')), { version: 1, approved: { [file]: HASH } });
    const odd = parseStore('/cfg/approvals.json', JSON.stringify({ version: 1, approved: { '/a': HASH }, covers: { '/a': 'not an object', '/b': { x: 1 } } }));
    assert.ok(odd.ok);
    assert.equal(odd.covers, undefined);
  });
});
