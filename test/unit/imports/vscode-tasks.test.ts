import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { importSection } from '../../../src/core/imports';
import { importVsCodeTasks, tasksFromText } from '../../../src/core/imports/import-tasks';
import { platformNamed } from '../../../src/core/platform/platform';
import { ImportFixture, INJECTIONS, PRINT_ARGV_SCRIPT, reasonFor, shellSpecOf, toolNamed, workspaceForEachTest } from './import-fixture';

const linux = platformNamed('linux');
let fixture: ImportFixture;
workspaceForEachTest((made) => (fixture = made));

const node = JSON.stringify(process.execPath);

function tasksJson(tasks: unknown[], inputs: unknown[] = []): string {
  return JSON.stringify({ version: '2.0.0', tasks, inputs }, null, 2);
}

const INPUTS = [
  { id: 'target', type: 'pickString', options: ['debug', { label: 'Release', value: '--release' }], default: 'debug', description: 'What to build' },
  { id: 'message', type: 'promptString', description: 'Any text' },
];

async function imported(text: string) {
  fixture.write('.vscode/tasks.json', text);
  // ${env:NAME} is read when a task runs (fixture.hostEnv), never at import: this value must not show.
  return importVsCodeTasks({ folder: fixture.folder, platform: linux, env: { GREETING: 'import-time value' }, home: '/home/someone' });
}

describe('tasks.json: process tasks', () => {
  test('inputs become typed parameters, and each value reaches the program as one literal argument', async () => {
    const result = await imported(tasksJson([{ label: 'Echo Args', type: 'process', command: process.execPath, args: ['argv.js', '${input:target}', '--msg=${input:message}'] }], INPUTS));
    const tool = toolNamed(result, 'task-echo-args');
    assert.deepEqual(tool.inputSchema, {
      type: 'object',
      properties: {
        target: { type: 'string', enum: ['debug', '--release'], default: 'debug', description: 'What to build' },
        message: { type: 'string', description: 'Any text' },
      },
      required: ['message'],
      additionalProperties: false,
    });
    assert.deepEqual(tool.run, { kind: 'process', argv: [process.execPath, 'argv.js', '{{target}}', '--msg={{message}}'] });
    assert.deepEqual(tool.source, { file: '.vscode/tasks.json', line: 4, column: 5 });
    for (const message of INJECTIONS) {
      assert.deepEqual(await fixture.argvOf(tool, { message }), ['debug', `--msg=${message}`], JSON.stringify(message));
    }
    // A closed list may offer an option; the default applies when the model leaves it out.
    assert.deepEqual(await fixture.argvOf(tool, { target: '--release', message: 'm' }), ['--release', '--msg=m']);
    const refused = await fixture.run(tool, { target: 'other', message: 'm' });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /target/);
  });

  test('a promptString value that starts with "-" as a whole argument is refused as argument injection', async () => {
    const result = await imported(tasksJson([{ label: 'p', type: 'process', command: process.execPath, args: ['argv.js', '${input:message}'] }], INPUTS));
    const refused = await fixture.run(toolNamed(result, 'task-p'), { message: '--inspect' });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /argument injection/);
  });

  test('predefined variables resolve; cwd and env apply; a platform block is merged over the task', async () => {
    fixture.write('sub/argv.js', PRINT_ARGV_SCRIPT.replace('process.argv.slice(2)', '[process.cwd(), process.env.ONE, process.env.TWO, ...process.argv.slice(2)]'));
    const text = tasksJson([
      {
        label: 'vars',
        type: 'process',
        command: 'false',
        args: ['${workspaceFolderBasename}', '${pathSeparator}', '${/}', '${userHome}', '${env:GREETING}', '${env:UNSET}', '${cwd}'],
        options: { cwd: '${workspaceFolder}/sub', env: { ONE: 'base', TWO: 'x-${input:message}' } },
        linux: { command: process.execPath, args: ['argv.js', '${workspaceFolderBasename}', '${/}', '${userHome}', '${env:GREETING}', '${env:UNSET}', '${workspaceFolder}'], options: { env: { ONE: 'linux' } } },
        windows: { command: 'cmd.exe' },
      },
    ], INPUTS);
    const result = await imported(text);
    const tool = toolNamed(result, 'task-vars');
    fixture.hostEnv['GREETING'] = 'hi there';
    assert.doesNotMatch(JSON.stringify(tool), /import-time value|hi there/);
    assert.match(tool.description, /'\$\{env:GREETING\}'/);
    assert.deepEqual(await fixture.argvOf(tool, { message: '$(id) `id`' }), [join(fixture.path, 'sub'), 'linux', 'x-$(id) `id`', basename(fixture.path), '/', '/home/someone', 'hi there', '', fixture.path]);
    const windows = tasksFromText(text, { folder: fixture.folder, platform: platformNamed('win32'), env: {} });
    assert.equal(shellSpecOf(toolNamed(windows, 'task-vars')).command?.[0], 'cmd.exe');
  });

  test('a working directory outside the folder is not served', async () => {
    const result = await imported(tasksJson([{ label: 'out', type: 'process', command: 'ls', options: { cwd: '${workspaceFolder}/..' } }]));
    assert.match(reasonFor(result, 'out'), /outside the workspace folder/);
  });

  test('literal text that reads as a {{placeholder}} is not served (it would be taken for a parameter)', async () => {
    const result = await imported(tasksJson([{ label: 'braces', type: 'process', command: 'echo', args: ['{{x}}'] }]));
    assert.match(reasonFor(result, 'braces'), /\{\{\.\.\.\}\}/);
  });
});

