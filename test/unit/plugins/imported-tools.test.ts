import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPluginDirectories, PluginFileCache } from '../../../src/core/plugins/scan-directories';
import { approvalHashOf, type PluginFile } from '../../../src/core/plugins/plugin-file';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { DEFAULT_LIMITS, formatDiagnostic } from '../../../src/core/types';
import { ApproveAllPolicy, StoredApprovalPolicy, type ApprovalPolicy } from '../../../src/core/approval/approval-policy';
import { createWorkspaceRegistry } from '../../../src/core/workspace-registry';
import { ImportFixture } from '../imports/import-fixture';
import { platformNamed } from '../../../src/core/platform/platform';
import { WindowsDisk } from '../helpers/windows-disk';
import { BINS, NODE_INSTALLER_NPM_CMD, NODE_SHEBANG } from '../helpers/windows-shims';

let fixture: ImportFixture;
beforeEach(() => {
  fixture = new ImportFixture()
    .write('package.json', JSON.stringify({ name: 'f', scripts: { test: 'echo npm-test', lint: 'echo npm-lint' } }, null, 2))
    .write('Makefile', 'build:\n\t@echo made\n')
    .write('.vscode/tasks.json', JSON.stringify({ version: '2.0.0', tasks: [{ label: 'Build', type: 'shell', command: 'echo task-ran' }, { label: 'watch', type: 'shell', command: 'tsc -w', isBackground: true }] }, null, 2));
});
afterEach(() => {
  fixture.dispose();
});

const env = { PATH: process.env['PATH'] };
const pluginPath = (): string => join(fixture.path, '.vscode/tools/imports.json');

async function load(text: string, cache = new PluginFileCache()): Promise<PluginFile> {
  fixture.write('.vscode/tools/imports.json', text);
  const files = await loadPluginDirectories([{ path: join(fixture.path, '.vscode/tools'), folder: fixture.folder }], cache, { env });
  assert.equal(files.length, 1);
  return files[0]!;
}

const names = (file: PluginFile): string[] => file.tools.map((tool) => tool.name);
const messages = (file: PluginFile): string[] => file.diagnostics.map((diagnostic) => formatDiagnostic({ ...diagnostic, file: diagnostic.file.slice(fixture.path.length + 1) }));

