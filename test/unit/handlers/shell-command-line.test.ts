import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatArgv, splitCommandLine } from '../../../src/core/handlers/shell/command-line';

function args(text: string): string[] {
  const result = splitCommandLine(text);
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.args;
}

function failure(text: string): string {
  const result = splitCommandLine(text);
  assert.equal(result.ok, false, `expected "${text}" to be refused`);
  return result.ok ? '' : result.message;
}

describe('splitCommandLine', () => {
  test('splits on whitespace and keeps placeholders as tokens', () => {
    assert.deepEqual(args('  grep -rn\t{{pattern}}  --include={{glob}} '), [
      'grep',
      '-rn',
      '{{pattern}}',
      '--include={{glob}}',
    ]);
  });

  test('single quotes, double quotes and backslashes group and escape without expanding', () => {
    assert.deepEqual(args(`printf '%s\\n' "a b" c\\ d "q\\"q" 'x"y' "$HOME" '' x""y`), [
      'printf',
      '%s\\n',
      'a b',
      'c d',
      'q"q',
      'x"y',
      '$HOME',
      '',
      'xy',
    ]);
  });

  test('operators inside quotes or escaped are literal text', () => {
    assert.deepEqual(args(`echo 'a | b' "c && d; e > f" \\| \\; '$(id)' '\`id\`' "\\$(id)"`), [
      'echo',
      'a | b',
      'c && d; e > f',
      '|',
      ';',
      '$(id)',
      '`id`',
      '$(id)',
    ]);
  });

  for (const [command, operator] of [
    ['grep x file | head', '"|"'],
    ['make || true', '"||"'],
    ['make && make test', '"&&"'],
    ['sleep 1 & echo', '"&"'],
    ['cd x; ls', '";"'],
    ['ls > out.txt', '">"'],
    ['ls >> out.txt', '">>"'],
    ['sort < in.txt', '"<"'],
    ['echo `id`', '"`"'],
    ['echo $(id)', '"$("'],
    ['echo "$(id)"', '"$("'],
    ['echo "`id`"', '"`"'],
    ['ls\nrm x', 'a line break'],
  ] as const) {
    test(`refuses ${JSON.stringify(command)} and points to script`, () => {
      const message = failure(command);
      assert.ok(message.includes(`shell operator ${operator}`), message);
      assert.match(message, /Use "script" instead of "command"/);
    });
  }

  test('unbalanced quotes and a trailing backslash are refused', () => {
    assert.match(failure(`echo 'abc`), /unclosed ' quote/);
    assert.match(failure('echo "abc'), /unclosed " quote/);
    assert.match(failure('echo abc\\'), /lone backslash/);
  });
});

describe('formatArgv', () => {
  test('quotes only what needs it, so the display round-trips', () => {
    const argv = ['grep', '-rn', '{{pattern}}', 'a b', "it's", '', '--x=1'];
    const shown = formatArgv(argv);
    assert.equal(shown, `grep -rn {{pattern}} 'a b' 'it'\\''s' '' --x=1`);
    assert.deepEqual(args(shown), argv);
  });
});
