/**
 * `npm start -- --restricted` shows what an untrusted repository gets: it must not inherit what was
 * approved in the plain demo (approvals are keyed by the plugin file's path, in a per-user store).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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