describe('plugin files: the import section', () => {
  test('a file with import alone serves each selected task as a tool, built like a tool of the file', async () => {
    const file = await load('{\n  "import": [\n    { "from": "tasks" },\n    { "from": "npm-scripts", "include": ["test"] },\n    { "from": "make" }\n  ]\n}\n');
    assert.deepEqual(names(file), ['task-build', 'npm-test', 'make-build']);
    const task = file.tools[0]!;
    assert.equal(task.source.kind, 'plugin');
    assert.deepEqual(task.source.kind === 'plugin' ? [task.source.file, task.source.line, task.source.declared] : [], [pluginPath(), 3, { file: join(fixture.path, '.vscode/tasks.json'), line: 4, column: 5 }]);
    const ran = await task.run({}, fixture.context());
    assert.match(ran.text, /task-ran/);
    assert.deepEqual(messages(file), ['.vscode/tasks.json:9:5: tool "watch": not served: it is a background task (isBackground): it keeps running (a watcher, a server), and a tool call waits for its end']);
  });

  test('an include name the source does not declare is reported at that name; a bad entry drops only itself', async () => {
    const file = await load('{\n  "import": [\n    { "from": "npm-scripts", "include": ["test", "deploy"] },\n    { "from": "gradle" },\n    { "from": "make", "exclude": ["nope"] }\n  ]\n}\n');
    assert.deepEqual(names(file), ['npm-test', 'make-build']);
    const found = messages(file);
    assert.ok(found.some((message) => message.startsWith('.vscode/tools/imports.json:3:50: tool "import[0]": "deploy" is not declared by the scripts of package.json')), found.join('\n'));
    assert.ok(found.some((message) => message.startsWith('.vscode/tools/imports.json:4:15: tool "import[1]":')), found.join('\n'));
    assert.ok(found.some((message) => message.startsWith('.vscode/tools/imports.json:5:35: tool "import[2]": "nope" is not declared by the Makefile')), found.join('\n'));
  });

  test('an imported name a tool of the file already has is refused, naming both places', async () => {
    const file = await load('{\n  "tools": [\n    { "name": "make-build", "description": "mine", "handler": { "type": "shell", "command": ["true"] } }\n  ],\n  "import": [{ "from": "make" }]\n}\n');
    assert.deepEqual(names(file), ['make-build']);
    assert.equal(file.tools[0]!.description, 'mine');
    assert.deepEqual(messages(file), ['.vscode/tools/imports.json:5:14: tool "make-build": tool name "make-build" of the imported task "build" (Makefile:1:1) is already the name of the tool at line 3; the imported one is not served: rename that tool, exclude the task or give the entry a prefix']);
  });

  test('a problem of the whole file serves no imported tool either', async () => {
    const file = await load('{ "import": [{ "from": "make" }], "extra": 1 }');
    assert.deepEqual(names(file), []);
    assert.equal(file.diagnostics.length, 1);
  });

  test('the approval hash covers every source read: editing or creating one changes it, a description of the file does not', async () => {
    const text = '{ "description": "a", "import": [{ "from": "tasks" }, { "from": "npm-scripts" }, { "from": "make" }, { "from": "just" }] }';
    const cache = new PluginFileCache();
    const first = approvalHashOf(await load(text, cache));
    assert.equal(approvalHashOf(await load(text.replace('"a"', '"b"'), cache)), first);
    fixture.write('.vscode/tasks.json', readFileSync(join(fixture.path, '.vscode/tasks.json'), 'utf8').replace('task-ran', 'other'));
    const afterTasks = approvalHashOf(await load(text, cache));
    assert.notEqual(afterTasks, first);
    fixture.write('package.json', JSON.stringify({ name: 'f', scripts: { test: 'echo npm-test', lint: 'rm -rf /' } }));
    const afterScripts = approvalHashOf(await load(text, cache));
    assert.notEqual(afterScripts, afterTasks);
    fixture.write('pnpm-lock.yaml', '');
    const afterLock = approvalHashOf(await load(text, cache));
    assert.notEqual(afterLock, afterScripts);
    fixture.write('justfile', 'x:\n  echo x\n');
    assert.notEqual(approvalHashOf(await load(text, cache)), afterLock);
  });

  test('loaded without its sources (no I/O), the section says so and serves nothing', () => {
    const file = loadPluginFile(pluginPath(), '{ "import": [{ "from": "make" }] }', fixture.folder);
    assert.deepEqual(file.tools, []);
    assert.match(file.diagnostics[0]?.message ?? '', /import section could not be loaded \(its sources were not read with the file\)/);
  });

  test('the approval lines name where the task is and exactly what runs, once (issue 35 item 16: a shell task\'s line was shown twice)', async () => {
    const file = await load('{ "import": [{ "from": "tasks" }] }');
    const lines = file.tools[0]!.approvalLines ?? [];
    assert.deepEqual(lines, ['imports "Build" from .vscode/tasks.json:4:5', 'script run by the default shell:', '| echo task-ran']);
  });

  test('a task chain (dependsOn) shows each step\'s command once', async () => {
    fixture.write('.vscode/tasks.json', JSON.stringify({ version: '2.0.0', tasks: [{ label: 'Build', type: 'shell', command: 'echo built', dependsOn: ['prep'] }, { label: 'prep', type: 'process', command: 'node', args: ['-v'] }] }, null, 2));
    const file = await load('{ "import": [{ "from": "tasks", "include": ["Build"] }] }');
    const lines = file.tools[0]!.approvalLines ?? [];
    assert.equal(lines.filter((line) => line.includes('echo built')).length, 1, lines.join('\n'));
    assert.equal(lines.filter((line) => line.includes('node -v')).length, 1, lines.join('\n'));
  });
});