describe('tasks.json: shell tasks', () => {
  const line = (command: string, args?: unknown[]) => tasksJson([{ label: 'sh', type: 'shell', command, ...(args === undefined ? {} : { args }) }], INPUTS);

  test('a value is read from its variable wherever it stands: bare, in double quotes, in single quotes, in $(...)', async () => {
    const result = await imported(line(`${node} argv.js \${input:message} "in double \${input:message}" 'in single \${input:message}' "$(printf %s \${input:message})"`));
    const tool = toolNamed(result, 'task-sh');
    assert.equal(tool.run.kind, 'shell');
    assert.equal(shellSpecOf(tool).script, `${node} argv.js "\${INPUT_MESSAGE}" "in double \${INPUT_MESSAGE}" 'in single '"\${INPUT_MESSAGE}"'' "$(printf %s "\${INPUT_MESSAGE}")"`);
    for (const message of INJECTIONS) {
      assert.deepEqual(await fixture.argvOf(tool, { message }), [message, `in double ${message}`, `in single ${message}`, message], JSON.stringify(message));
    }
  });

  test('args are words: quoted when they hold whitespace or ask for quoting, the task\'s own shell text kept otherwise', async () => {
    const result = await imported(line(process.execPath, ['argv.js', 'two words', { value: 'it\'s $HOME', quoting: 'strong' }, { value: 'a b', quoting: 'escape' }, { value: '${env:GREETING} $GREET2', quoting: 'weak' }, '--m=${input:message}', 'x ${input:message}', '$((1+2))']));
    const tool = toolNamed(result, 'task-sh');
    fixture.hostEnv['GREETING'] = 'hi there';
    const message = '"; echo pwned; "';
    assert.deepEqual(await fixture.argvOf(tool, { message }), ['two words', "it's $HOME", 'a b', 'hi there ', `--m=${message}`, `x ${message}`, '3']);
  });

  test('the shell of options.shell runs the line; flags other than its own are not served', async () => {
    const bash = await imported(tasksJson([{ label: 'b', type: 'shell', command: 'echo $BASH_VERSION', options: { shell: { executable: 'bash', args: ['-c'] } } }]));
    const tool = toolNamed(bash, 'task-b');
    assert.deepEqual(tool.run, { kind: 'shell', shell: ['bash', '-c'], commandLine: 'echo $BASH_VERSION' });
    assert.match((await fixture.run(tool)).text, /^\d+\.\d+/);
    const login = await imported(tasksJson([{ label: 'l', type: 'shell', command: 'echo', options: { shell: { executable: 'bash', args: ['-l', '-c'] } } }]));
    assert.match(reasonFor(login, 'l'), /options\.shell\.args/);
  });

  test('cmd.exe reads a value with delayed expansion, and its free-text values may not hold a double quote', () => {
    const result = tasksFromText(line('echo ${input:message} ${input:target}'), { folder: fixture.folder, platform: platformNamed('win32'), env: {} });
    const tool = toolNamed(result, 'task-sh');
    assert.equal(shellSpecOf(tool).script, 'echo !INPUT_MESSAGE! !INPUT_TARGET!');
    assert.deepEqual(tool.run, { kind: 'shell', shell: ['cmd.exe', '/d', '/v:on', '/s', '/c'], commandLine: 'echo !INPUT_MESSAGE! !INPUT_TARGET!' });
    assert.equal((tool.inputSchema.properties?.['message'] as { pattern?: string }).pattern, '^[^"\\r\\n]*$');
  });

  test('PowerShell reads ${env:INPUT_X}; inside single quotes it cannot, so the task is not served', () => {
    const options = { folder: fixture.folder, platform: platformNamed('win32'), env: {} };
    const shell = { shell: { executable: 'pwsh' } };
    const ok = tasksFromText(tasksJson([{ label: 'ps', type: 'shell', command: 'Write-Output ${input:message} "x ${input:message}"', options: shell }], INPUTS), options);
    assert.equal(shellSpecOf(toolNamed(ok, 'task-ps')).script, 'Write-Output ${env:INPUT_MESSAGE} "x ${env:INPUT_MESSAGE}"');
    const single = tasksFromText(tasksJson([{ label: 'ps', type: 'shell', command: "Write-Output '${input:message}'", options: shell }], INPUTS), options);
    assert.match(reasonFor(single, 'ps'), /single quotes/);
  });

  test('a line that leaves a quote open, with an input in it, is not served', async () => {
    const result = await imported(line('echo "${input:message}'));
    assert.match(reasonFor(result, 'sh'), /quote open/);
  });
});

