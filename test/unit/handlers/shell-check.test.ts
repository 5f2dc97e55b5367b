import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { shellHandler } from '../../../src/core/handlers/shell/handler';
import type { ShellHandlerSpec } from '../../../src/core/handlers/shell/spec';
import type { JsonObjectSchema } from '../../../src/core/types';
import { compiled, problemsOf } from '../helpers/handler-run';

const SCHEMA: JsonObjectSchema = {
  type: 'object',
  properties: {
    pattern: { type: 'string' },
    files: { type: 'array', items: { type: 'string' } },
    'max-count': { type: 'integer' },
  },
};

const target = (inputSchema: JsonObjectSchema) => ({ toolName: 't', inputSchema, folder: { name: 'ws', path: process.cwd() } });

function problems(spec: Omit<ShellHandlerSpec, 'type'>, schema = SCHEMA) {
  return problemsOf(shellHandler, { type: 'shell', ...spec }, target(schema));
}

function summarize(spec: ShellHandlerSpec): string {
  return compiled(shellHandler, spec, target(SCHEMA)).summary;
}

describe('shell compile(): problems', () => {
  test('a correct spec has no problems', () => {
    assert.deepEqual(
      problems({
        command: ['grep', '-rn', '--max-count={{max-count}}', '{{pattern}}', '{{files}}'],
        env: { PATTERN: '{{pattern}}', HOME2: '${env:HOME}' },
        stdin: '{{pattern}}\n',
        linux: { script: 'grep -rn "$INPUT_PATTERN" .' },
        args: ['{{pattern}}'],
      }),
      [],
    );
    assert.deepEqual(problems({ command: 'grep -rn "{{pattern}}" {{files}}' }), []);
  });

  test('an env value with a ${env:...} that names no variable is an error at that value', () => {
    for (const value of ['${env:a-b}', '${env:}', 'x ${env:HOME', '${env:1ST}']) {
      const found = problems({ command: ['env'], env: { BAD: value, GOOD: 'a ${env:HOME} b' } });
      assert.equal(found.length, 1, value);
      assert.deepEqual(found[0]?.path, ['handler', 'env', 'BAD']);
      assert.match(found[0]?.message ?? '', /must name an environment variable/);
    }
  });

  test('exactly one of command and script, at the top and in overrides', () => {
    assert.deepEqual(problems({}), [
      {
        path: ['handler'],
        message: 'Set exactly one of "command" (a program and its arguments) or "script" (text run by a shell).',
      },
    ]);
    const both = problems({ command: ['ls'], script: 'ls', osx: { command: 'ls', script: 'ls' } });
    assert.deepEqual(
      both.map((problem) => problem.path),
      [['handler'], ['handler', 'osx']],
    );
    assert.match(both[0]?.message ?? '', /either "command" or "script", not both/);
  });

  test('a shell operator in a string command is an error pointing to script', () => {
    for (const operator of ['|', '||', '&&', ';', '>', '<', '`id`', '$(id)']) {
      const found = problems({ command: `grep {{pattern}} ${operator} x` });
      assert.equal(found.length, 1, operator);
      assert.deepEqual(found[0]?.path, ['handler', 'command']);
      assert.match(found[0]?.message ?? '', /shell operator .*Use "script"/);
    }
    const override = problems({ command: ['ls'], windows: { command: 'dir | more' } });
    assert.deepEqual(override[0]?.path, ['handler', 'windows', 'command']);
  });

  test('operators in an argv array are plain arguments', () => {
    assert.deepEqual(problems({ command: ['echo', '|', '&&', '$(id)'] }), []);
  });

  test('a placeholder naming no declared property is an error, wherever it is', () => {
    const found = problems({
      command: ['grep', '{{patern}}'],
      args: ['{{nope}}'],
      stdin: 'x {{stdinName}}',
      env: { A: '{{envName}}' },
      linux: { command: 'ls {{linuxName}}' },
      windows: { script: 'dir' },
    });
    assert.deepEqual(
      found.map((problem) => problem.path),
      [
        ['handler', 'command', 1],
        ['handler', 'linux', 'command'],
        ['handler', 'args', 0],
        ['handler', 'stdin'],
        ['handler', 'env', 'A'],
      ],
    );
    assert.equal(
      found[0]?.message,
      'Placeholder {{patern}} names no property of inputSchema.properties (declared: pattern, files, max-count).',
    );
    assert.match(found[4]?.message ?? '', /\{\{envName\}\}/);
  });

  test('a placeholder in script text is an error that explains INPUT_ variables and args', () => {
    const found = problems({ script: 'grep -rn {{pattern}} . | head -n {{max-count}}' });
    assert.equal(found.length, 2);
    assert.deepEqual(found[0]?.path, ['handler', 'script']);
    assert.match(found[0]?.message ?? '', /\$INPUT_PATTERN/);
    assert.match(found[0]?.message ?? '', /"args"/);
    assert.match(found[1]?.message ?? '', /\$INPUT_MAX_COUNT/);
    const override = problems({ command: ['ls'], osx: { script: 'ls {{pattern}}' } });
    assert.deepEqual(override[0]?.path, ['handler', 'osx', 'script']);
  });

  test('text that only looks like a placeholder (Go templates) is left alone', () => {
    assert.deepEqual(problems({ command: ['docker', 'ps', '--format', '{{.Names}}'] }), []);
    assert.deepEqual(problems({ script: "docker ps --format '{{ json .Names }}'" }), []);
  });

  test('an array property only fits a whole-token placeholder', () => {
    const found = problems({ command: ['grep', '--file={{files}}', '{{files}}'] });
    assert.equal(found.length, 1);
    assert.deepEqual(found[0]?.path, ['handler', 'command', 1]);
    assert.match(found[0]?.message ?? '', /array parameter "files".*"\{\{files\}\}"/);
    assert.equal(problems({ command: 'ls "x{{files}}"' }).length, 1);
  });

  test('args without any script, empty commands and placeholders in cwd are errors', () => {
    assert.deepEqual(
      problems({ command: ['ls'], args: ['x'] }).map((problem) => problem.path),
      [['handler', 'args']],
    );
    assert.deepEqual(problems({ command: [] })[0]?.path, ['handler', 'command']);
    assert.deepEqual(problems({ command: '   ' })[0]?.path, ['handler', 'command']);
    assert.deepEqual(problems({ command: ['ls'], cwd: '{{pattern}}' })[0]?.path, ['handler', 'cwd']);
  });
});

describe('shell compile(): summary', () => {
  test('shows the exact command, quoted for display', () => {
    assert.equal(
      summarize({ type: 'shell', command: ['grep', '-rn', '{{pattern}}', 'a b'] }),
      "grep -rn {{pattern}} 'a b'",
    );
    assert.equal(
      summarize({ type: 'shell', command: `grep -rn "a b" {{pattern}}` }),
      "grep -rn 'a b' {{pattern}}",
    );
  });

  test('shows the first line of a script', () => {
    assert.equal(
      summarize({ type: 'shell', script: '\n  npm test 2>&1 | tail -n 50\necho done' }),
      'script: npm test 2>&1 | tail -n 50',
    );
  });
});
