// Issue 33, attacks 3 and 4 and item 3: no value becomes code, at any depth. A value that would
// reach the script of a nested `sh -c`, `eval`, `node -e`, a shell fed by a pipe, or a justfile
// line through a parameter default or a dependency, is either kept literal or the task is not
// served, with a problem at its line. Real server over stdio and the real command line, private HOME.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { resultText } from '../helpers/mcp-client';
import { PrivateHome } from './private-home';

/** The value of the issue: a shell that reads it as code prints 42. */
const ARITHMETIC = 'hi; echo $((6*7))';
const TOUCH = 'x; touch pwned #';

function tasksJson(tasks: unknown[]): string {
  return JSON.stringify({ version: '2.0.0', inputs: [{ id: 'msg', type: 'promptString', description: 'A message' }], tasks }, null, 2);
}

const TASKS = tasksJson([
  { label: 'nested bash', type: 'shell', command: "bash -c 'echo ${input:msg}'" },
  { label: 'nested sh', type: 'shell', command: 'sh -c "echo ${input:msg}"' },
  { label: 'process sh', type: 'process', command: 'sh', args: ['-c', 'echo ${input:msg}'] },
  { label: 'eval', type: 'shell', command: 'eval echo ${input:msg}' },
  { label: 'node eval', type: 'process', command: 'node', args: ['-e', 'console.log(${input:msg})'] },
  { label: 'piped', type: 'shell', command: 'echo ${input:msg} | sh' },
  { label: 'via env', type: 'shell', command: "env bash -c 'eval \"$MSG\"'", options: { env: { MSG: '${input:msg}' } } },
  { label: 'depends on nested', dependsOn: ['nested bash'] },
  { label: 'positional', type: 'process', command: 'sh', args: ['-c', 'echo "$1"', 'sh', '${input:msg}'] },
  { label: 'plain', type: 'shell', command: 'echo ${input:msg}' },
]);

const NOT_SERVED_TASKS = ['nested bash', 'nested sh', 'process sh', 'eval', 'node eval', 'piped', 'via env', 'depends on nested'];

const PLUGIN = JSON.stringify({
  name: 'declared',
  import: [{ from: 'tasks' }, { from: 'npm-scripts' }, { from: 'just' }],
  tools: [
    { name: 'plugin-nested', description: 'echo through bash -c', inputSchema: { type: 'object', properties: { msg: { type: 'string' } } }, handler: { type: 'shell', command: ['bash', '-c', 'echo {{msg}}'] } },
    { name: 'plugin-script', description: 'a script that evals', inputSchema: { type: 'object', properties: { msg: { type: 'string' } } }, handler: { type: 'shell', script: 'sh -c "echo $INPUT_MSG"' } },
    { name: 'plugin-stdin', description: 'a shell fed its code', inputSchema: { type: 'object', properties: { msg: { type: 'string' } } }, handler: { type: 'shell', command: ['sh'], stdin: 'echo {{msg}}' } },
    { name: 'plugin-positional', description: 'the value as $1', inputSchema: { type: 'object', properties: { msg: { type: 'string' } } }, handler: { type: 'shell', command: ['sh', '-c', 'echo "$1"', 'sh', '{{msg}}'] } },
  ],
}, null, 2);

const PACKAGE = JSON.stringify({ name: 'values', private: true, scripts: { shout: 'bash -c', hello: 'echo hello' } }, null, 2);

const JUSTFILE = [
  'greet who suffix=(who + "!"):',
  '    echo {{suffix}}',
  '',
  'show a:',
  '    echo {{a}}',
  '',
  'fwd y: (show y)',
  '    true',
  '',
  'quoted who:',
  '    echo {{quote(who)}}',
  '',
  'run-it x:',
  '    bash -c {{quote(x)}}',
  '',
].join('\n');

/** The real just (rust-just-linux-x64, as the importer tests use it), on the server's PATH. */
const JUST_DIR = path.join(path.dirname(createRequire(__filename).resolve('rust-just-linux-x64/package.json')), 'bin');

let sandbox: PrivateHome;

beforeEach(() => {
  sandbox = new PrivateHome({ PATH: `${JUST_DIR}${path.delimiter}${process.env['PATH'] ?? ''}` });
  sandbox.workspace.write('.vscode/tasks.json', TASKS);
  sandbox.workspace.write('.vscode/tools/declared.json', PLUGIN);
  sandbox.workspace.write('package.json', PACKAGE);
  sandbox.workspace.write('justfile', JUSTFILE);
});

afterEach(() => sandbox.dispose());

/** 1-based line of the first line that contains `text` in `file`, plus `offset`. */
function lineOf(file: string, text: string, offset = 0): number {
  return file.split('\n').findIndex((line) => line.includes(text)) + 1 + offset;
}

