import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PRINT_ARGV, ShellFixture } from './shell-fixture';

let fixture: ShellFixture;
beforeEach(() => {
  fixture = new ShellFixture();
});
afterEach(() => {
  fixture.dispose();
});

describe('shell handler: values reach the program as literal arguments', () => {
  for (const value of ['; rm -rf ~', '$(id)', '`id`', 'a\nb; echo pwned', "it's \"quoted\" | cat", '{{other}} ${env:HOST_SECRET}']) {
    test(`${JSON.stringify(value)} is one argument`, async () => {
      assert.deepEqual(await fixture.argvOf({ command: [...PRINT_ARGV, '{{value}}'] }, { value, other: 'x' }), [value]);
      const printf = await fixture.run({ command: "printf '%s|' {{value}}" }, { value, other: 'x' });
      assert.equal(printf.text, `${value}|`);
    });
  }

  test('an embedded placeholder substitutes within its one token', async () => {
    assert.deepEqual(
      await fixture.argvOf({ command: [...PRINT_ARGV, '--name={{value}}', 'x{{count}}y{{flag}}'] }, { value: 'a b; c', count: 3, flag: false }),
      ['--name=a b; c', 'x3yfalse'],
    );
  });

  test('an array placeholder becomes one argument per element', async () => {
    assert.deepEqual(
      await fixture.argvOf({ command: [...PRINT_ARGV, 'first', '{{items}}', 'last'] }, { items: ['a b', '$(id)', ''] }),
      ['first', 'a b', '$(id)', '', 'last'],
    );
    assert.deepEqual(await fixture.argvOf({ command: [...PRINT_ARGV, '{{items}}'] }, { items: [] }), []);
  });

  test('defaults apply and an absent optional value drops its token', async () => {
    assert.deepEqual(
      await fixture.argvOf({ command: [...PRINT_ARGV, '{{withDefault}}', '{{value}}', '--other={{other}}', 'kept'] }, {}),
      ['the-default', 'kept'],
    );
  });
});

describe('shell handler: refused values', () => {
  test('a value starting an argument with "-" is argument injection', async () => {
    const result = await fixture.run({ command: [...PRINT_ARGV, '{{value}}'] }, { value: '--output=/tmp/x' });
    assert.equal(result.isError, true);
    assert.match(result.text, /Parameter "value" would start an argument with "-".*argument injection/);
    const embedded = await fixture.run({ command: [...PRINT_ARGV, '{{value}}.txt'] }, { value: '-rf' });
    assert.equal(embedded.isError, true);
    const array = await fixture.run({ command: [...PRINT_ARGV, '{{items}}'] }, { items: ['ok', '-x'] });
    assert.match(array.text, /Parameter "items"/);
  });

  test('a dash after a literal prefix, or with allowLeadingDash, is passed', async () => {
    assert.deepEqual(await fixture.argvOf({ command: [...PRINT_ARGV, '--ref={{value}}'] }, { value: '-x' }), ['--ref=-x']);
    assert.deepEqual(
      await fixture.argvOf({ command: [...PRINT_ARGV, '{{value}}'], allowLeadingDash: true }, { value: '-n' }),
      ['-n'],
    );
  });

  test('NUL bytes and over-long values are refused before anything runs', async () => {
    const nul = await fixture.run({ command: [...PRINT_ARGV, '{{value}}'] }, { value: 'a\0b' });
    assert.equal(nul.isError, true);
    assert.match(nul.text, /Parameter "value" contains a NUL character/);
    const long = await fixture.run({ command: [...PRINT_ARGV, '{{value}}'] }, { value: 'x'.repeat(101) }, fixture.context({}, { maxValueLength: 100 }));
    assert.equal(long.isError, true);
    assert.match(long.text, /Parameter "value" is 101 characters long; the limit is 100/);
    const nested = await fixture.run({ script: 'true' }, { items: ['ok', 'a\0'] });
    assert.match(nested.text, /Parameter "items" contains a NUL/);
  });
});
