import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveContained } from '../../../src/core/paths/containment';

describe('resolveContained', () => {
  let root = '';
  let base = '';

  before(async () => {
    // realpath: on macOS the temp dir itself sits behind a symlink (/var -> /private/var).
    root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'wt-contain-')));
    base = path.join(root, 'base');
    await mkdir(path.join(base, 'sub'), { recursive: true });
    await mkdir(path.join(root, 'base-evil'));
    await writeFile(path.join(base, 'inside.txt'), 'inside');
    await writeFile(path.join(base, 'sub', 'deep.txt'), 'deep');
    await writeFile(path.join(root, 'base-evil', 'secret'), 'secret');
    await writeFile(path.join(root, 'outside.txt'), 'outside');
    await symlink(path.join(root, 'outside.txt'), path.join(base, 'link-out'));
    await symlink(path.join(root, 'base-evil'), path.join(base, 'dir-link-out'));
    await symlink(path.join(base, 'sub', 'deep.txt'), path.join(base, 'link-in'));
  });

  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('a relative path inside the base resolves to its real path', async () => {
    assert.equal(await resolveContained(base, 'sub/deep.txt'), path.join(base, 'sub', 'deep.txt'));
    assert.equal(await resolveContained(base, './sub/../inside.txt'), path.join(base, 'inside.txt'));
  });

  test('an absolute path inside the base is allowed', async () => {
    const file = path.join(base, 'inside.txt');
    assert.equal(await resolveContained(base, file), file);
  });

  test('a symlink inside pointing inside is allowed and resolved to its target', async () => {
    assert.equal(await resolveContained(base, 'link-in'), path.join(base, 'sub', 'deep.txt'));
  });

  const refused: [string, () => string, RegExp][] = [
    ['../../etc/passwd', () => '../../etc/passwd', /Path "\.\.\/\.\.\/etc\/passwd" is outside the allowed directory/],
    ['an absolute path outside', () => path.join(root, 'outside.txt'), /is outside the allowed directory/],
    ['/etc/passwd', () => '/etc/passwd', /is outside the allowed directory/],
    ['a sibling with the base as name prefix', () => '../base-evil/secret', /is outside the allowed directory/],
    ['the sibling by absolute path', () => path.join(root, 'base-evil', 'secret'), /is outside/],
    ['a symlink pointing out', () => 'link-out', /symbolic link.*outside the allowed directory/],
    ['a path through a symlinked directory out', () => 'dir-link-out/secret', /symbolic link/],
    ['a NUL byte', () => 'inside.txt\0.png', /NUL byte/],
  ];
  for (const [name, requested, message] of refused) {
    test(`refuses ${name}`, async () => {
      await assert.rejects(resolveContained(base, requested()), message);
    });
  }

  test('a missing file inside is "File not found" naming the requested path', async () => {
    await assert.rejects(resolveContained(base, 'nope.txt'), /^Error: File not found: nope\.txt$/);
  });

  test('a missing base directory is reported as such', async () => {
    await assert.rejects(resolveContained(path.join(root, 'gone'), 'x'), /allowed directory .*gone does not exist/);
  });

  test('a base reached through a symlink still contains its own files', async () => {
    const alias = path.join(root, 'alias');
    await symlink(base, alias);
    assert.equal(await resolveContained(alias, 'inside.txt'), path.join(base, 'inside.txt'));
    await assert.rejects(resolveContained(alias, '../outside.txt'), /outside the allowed directory/);
  });

  test('through a symlinked base, symlinks out are still refused and links in still resolve', async () => {
    const alias = path.join(root, 'alias-2');
    await symlink(base, alias);
    await assert.rejects(resolveContained(alias, 'link-out'), /symbolic link.*outside the allowed directory/);
    await assert.rejects(resolveContained(alias, 'dir-link-out/secret'), /symbolic link/);
    assert.equal(await resolveContained(alias, 'link-in'), path.join(base, 'sub', 'deep.txt'));
    assert.equal(await resolveContained(alias, path.join(base, 'inside.txt')), path.join(base, 'inside.txt'));
  });

  test('a base that is itself a symlink out of its parent contains its target (the real base counts)', async () => {
    const holder = path.join(root, 'holder');
    await mkdir(holder);
    await symlink(path.join(root, 'base-evil'), path.join(holder, 'ws'));
    assert.equal(await resolveContained(path.join(holder, 'ws'), 'secret'), path.join(root, 'base-evil', 'secret'));
    await assert.rejects(resolveContained(holder, 'ws/secret'), /symbolic link/);
  });
});
