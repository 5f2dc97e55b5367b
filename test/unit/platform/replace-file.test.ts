import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { platformNamed } from '../../../src/core/platform/platform';
import { replaceFile, writeFileReplacing, writeFileReplacingSync } from '../../../src/core/platform/replace-file';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { withUmask } from '../helpers/umask';

let temp: TempDir;
beforeEach(() => {
  temp = makeTempDir('wt-replace-');
});
afterEach(() => temp.cleanup());

/** A rename that fails `times` times with `code` (what Windows does while a scanner holds the file), then renames. */
function flakyRename(times: number, code: string): { rename: (from: string, to: string) => Promise<void>; attempts: () => number } {
  let attempts = 0;
  return {
    attempts: () => attempts,
    rename: async (from, to) => {
      attempts += 1;
      if (attempts <= times) {
        throw Object.assign(new Error(`${code}: operation not permitted, rename '${from}' -> '${to}'`), { code });
      }
      const { rename } = await import('node:fs/promises');
      await rename(from, to);
    },
  };
}

test('replaceFile: on Windows a passing EPERM/EACCES/EBUSY is waited out; elsewhere, and for other errors, it fails at once', async () => {
  const dir = temp.path;
  const target = path.join(dir, 'approvals.json');
  writeFileSync(target, 'old');
  for (const code of ['EPERM', 'EACCES', 'EBUSY']) {
    writeFileSync(`${target}.tmp`, code);
    const flaky = flakyRename(3, code);
    await replaceFile(`${target}.tmp`, target, platformNamed('win32'), flaky.rename);
    assert.equal(readFileSync(target, 'utf8'), code);
    assert.equal(flaky.attempts(), 4);
  }
  writeFileSync(`${target}.tmp`, 'new');
  const onLinux = flakyRename(1, 'EPERM');
  await assert.rejects(replaceFile(`${target}.tmp`, target, platformNamed('linux'), onLinux.rename), /EPERM/);
  assert.equal(onLinux.attempts(), 1);
  const missing = flakyRename(1, 'ENOENT');
  await assert.rejects(replaceFile(`${target}.tmp`, target, platformNamed('win32'), missing.rename), /ENOENT/);
  assert.equal(missing.attempts(), 1);
  const stuck = flakyRename(1000, 'EPERM');
  await assert.rejects(replaceFile(`${target}.tmp`, target, platformNamed('win32'), stuck.rename), /EPERM/);
  assert.ok(stuck.attempts() > 5 && stuck.attempts() < 40, `gave up after ${stuck.attempts()} attempts`);
});

test('writeFileReplacing and writeFileReplacingSync make the folder, replace the file, and leave no temporary behind', async () => {
  const dir = temp.path;
  const target = path.join(dir, 'made', 'state.json');
  await writeFileReplacing(target, 'first');
  assert.equal(readFileSync(target, 'utf8'), 'first');
  await writeFileReplacing(target, 'second');
  assert.equal(readFileSync(target, 'utf8'), 'second');
  const syncTarget = path.join(dir, 'made-sync', 'state.json');
  writeFileReplacingSync(syncTarget, 'first');
  writeFileReplacingSync(syncTarget, 'second');
  assert.equal(readFileSync(syncTarget, 'utf8'), 'second');
  assert.deepEqual([...readdirSync(path.dirname(target)), ...readdirSync(path.dirname(syncTarget))], ['state.json', 'state.json']);
});

test('a write that cannot replace its file fails with the error and leaves no temporary behind', async () => {
  const dir = temp.path;
  // A directory with a file in it where the file should be: the rename over it fails.
  const target = path.join(dir, 'state.json');
  mkdirSync(target);
  writeFileSync(path.join(target, 'inside'), 'x');
  await assert.rejects(writeFileReplacing(target, 'text'));
  assert.throws(() => writeFileReplacingSync(target, 'text'));
  assert.deepEqual(readdirSync(dir), ['state.json']);
});

test('writeFileReplacing: a mode given is the new file\'s mode; without one the file gets writeFile\'s own', () =>
  withUmask(0o022, async () => {
    const dir = temp.path;
    const plain = path.join(dir, 'plain.json');
    writeFileSync(plain, 'made by writeFileSync');
    const unset = path.join(dir, 'unset.json');
    await writeFileReplacing(unset, 'default mode');
    const secret = path.join(dir, 'secret.json');
    writeFileSync(secret, 'was readable by others', { mode: 0o644 });
    await writeFileReplacing(secret, 'private', { mode: 0o600 });
    assert.equal(readFileSync(secret, 'utf8'), 'private');
    if (process.platform !== 'win32') {
      assert.equal(statSync(unset).mode & 0o777, statSync(plain).mode & 0o777);
      assert.equal(statSync(secret).mode & 0o777, 0o600);
    }
  }));
