/**
 * `npm start -- --restricted` shows what an untrusted repository gets: it must not inherit what was
 * approved in the plain demo (approvals are keyed by the plugin file's path, in a per-user store).
 * Without desktop VS Code on a platform code-server's setup cannot serve (it apt-installs), it
 * stops at once and says what to install, as the README says, instead of building first.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';

const ROOT = path.resolve(__dirname, '../../../..');

function paths(...args: string[]): Record<string, string> {
  const out = execFileSync('bash', [path.join(ROOT, 'scripts/start.sh'), ...args], {
    env: { ...process.env, START_DRY_RUN: '1', WORKSPACE_TOOLS_DEMO_STATE: '/tmp/wt-demo-state' },
    encoding: 'utf8',
  });
  return Object.fromEntries(out.trim().split('\n').map((line) => line.split('=', 2) as [string, string]));
}

describe('npm start -- --restricted', () => {
  test('uses a demo folder and an approval store of its own', () => {
    const plain = paths();
    const restricted = paths('--restricted');
    assert.equal(plain['workspace'], '/tmp/wt-demo-state/demo-workspace');
    assert.notEqual(restricted['workspace'], plain['workspace']);
    assert.notEqual(restricted['approvals'], plain['approvals']);
    assert.ok(restricted['approvals']?.startsWith('/tmp/wt-demo-state/'), restricted['approvals']);
  });
});

describe('npm start without desktop VS Code', () => {
  test('on macOS it stops before building and names the code command to install', () => {
    const bin = mkdtempSync(path.join(tmpdir(), 'wt-start-bin-'));
    try {
      // A PATH with bash's basics and a uname that says Darwin, and no `code`.
      for (const tool of ['dirname', 'grep', 'cat', 'mkdir', 'rm', 'cp', 'git', 'node', 'wc']) {
        const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
        if (found !== '') {
          symlinkSync(found, path.join(bin, tool));
        }
      }
      writeFileSync(path.join(bin, 'uname'), '#!/bin/sh\necho Darwin\n');
      chmodSync(path.join(bin, 'uname'), 0o755);
      const run = spawnSync('/bin/bash', [path.join(ROOT, 'scripts/start.sh')], {
        env: { PATH: bin, HOME: process.env['HOME'] ?? '/tmp', WORKSPACE_TOOLS_DEMO_STATE: path.join(bin, 'state') },
        encoding: 'utf8',
        timeout: 20_000,
      });
      assert.equal(run.status, 1, run.stdout + run.stderr);
      assert.match(run.stderr, /no desktop VS Code found: install VS Code and its "code" command on PATH/);
      assert.doesNotMatch(run.stdout, /building and packaging/);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
