/**
 * The tags-to-sandbox table (core/sandbox/policy.ts), row by row as the README states it, and
 * the declared `sandbox` block: what it adds, what it may not name, how each policy is described.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { checkDeclaredSandbox, CREDENTIAL_PATHS, describePolicy, policyFor, tagsImpliedBySandbox } from '../../../src/core/sandbox/policy';

const home = path.resolve('/home/dev');
const folder = path.resolve('/home/dev/project');
const state = [path.resolve('/home/dev/.config/workspace-tools'), path.resolve('/home/dev/.local/state/workspace-tools')];
const place = { folder, home, statePaths: state };

describe('sandbox policy from tags', () => {
  test('read only: writes only the temp folder, no network, credentials and state hidden', () => {
    const policy = policyFor(['read'], undefined, place);
    assert.equal(policy.write, 'temp-only');
    assert.deepEqual(policy.network, { kind: 'none' });
    for (const entry of CREDENTIAL_PATHS) {
      assert.ok(policy.denyRead.includes(path.join(home, entry)), entry);
    }
    for (const entry of state) {
      assert.ok(policy.denyRead.includes(entry));
    }
    assert.deepEqual(policy.allowRead, []);
  });

  test('execute alone changes nothing; write opens the workspace; network opens the network', () => {
    assert.equal(policyFor(['execute'], undefined, place).write, 'temp-only');
    assert.deepEqual(policyFor(['execute'], undefined, place).network, { kind: 'none' });
    assert.equal(policyFor(['execute', 'write'], undefined, place).write, 'workspace');
    assert.deepEqual(policyFor(['network'], undefined, place).network, { kind: 'open' });
  });

  test('declared hosts limit a network tool; declared paths limit a write tool and imply the tags', () => {
    const declared = { hosts: ['registry.npmjs.org'], write: ['dist', 'coverage/out'] };
    const tags = ['execute', ...tagsImpliedBySandbox(declared)] as const;
    assert.deepEqual([...tags], ['execute', 'write', 'network']);
    const policy = policyFor(tags, declared, place);
    assert.deepEqual(policy.network, { kind: 'hosts', hosts: ['registry.npmjs.org'] });
    assert.equal(policy.write, 'paths');
    assert.deepEqual(policy.writePaths, [path.join(folder, 'dist'), path.join(folder, 'coverage/out')]);
  });

  test('a declared read re-opens a credential but never the tool state', () => {
    const policy = policyFor(['read'], { read: ['~/.npmrc', path.join(state[0] ?? '', 'approvals.json')] }, place);
    assert.deepEqual(policy.allowRead, [path.join(home, '.npmrc')]);
  });

  test('the setting adds hidden paths', () => {
    const policy = policyFor(['read'], undefined, { ...place, extraDenyRead: ['~/.config/secret-cli', path.resolve('/opt/keys')] });
    assert.ok(policy.denyRead.includes(path.join(home, '.config/secret-cli')));
    assert.ok(policy.denyRead.includes(path.resolve('/opt/keys')));
  });

  test('declared write paths must stay inside the folder; read paths must be absolute or ~/', () => {
    const problems = checkDeclaredSandbox({ write: ['dist', '../outside', path.resolve('/tmp/x')], read: ['relative/key'] }, folder);
    assert.deepEqual(
      problems.map((problem) => problem.path),
      [
        ['sandbox', 'write', 1],
        ['sandbox', 'write', 2],
        ['sandbox', 'read', 0],
      ],
    );
    assert.match(problems[0]?.message ?? '', /"\.\.\/outside" is not inside the workspace folder/);
  });

  test('described in words a person approves', () => {
    assert.deepEqual(describePolicy(policyFor(['read'], undefined, place), home).slice(0, 2), ['writes: only its private temporary folder', 'network: none (loopback included)']);
    const lines = describePolicy(policyFor(['write', 'network'], { write: ['dist'], hosts: ['example.com'], read: ['~/.npmrc'] }, place), home);
    assert.equal(lines[0], 'writes: only dist and its private temporary folder');
    assert.equal(lines[1], 'network: only example.com');
    assert.match(lines[2] ?? '', /^hidden: ~\/\.ssh, ~\/\.aws, /);
    assert.doesNotMatch(lines[2] ?? '', /\.npmrc/);
    assert.equal(lines[3], 'also reads: ~/.npmrc');
  });
});

describe('the table as the README and docs/sandbox.md state it', () => {
  const ROOT = path.resolve(__dirname, '../../../..');
  // The rows of the first table whose header is "| tags".
  const rows = (file: string): string[] =>
    readFileSync(path.join(ROOT, file), 'utf8')
      .split(/^\| tags /m)[1]
      ?.split(/\n\n/)[0]
      ?.split('\n')
      .filter((line) => /^\| (no )?`(write|network)`/.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim()).join('|')) ?? [];

  test('both pages state the same four rows, which are the ones policyFor applies', () => {
    const readme = rows('README.md');
    assert.equal(readme.length, 4, readme.join('\n'));
    assert.deepEqual(readme, rows('docs/sandbox.md'));
    // Each row, as policyFor has it.
    assert.match(readme[0] ?? '', /only the call's private temporary folder/);
    assert.equal(policyFor(['read'], undefined, place).write, 'temp-only');
    assert.match(readme[1] ?? '', /the workspace folder and the temp folder/);
    assert.equal(policyFor(['write'], undefined, place).write, 'workspace');
    assert.match(readme[2] ?? '', /none, loopback included/);
    assert.equal(policyFor(['read'], undefined, place).network.kind, 'none');
    assert.match(readme[3] ?? '', /open, or only the declared hosts/);
    assert.equal(policyFor(['network'], undefined, place).network.kind, 'open');
    assert.equal(policyFor(['network'], { hosts: ['example.com'] }, place).network.kind, 'hosts');
  });
});
