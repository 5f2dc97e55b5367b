// The one rule for values and nested interpreters (src/core/handlers/shell/nested-code.ts): each
// way a value can become code is named; each way it stays an argument is served. The attacks run
// for real through the server in test/unit/security/values-never-code.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { argvValueProblem, scriptValueProblem, type CommandWord, type ValueNames } from '../../../src/core/handlers/shell/nested-code';
import { checkShellSpec } from '../../../src/core/handlers/shell/check';

const value = (name = 'the value {{msg}}'): CommandWord => [{ value: name }];
const argv = (...words: (string | CommandWord)[]): CommandWord[] => words.map((word) => (typeof word === 'string' ? [{ text: word }] : word));
const inputs: ValueNames = { variables: new Map([['INPUT_MSG', 'the value $INPUT_MSG']]), positional: false };
const posix = (script: string, names = inputs) => scriptValueProblem([{ text: script }], 'posix', names);

describe('nested code: argv', () => {
  const code: Record<string, CommandWord[]> = {
    'bash -c': argv('bash', '-c', [{ text: 'echo ' }, { value: 'the value {{msg}}' }]),
    'env bash --norc -ec': argv('/usr/bin/env', 'bash', '--norc', '-ec', value()),
    'sh -c eval "$1" with a value as $1': argv('sh', '-c', 'eval "$1"', 'sh', value()),
    'node -e': argv('node', '-e', value()),
    'node --eval=': argv('node', [{ text: '--eval=' }, { value: 'v' }]),
    'python3.11 -Ic': argv('python3.11', '-Ic', value()),
    'perl -ne': argv('perl', '-ne', value()),
    'ruby -e': argv('ruby', '-e', value()),
    'cmd /c': argv('cmd.exe', '/d', '/c', 'echo', value()),
    'powershell -Command': argv('powershell', '-Command', value()),
    'awk program': argv('awk', value()),
    'sed -e': argv('sed', '-e', value()),
  };
  for (const [name, words] of Object.entries(code)) {
    test(`a value in the code of ${name} is named`, () => {
      assert.match(argvValueProblem(words) ?? 'served', /would be (?:in the (?:script|code|program)|code)/);
    });
  }
  const literal: Record<string, CommandWord[]> = {
    'sh -c with the value as $1': argv('sh', '-c', 'echo "$1"', 'sh', value()),
    'node script.js VALUE': argv('node', 'script.js', value()),
    'node -e code VALUE': argv('node', '-e', 'console.log(process.argv[1])', value()),
    'pwsh -File script VALUE': argv('pwsh', '-File', 'a.ps1', value()),
    'awk program FILE': argv('awk', '{print $1}', value()),
    'grep VALUE': argv('grep', '-r', value(), '.'),
  };
  for (const [name, words] of Object.entries(literal)) {
    test(`${name} keeps the value an argument`, () => {
      assert.equal(argvValueProblem(words), undefined);
    });
  }
  test('a program read from the environment cannot be told apart from a shell: with a value, it is named', () => {
    assert.match(argvValueProblem(argv('${env:SHELL}', '-c', value())) ?? '', /the program \$\{env:SHELL\} is read from the environment/);
    assert.equal(argvValueProblem(argv('${env:SHELL}', '-c', 'echo hi')), undefined);
  });

  test('a shell that reads its code from stdin, when stdin holds a value', () => {
    assert.match(argvValueProblem(argv('sh'), undefined, true) ?? '', /pipe into "sh"/);
    assert.match(argvValueProblem(argv('python3'), undefined, true) ?? '', /pipe into "python3"/);
    assert.equal(argvValueProblem(argv('sh', 'script.sh'), undefined, true), undefined);
  });
});

describe('nested code: scripts', () => {
  test('a variable that carries a value, in a nested script, eval, a pipe or a substitution', () => {
    assert.match(posix(`bash -c 'echo '"\${INPUT_MSG}"''`) ?? '', /\$INPUT_MSG would be in the script that "bash -c" runs/);
    assert.match(posix('sh -c "echo $INPUT_MSG"') ?? '', /"sh -c"/);
    assert.match(posix('x=1; eval "$INPUT_MSG"') ?? '', /eval runs its words as code/);
    assert.match(posix('echo "$INPUT_MSG" | bash') ?? '', /pipe into "bash"/);
    assert.match(posix('bash -c "$(printf %s "$INPUT_MSG")"') ?? '', /command substitution/);
    assert.match(posix(`bash -c 'eval "$INPUT_MSG"'`) ?? '', /eval/, 'a literal script is read again: its own eval');
    assert.match(posix('node -e "$@"', { variables: new Map(), positional: true }) ?? '', /"node -e"/);
    assert.match(scriptValueProblem([{ text: 'cmd /c echo !INPUT_MSG!' }], 'cmd', inputs) ?? '', /cmd parses/);
    assert.match(scriptValueProblem([{ text: 'Invoke-Expression $env:INPUT_MSG' }], 'pwsh', inputs) ?? '', /invoke-expression/);
  });

  test('a value read in double quotes, as an argument, stays data', () => {
    for (const script of [`node argv.js "\${INPUT_MSG}" && echo done | sh -c 'cat'`, `bash -c 'echo "$INPUT_MSG"'`, 'echo "$INPUT_MSG" | grep x', 'echo ok # bash -c "$INPUT_MSG"', 'echo "$OTHER" | sh']) {
      assert.equal(posix(script), undefined, script);
    }
    assert.equal(scriptValueProblem([{ text: 'echo !INPUT_MSG! & dir' }], 'cmd', inputs), undefined);
  });
});

describe('nested code: the shell handler refuses it at load, at the place', () => {
  const schema = { type: 'object' as const, properties: { msg: { type: 'string' } } };
  test('command, script, stdin and env each', () => {
    const paths = (spec: Parameters<typeof checkShellSpec>[0]) => checkShellSpec(spec, schema).problems.map((problem) => problem.path.join('.'));
    assert.deepEqual(paths({ type: 'shell', command: ['bash', '-c', 'echo {{msg}}'] }), ['handler.command']);
    assert.deepEqual(paths({ type: 'shell', command: 'sh -c "echo {{msg}}"' }), ['handler.command']);
    assert.deepEqual(paths({ type: 'shell', script: 'eval "$INPUT_MSG"' }), ['handler.script']);
    assert.deepEqual(paths({ type: 'shell', script: 'echo hi', windows: { script: 'cmd /c echo !INPUT_MSG!' } }), ['handler.windows.script']);
    assert.deepEqual(paths({ type: 'shell', command: ['sh'], stdin: 'echo {{msg}}' }), ['handler.command']);
    assert.deepEqual(paths({ type: 'shell', command: ['sh', '-c', 'eval "$M"'], env: { M: '{{msg}}' } }), ['handler.command']);
    assert.deepEqual(paths({ type: 'shell', command: ['sh', '-c', 'echo "$1"', 'sh', '{{msg}}'] }), []);
    assert.deepEqual(paths({ type: 'shell', script: 'printf "%s\\n" "$INPUT_MSG"' }), []);
  });
});