describe('tasks.json: what is not served, and why, at the task', () => {
  test('each reason is named at the task\'s line:column; the other tasks are served', async () => {
    const text = `{
  // comments and trailing commas, as VS Code allows
  "version": "2.0.0",
  "tasks": [
    { "label": "editor", "type": "shell", "command": "cat \${file}" },
    { "label": "selection", "type": "shell", "command": "echo \${selectedText}" },
    { "label": "line", "type": "shell", "command": "echo \${lineNumber}" },
    { "label": "setting", "type": "shell", "command": "echo \${config:editor.tabSize}" },
    { "label": "picked", "type": "shell", "command": "echo \${input:pick}" },
    { "label": "watch", "type": "shell", "command": "tsc -w", "isBackground": true },
    { "label": "gulp build", "type": "gulp", "task": "build" },
    { "label": "missing", "type": "shell", "command": "echo \${input:nope}" },
    { "type": "shell", "command": "echo no label" },
    { "label": "fine", "type": "shell", "command": "echo fine" },
  ],
  "inputs": [{ "id": "pick", "type": "command", "command": "extension.pick" },],
}`;
    const result = await imported(text);
    assert.deepEqual(result.tools.map((tool) => tool.name), ['task-fine']);
    const byName = new Map(result.notServed.map((entry) => [entry.name, entry]));
    assert.match(byName.get('editor')?.reason ?? '', /\$\{file\}.*editor/);
    assert.match(byName.get('selection')?.reason ?? '', /selectedText/);
    assert.match(byName.get('line')?.reason ?? '', /lineNumber/);
    assert.match(byName.get('setting')?.reason ?? '', /VS Code setting/);
    assert.match(byName.get('picked')?.reason ?? '', /type command/);
    assert.match(byName.get('watch')?.reason ?? '', /background/);
    assert.match(byName.get('gulp build')?.reason ?? '', /"gulp".*another extension/);
    assert.match(byName.get('missing')?.reason ?? '', /declares no input/);
    assert.match(byName.get('task 9')?.reason ?? '', /no "label"/);
    assert.deepEqual(byName.get('editor')?.source, { file: '.vscode/tasks.json', line: 5, column: 5 });
    assert.deepEqual(byName.get('task 9')?.source, { file: '.vscode/tasks.json', line: 13, column: 5 });
  });

  test('a broken file is one entry at the error; an absent one is a source with no content', async () => {
    const broken = await imported('{ "tasks": [ { "label": "a" ');
    assert.equal(broken.tools.length, 0);
    assert.equal(broken.notServed[0]?.source.file, '.vscode/tasks.json');
    assert.match(broken.notServed[0]?.reason ?? '', /not valid JSON/);
    const empty = new ImportFixture();
    try {
      const absent = await importVsCodeTasks({ folder: empty.folder, platform: linux });
      assert.deepEqual(absent, { tools: [], notServed: [], sources: [{ path: '.vscode/tasks.json', content: null }] });
    } finally {
      empty.dispose();
    }
  });

  test('a tasks.json that links outside the folder is not read', async () => {
    const outside = new ImportFixture().write('tasks.json', tasksJson([{ label: 'x', type: 'shell', command: 'echo outside' }]));
    try {
      fixture.write('.vscode/keep', '');
      symlinkSync(join(outside.path, 'tasks.json'), join(fixture.path, '.vscode/tasks.json'));
      const result = await importVsCodeTasks({ folder: fixture.folder, platform: linux });
      assert.equal(result.tools.length, 0);
      assert.match(reasonFor(result, '.vscode/tasks.json'), /cannot be used/);
    } finally {
      outside.dispose();
    }
  });

  test('the source is the file\'s exact text', async () => {
    const text = tasksJson([{ label: 'a', type: 'shell', command: 'echo a' }]);
    assert.deepEqual((await imported(text)).sources, [{ path: '.vscode/tasks.json', content: text }]);
  });

  test('two labels that make one tool name: the second is refused, naming both places', async () => {
    fixture.write('.vscode/tasks.json', tasksJson([{ label: 'Build', type: 'shell', command: 'echo 1' }, { label: 'build!', type: 'shell', command: 'echo 2' }]));
    const result = await importSection([{ from: 'tasks' }], { folder: fixture.folder, platform: linux });
    assert.deepEqual(result.tools.map((tool) => tool.taskName), ['Build']);
    const reason = reasonFor(result, 'build!');
    assert.match(reason, /"task-build" is already the name of "Build" \(\.vscode\/tasks\.json:4:5\)/);
    assert.match(reason, /\.vscode\/tasks\.json:9:5/);
    // Excluding one of the two serves the other.
    const chosen = await importSection([{ from: 'tasks', exclude: ['Build'] }], { folder: fixture.folder, platform: linux });
    assert.deepEqual(chosen.tools.map((tool) => tool.taskName), ['build!']);
    assert.deepEqual(chosen.notServed, []);
  });
});