describe('plugin files: what an import entry lets its tools do (issue 34 item 6)', () => {
  const tagsOf = (file: PluginFile): Record<string, readonly string[]> => Object.fromEntries(file.tools.map((tool) => [tool.name, tool.tags]));

  test('imported tools are execute and write by default (a build writes its output), with no network; the OS sandbox of each is built from them', async () => {
    const file = await load('{ "import": [{ "from": "tasks" }, { "from": "npm-scripts" }, { "from": "make" }] }');
    assert.deepEqual(tagsOf(file), { 'task-build': ['execute', 'write'], 'npm-test': ['execute', 'write'], 'npm-lint': ['execute', 'write'], 'make-build': ['execute', 'write'] });
    assert.deepEqual(file.tools[0]?.sandbox, { kind: 'os', folder: fixture.path, tags: ['execute', 'write'] });
  });

  test('"tags" sets every tool of the entry, "taskTags" one task; "sandbox" and "taskSandbox" widen theirs, adding the tags they imply', async () => {
    const file = await load(
      JSON.stringify({
        import: [
          { from: 'npm-scripts', tags: ['read'], taskTags: { test: ['execute', 'write', 'network'] }, sandbox: { write: ['coverage'] }, taskSandbox: { test: { hosts: ['registry.npmjs.org'] } } },
          { from: 'make', tags: ['execute'] },
        ],
      }),
    );
    assert.deepEqual(file.diagnostics, []);
    assert.deepEqual(tagsOf(file), { 'npm-test': ['execute', 'write', 'network'], 'npm-lint': ['read', 'write'], 'make-build': ['execute'] });
    const byName = new Map(file.tools.map((tool) => [tool.name, tool]));
    assert.deepEqual(byName.get('npm-lint')?.sandbox, { kind: 'os', folder: fixture.path, tags: ['read', 'write'], declared: { write: ['coverage'] } });
    // A task's own block replaces the entry's.
    assert.deepEqual(byName.get('npm-test')?.sandbox, { kind: 'os', folder: fixture.path, tags: ['execute', 'write', 'network'], declared: { hosts: ['registry.npmjs.org'] } });
  });

  test('a taskTags or taskSandbox name the source does not declare is reported at it; a bad taskSandbox path is a problem at its line:column and only its task is not served', async () => {
    const text = [
      '{',
      '  "import": [',
      '    { "from": "npm-scripts",',
      '      "taskTags": { "tset": ["read"] },',
      '      "taskSandbox": { "lint": { "write": ["../elsewhere"] } } }',
      '  ]',
      '}',
    ].join('\n');
    const file = await load(text);
    assert.deepEqual(names(file), ['npm-test']);
    const found = messages(file);
    assert.ok(found.includes('.vscode/tools/imports.json:4:29: tool "import[0]": "tset" is not declared by the scripts of package.json; it selects nothing'), found.join('\n'));
    assert.ok(
      found.includes('.vscode/tools/imports.json:5:44: tool "import[0]": "../elsewhere" is not inside the workspace folder: a tool may be given writes only to paths inside it, written relative to it. The tools this block applies to are not served.'),
      found.join('\n'),
    );
    assert.equal(found.length, 2, found.join('\n'));
  });

  test('the approval hash covers the entry\'s tags and sandbox blocks', async () => {
    const cache = new PluginFileCache();
    const hash = async (entry: Record<string, unknown>): Promise<string> => approvalHashOf(await load(JSON.stringify({ import: [{ from: 'make', ...entry }] }), cache));
    const plain = await hash({});
    const hashes = [plain, await hash({ tags: ['execute', 'write', 'network'] }), await hash({ taskTags: { build: ['read'] } }), await hash({ sandbox: { write: ['dist'] } }), await hash({ taskSandbox: { build: { hosts: ['example.com'] } } })];
    assert.equal(new Set(hashes).size, hashes.length, 'each change is a new hash');
    assert.equal(await hash({}), plain);
  });

  test('approving shows what an npm script and a make target run, as their files write it: the script with its pre and post scripts, the recipe with its prerequisites\'', async () => {
    fixture
      .write('package.json', JSON.stringify({ name: 'f', scripts: { pretest: 'echo before', test: 'node run.js --token=ghp_abcdefghijklmnopqrstuvwxyz0123456789 &&\necho second line', posttest: 'echo after', lint: 'eslint .' } }, null, 2))
      .write('Makefile', 'all: build test\n\nbuild: gen\n\t@echo building\n\t$(CC) -o app app.c \\\n\t  -O2\n\n# generated sources\ngen:\n\t./gen.sh\n\ntest: ; ./run-tests\n');
    const file = await load('{ "import": [{ "from": "npm-scripts", "include": ["test"] }, { "from": "make", "include": ["all"] }] }');
    const lines = (name: string): readonly string[] => file.tools.find((tool) => tool.name === name)?.approvalLines ?? [];
    assert.deepEqual(lines('npm-test').slice(0, 10), [
      'imports "test" from package.json:5:5',
      'runs: npm run test -- {{args}}',
      'package.json script "pretest" (before "test"):',
      '| echo before',
      'package.json script "test":',
      '| node run.js --token=*** &&',
      '| echo second line',
      'package.json script "posttest" (after "test"):',
      '| echo after',
      'runs the workspace file run.js (absent)',
    ]);
    assert.deepEqual(lines('make-all').slice(0, 13), [
      'imports "all" from Makefile:1:1',
      'runs: make all',
      'Makefile:1 recipe of "all" (needs build test):',
      '| (no recipe of its own)',
      'Makefile:3 recipe of "build", which "all" needs (needs gen):',
      '| @echo building',
      '| $(CC) -o app app.c \\',
      '|   -O2',
      'Makefile:9 recipe of "gen", which "build" needs:',
      '| ./gen.sh',
      'Makefile:12 recipe of "test", which "all" needs:',
      '| ./run-tests',
      'runs the workspace file gen.sh (absent)',
    ]);
  });
});

