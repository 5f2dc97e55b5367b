// Attacks on plugin loading through what the model can write into .vscode/tools: a symlink
// named *.json that points at a device or an endless file must not hang or balloon the load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadPluginDirectories } from '../../../src/core/plugins/scan-directories';

async function toolsDir(): Promise<{ root: string; dir: string }> {
  const root = await mkdtemp(path.join(tmpdir(), 'wt-sec-load-'));
  const dir = path.join(root, '.vscode', 'tools');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'good.json'), JSON.stringify({ tools: [{ name: 'ok', description: 'd', handler: { type: 'file-read' } }] }));
  return { root, dir };
}

test('a plugin file symlinked to /dev/zero is refused quickly; the other files still load', { skip: !existsSync('/dev/zero'), timeout: 10_000 }, async () => {
  const { root, dir } = await toolsDir();
  try {
    await symlink('/dev/zero', path.join(dir, 'zero.json'));
    const started = performance.now();
    const files = await loadPluginDirectories([{ path: dir, folder: { name: 'w', path: root } }]);
    assert.ok(performance.now() - started < 2_000, 'refused without reading the device');
    const zero = files.find((file) => file.file.endsWith('zero.json'));
    assert.equal(zero?.tools.length, 0);
    assert.match(zero?.diagnostics[0]?.message ?? '', /not a regular file/);
    assert.equal(files.find((file) => file.file.endsWith('good.json'))?.tools.length, 1);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a plugin file symlinked to a FIFO does not block the load', { skip: process.platform === 'win32', timeout: 10_000 }, async () => {
  const { root, dir } = await toolsDir();
  try {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    await symlink(path.join(root, 'pipe'), path.join(dir, 'pipe.json'));
    const files = await loadPluginDirectories([{ path: dir, folder: { name: 'w', path: root } }]);
    assert.match(files.find((file) => file.file.endsWith('pipe.json'))?.diagnostics[0]?.message ?? '', /not a regular file/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('an oversized plugin file is refused with a diagnostic, not parsed', async () => {
  const { root, dir } = await toolsDir();
  try {
    await writeFile(path.join(dir, 'huge.json'), `{"tools":[]${' '.repeat(8 * 1024 * 1024)}}`);
    const files = await loadPluginDirectories([{ path: dir, folder: { name: 'w', path: root } }]);
    const huge = files.find((file) => file.file.endsWith('huge.json'));
    assert.equal(huge?.tools.length, 0);
    assert.match(huge?.diagnostics[0]?.message ?? '', /larger than/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