describe('tasks.json: dependsOn', () => {
  const step = (label: string, extra: Record<string, unknown> = {}) => ({ label, type: 'shell', command: `printf '%s\\n' ${label} >> order.txt`, ...extra });

  test('a chain runs as steps, dependencies first and each once, in sequence', async () => {
    const result = await imported(tasksJson([
      step('compile'),
      step('lint', { dependsOn: 'compile' }),
      step('test', { dependsOn: ['compile', 'lint'], dependsOrder: 'sequence' }),
      { label: 'all', dependsOn: ['test', 'lint'], dependsOrder: 'sequence' },
    ]));
    const all = toolNamed(result, 'task-all');
    assert.deepEqual(all.spec.steps?.map((entry) => entry.name), ['compile', 'lint', 'test']);
    assert.equal(all.run.kind, 'steps');
    assert.equal((await fixture.run(all)).isError, false);
    const { readFileSync } = await import('node:fs');
    assert.equal(readFileSync(join(fixture.path, 'order.txt'), 'utf8'), 'compile\nlint\ntest\n');
  });

  test('a failing dependency stops the chain', async () => {
    const result = await imported(tasksJson([{ label: 'fail', type: 'shell', command: 'exit 3' }, step('after', { dependsOn: 'fail' })]));
    const outcome = await fixture.run(toolNamed(result, 'task-after'));
    assert.equal(outcome.isError, true);
    const { existsSync } = await import('node:fs');
    assert.equal(existsSync(join(fixture.path, 'order.txt')), false);
  });

  test('parallel dependencies run one after another, and the description says so', async () => {
    const result = await imported(tasksJson([step('a'), step('b'), { label: 'both', dependsOn: ['a', 'b'] }]));
    const both = toolNamed(result, 'task-both');
    assert.match(both.description, /VS Code runs these dependencies in parallel; here they run one after another/);
  });

  test('the inputs of every task in the chain are parameters of the tool', async () => {
    const result = await imported(tasksJson([
      { label: 'first', type: 'process', command: process.execPath, args: ['argv.js', '${input:message}'] },
      { label: 'second', type: 'shell', command: 'echo ${input:target}', dependsOn: 'first' },
    ], INPUTS));
    assert.deepEqual(Object.keys(toolNamed(result, 'task-second').inputSchema.properties ?? {}), ['message', 'target']);
  });

  test('a circle, an unknown label, an unserved dependency and another extension\'s task are not served', async () => {
    const result = await imported(tasksJson([
      step('x', { dependsOn: 'y' }),
      step('y', { dependsOn: 'x' }),
      step('z', { dependsOn: 'nowhere' }),
      step('w', { dependsOn: 'bg' }),
      step('bg', { isBackground: true }),
      step('v', { dependsOn: { type: 'gulp', task: 'build' } }),
    ]));
    assert.match(reasonFor(result, 'x'), /circle: x → y → x/);
    assert.match(reasonFor(result, 'z'), /"nowhere", which tasks.json does not declare/);
    assert.match(reasonFor(result, 'w'), /depends on "bg", which is not served: it is a background task/);
    assert.match(reasonFor(result, 'v'), /another extension/);
  });
});
