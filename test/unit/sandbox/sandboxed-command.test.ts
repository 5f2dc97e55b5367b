/**
 * The argv-to-command-text step the sandbox runtime needs (sandbox/sandboxed-command.ts): every
 * word reaches the program exactly as it was, whatever it holds, through a real POSIX shell, and
 * the exported variables reach its environment.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { posixQuote, sandboxedCommand } from '../../../src/core/sandbox/sandboxed-command';

/** What `node -e` prints for its argv, run by `sh -c <the command>`. */
function argvThroughShell(words: readonly string[], exports: Record<string, string> = {}): { argv: string[]; tmpdir: string | undefined } {
  const print = 'process.stdout.write(JSON.stringify({ argv: process.argv.slice(1), tmpdir: process.env.TMPDIR }))';
  const command = sandboxedCommand(process.execPath, ['-e', print, ...words], exports);
  return JSON.parse(execFileSync('/bin/sh', ['-c', command], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } })) as { argv: string[]; tmpdir: string | undefined };
}

describe('argv as POSIX command text', () => {
  test('quotes, newlines, a leading dash, shell syntax and empty words arrive unchanged', { skip: process.platform === 'win32' ? 'POSIX shells only' : false }, () => {
    const words = ["it's", 'two\nlines', '-rf', '$HOME `id` $(id) ; rm x | y && z', '', '*', '"double"', 'back\\slash', 'tab\there', 'ünïcode ✓'];
    assert.deepEqual(argvThroughShell(words).argv, words);
  });

  test('exports reach the environment; the program is exec\'ed (no shell left around it)', { skip: process.platform === 'win32' ? 'POSIX shells only' : false }, () => {
    assert.equal(argvThroughShell([], { TMPDIR: "/tmp/wt call 'x'" }).tmpdir, "/tmp/wt call 'x'");
    assert.match(sandboxedCommand('git', ['log', '-1'], { TMPDIR: '/t' }), /^export TMPDIR='\/t'; exec 'git' 'log' '-1'$/);
  });

  test('a NUL in a word, or a name no shell can export, is refused', () => {
    assert.throws(() => posixQuote('a\0b'), /NUL character/);
    assert.throws(() => sandboxedCommand('x', [], { 'A;B': '1' }), /not an environment variable name/);
  });
});