describe('plugin files: npm scripts imported with Windows rules', () => {
  const nodejs = 'C:\\Program Files\\nodejs';
  async function loadOnWindows(disk: WindowsDisk): Promise<PluginFile> {
    fixture.write('.vscode/tools/imports.json', '{ "import": [{ "from": "npm-scripts", "include": ["test"] }] }');
    const host = { env: { Path: nodejs }, platform: platformNamed('win32'), files: disk };
    const files = await loadPluginDirectories([{ path: join(fixture.path, '.vscode/tools'), folder: fixture.folder }], new PluginFileCache(), host);
    return files[0]!;
  }

  test('the approval lines show node.exe and npm-cli.js, not npm.cmd', async () => {
    const disk = new WindowsDisk()
      .write(`${nodejs}\\node.exe`, 'MZ')
      .write(`${nodejs}\\npm.cmd`, NODE_INSTALLER_NPM_CMD)
      .write(`${nodejs}\\node_modules\\npm\\package.json`, JSON.stringify({ name: 'npm', bin: BINS.npm }))
      .write(`${nodejs}\\node_modules\\npm\\bin\\npm-cli.js`, NODE_SHEBANG);
    try {
      const file = await loadOnWindows(disk);
      assert.deepEqual(file.tools[0]?.approvalLines?.slice(0, 2), ['imports "test" from package.json:4:5', `runs: '${nodejs}\\node.exe' '${nodejs}\\node_modules\\npm\\bin\\npm-cli.js' run test -- {{args}}`]);
    } finally {
      disk.dispose();
    }
  });

  test('a batch shim whose program is not found: no tool, a problem at the script\'s line that says what was looked at, nothing runs', async () => {
    fixture.write('package.json', JSON.stringify({ name: 'f', scripts: { test: 'node -e "require(\'fs\').writeFileSync(\'marker\', \'\')"' } }, null, 2));
    const disk = new WindowsDisk().write(`${nodejs}\\npm.cmd`, NODE_INSTALLER_NPM_CMD);
    try {
      const file = await loadOnWindows(disk);
      assert.deepEqual(names(file), []);
      const problem = file.diagnostics.find((diagnostic) => diagnostic.rule === 'import' && diagnostic.tool === 'test');
      assert.ok(problem, JSON.stringify(file.diagnostics));
      assert.deepEqual([problem.file, problem.line], [join(fixture.path, 'package.json'), 4]);
      assert.match(problem.message, /^not served: npm is the batch file C:\\Program Files\\nodejs\\npm\.cmd, which cannot take the script's arguments safely \(CVE-2024-27980\).*npm-cli\.js \(not a file\)/);
      // On this Linux host the spec's `npm run test` would really run: no tool means nothing can.
      assert.equal(existsSync(join(fixture.path, 'marker')), false);
    } finally {
      disk.dispose();
    }
  });
});

describe('imported tools in the registry: untrusted or unapproved, nothing runs', () => {
  const registryFor = (includeWorkspacePlugins: boolean, approval: ApprovalPolicy) =>
    createWorkspaceRegistry({
      folders: () => [fixture.folder],
      includeBuiltins: false,
      includePlugins: true,
      includeWorkspacePlugins,
      approval,
      limits: () => DEFAULT_LIMITS,
      env: { PATH: process.env['PATH'] },
      logger: { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    });
  const MARKER_MAKEFILE = 'mark:\n\t@touch marker\n';

  test('an untrusted workspace (no workspace plugin files) imports and serves nothing', async () => {
    fixture.write('Makefile', MARKER_MAKEFILE).write('.vscode/tools/imports.json', '{ "import": [{ "from": "make" }] }');
    const registry = registryFor(false, new ApproveAllPolicy());
    await registry.initialize();
    assert.deepEqual(registry.all().map((tool) => tool.definition.name), []);
    const result = await registry.call('make-mark', {}, { signal: new AbortController().signal, door: 'cli' });
    assert.equal(result.refusal?.reason, 'unknown');
    assert.equal(existsSync(join(fixture.path, 'marker')), false);
    registry.dispose();
  });

  test('an unapproved file\'s imported tools wait and do not run; approved, they run', async () => {
    fixture.write('Makefile', MARKER_MAKEFILE).write('.vscode/tools/imports.json', '{ "import": [{ "from": "make" }] }');
    const registry = registryFor(true, new StoredApprovalPolicy(join(fixture.path, 'approvals.json')));
    await registry.initialize();
    assert.deepEqual(registry.all().map((tool) => `${tool.definition.name}:${tool.state}`), ['make-mark:pending-approval']);
    const refused = await registry.call('make-mark', {}, { signal: new AbortController().signal, door: 'cli' });
    assert.equal(refused.refusal?.reason, 'awaiting-approval');
    assert.equal(existsSync(join(fixture.path, 'marker')), false);
    await registry.approve(pluginPath());
    const ran = await registry.call('make-mark', {}, { signal: new AbortController().signal, door: 'cli' });
    assert.equal(ran.isError, false, ran.text);
    assert.equal(existsSync(join(fixture.path, 'marker')), true);
    registry.dispose();
  });

  test('an imported name another plugin file already has is refused with both places named', async () => {
    fixture.write('Makefile', MARKER_MAKEFILE).write('.vscode/tools/imports.json', '{\n  "import": [{ "from": "make" }]\n}\n');
    fixture.write('.vscode/tools/a-first.json', '{ "tools": [{ "name": "make-mark", "description": "mine", "handler": { "type": "shell", "command": ["true"] } }] }');
    const registry = registryFor(true, new ApproveAllPolicy());
    await registry.initialize();
    const file = registry.files().find((status) => status.file === pluginPath());
    assert.deepEqual(file?.diagnostics.map((diagnostic) => `${diagnostic.line}:${diagnostic.column} ${diagnostic.message}`), [
      `2:14 duplicate tool name "make-mark": already defined by ${join(fixture.path, '.vscode/tools/a-first.json')}:1:13; this one (imported from ${join(fixture.path, 'Makefile')}:1:1) is not loaded (exclude the task or give the import entry a prefix)`,
    ]);
    registry.dispose();
  });
});