/** The problem matching `message` is in declared.json, between the line naming `tool` and the next tool's. */
function assertInTool(out: string, tool: string, message: RegExp): void {
  const found = out.split('\n').find((line) => message.test(line));
  const line = Number(/declared\.json:(\d+):\d+: /.exec(found ?? '')?.[1]);
  const start = lineOf(PLUGIN, `"name": "${tool}"`);
  const next = PLUGIN.split('\n').findIndex((text, index) => index + 1 > start && text.includes('"name": "plugin-'));
  assert.ok(line >= start && (next === -1 || line <= next), `${tool}: ${found ?? 'no problem'} (tool at ${start}..${next})\n${out}`);
}

describe('no value becomes code (issue 33, attacks 3 and 4)', () => {
  test('check names each task and tool that would run a value as code, at its line', async () => {
    const checked = await sandbox.cli(['check']);
    assert.equal(checked.code, 1);
    const out = checked.stdout;
    for (const label of NOT_SERVED_TASKS) {
      const line = lineOf(TASKS, `"label": "${label}"`, -1);
      assert.match(out, new RegExp(`tasks\\.json:${line}:5: .*"${label}": not served: .*`), `${label}:\n${out}`);
    }
    assert.match(out, /"nested bash": not served: the value of \$\{input:msg\} would be in the script that "bash -c" runs/);
    assert.match(out, /"piped": not served: a value would flow through a pipe into "sh"/);
    assertInTool(out, 'plugin-nested', /The value \{\{msg\}\} would be in the script that "bash -c" runs/);
    assertInTool(out, 'plugin-script', /The value \{\{msg\}\} \(\$INPUT_MSG\) would be in the script that "sh -c" runs/);
    assertInTool(out, 'plugin-stdin', /A value would flow through a pipe into "sh"/);
    assert.match(out, new RegExp(`package\\.json:${lineOf(PACKAGE, '"shout"')}:\\d+: .*"shout": not served: its "args" are appended`));
    assert.match(out, new RegExp(`justfile:${lineOf(JUSTFILE, 'run-it x:')}:1: .*"run-it": not served: the value of the parameter x would be in the script that "bash -c" runs`));
    assert.doesNotMatch(out, /"(positional|plain|hello|greet|fwd|quoted)": not served|plugin-positional/);
  });

  test('what is served keeps every value literal; nothing injected runs', async () => {
    assert.equal((await sandbox.cli(['approve', '--yes', '--no-builtins'])).code, 0);
    const server = await sandbox.connect();
    try {
      const { tools } = await server.client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), ['just-fwd', 'just-greet', 'just-quoted', 'just-show', 'npm-hello', 'plugin-positional', 'task-plain', 'task-positional']);
      for (const name of ['task-plain', 'task-positional', 'plugin-positional']) {
        const result = await server.client.callTool({ name, arguments: { msg: ARITHMETIC } });
        assert.equal(result.isError, false, resultText(result));
        assert.equal(resultText(result).trim(), ARITHMETIC, name);
      }
      const quoted = await server.client.callTool({ name: 'just-quoted', arguments: { who: TOUCH } });
      assert.match(resultText(quoted), /x; touch pwned #/);
      // A parameter that reaches the line through another's default or a dependency takes only inert values.
      for (const [name, input] of [['just-greet', { who: TOUCH }], ['just-fwd', { y: TOUCH }], ['just-greet', { who: 'x', suffix: TOUCH }]] as const) {
        const refused = await server.client.callTool({ name, arguments: input });
        assert.equal(refused.isError, true, `${name} ${JSON.stringify(input)}: ${resultText(refused)}`);
      }
      const greeted = await server.client.callTool({ name: 'just-greet', arguments: { who: 'world' } });
      assert.match(resultText(greeted), /world!/);
      const forwarded = await server.client.callTool({ name: 'just-fwd', arguments: { y: 'forwarded' } });
      assert.match(resultText(forwarded), /forwarded/);
      await assert.rejects(server.client.callTool({ name: 'task-nested-bash', arguments: { msg: ARITHMETIC } }), /task-nested-bash/);
    } finally {
      await server.close();
    }
    assert.equal(existsSync(path.join(sandbox.workspace.path, 'pwned')), false);
  });

  test('the command line refuses the attacks as written: no 42, no pwned file', async () => {
    assert.equal((await sandbox.cli(['approve', '--yes', '--no-builtins'])).code, 0);
    const nested = await sandbox.cli(['call', 'task-nested-bash', JSON.stringify({ msg: ARITHMETIC }), '--no-builtins']);
    assert.notEqual(nested.code, 0);
    assert.doesNotMatch(nested.stdout, /^42$/m);
    const greet = await sandbox.cli(['call', 'just-greet', JSON.stringify({ who: TOUCH }), '--no-builtins']);
    assert.equal(greet.code, 1);
    assert.match(greet.stderr + greet.stdout, /who/);
    const fwd = await sandbox.cli(['call', 'just-fwd', JSON.stringify({ y: TOUCH }), '--no-builtins']);
    assert.equal(fwd.code, 1);
    assert.equal(existsSync(path.join(sandbox.workspace.path, 'pwned')), false);
    const plain = await sandbox.cli(['call', 'task-plain', JSON.stringify({ msg: ARITHMETIC }), '--no-builtins']);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout.trim(), ARITHMETIC);
  });
});
