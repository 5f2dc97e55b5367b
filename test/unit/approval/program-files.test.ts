// Issue 33 item 4: which workspace files decide what a tool runs (found in its argv, its script,
// its importer's task file and the package manager's configuration), and that the approval hash
// of the plugin file moves when any of them is edited, created or deleted, and only then.
import assert from 'node:assert/strict';
import { rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { approvalSubjectOf } from '../../../src/core/approval/approval-subject';
import { approvalLines } from '../../../src/core/approval/approval-text';
import { testSandboxView } from '../helpers/sandbox-view';
import { changedParts, coveredPartsOf } from '../../../src/core/approval/covered-parts';
import { programFileWords, scriptCommands, workspaceProgramFiles } from '../../../src/core/handlers/shell/program-words';
import { justIncludeWords, makeIncludes, makeIncludeWords } from '../../../src/core/imports/included-files';
import { managerConfig } from '../../../src/core/imports/manager-config';
import { approvalHashOf, type PluginFile } from '../../../src/core/plugins/plugin-file';
import { loadPluginDirectories } from '../../../src/core/plugins/scan-directories';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

describe('the words of a command that name a file it runs', () => {
  const cases: ReadonlyArray<readonly [readonly string[], readonly string[]]> = [
    [['./scripts/deploy.sh', '--prod'], ['./scripts/deploy.sh']],
    [['deploy.sh'], []],
    [['bash', 'scripts/x.sh', 'arg'], ['scripts/x.sh']],
    [['bash', '-e', '-o', 'pipefail', 'x.sh'], ['x.sh']],
    [['bash', '-c', 'echo hi'], []],
    [['sh', '--rcfile', 'rc.sh', 'run.sh'], ['rc.sh', 'run.sh']],
    [['node', 'x.js'], ['x.js']],
    [['node', '--require', './setup.js', '--import=./hooks.mjs', 'main.js'], ['./setup.js', './hooks.mjs', 'main.js']],
    [['node', '-e', 'require("./x")'], []],
    [['python3', '-u', '-W', 'ignore', 'x.py'], ['x.py']],
    [['python3.12', 'tool.py'], ['tool.py']],
    [['python', '-m', 'pytest'], []],
    [['/usr/bin/env', 'python3', 'x.py'], ['/usr/bin/env']],
    [['env', 'A=1', 'python3', 'x.py'], ['x.py']],
    [['ruby', '-I', 'lib', 'x.rb'], ['x.rb']],
    [['perl', '-e', 'print 1'], []],
    [['pwsh', '-NoProfile', '-File', 'build.ps1'], ['build.ps1']],
    [['powershell.exe', '-Command', 'Get-Date'], []],
    [['deno', 'run', '--allow-read', 'x.ts'], ['x.ts']],
    [['bun', 'run', 'x.ts'], ['x.ts']],
    [['tsx', 'src/cli.ts'], ['src/cli.ts']],
    [['.venv/bin/python', 'manage.py'], ['.venv/bin/python', 'manage.py']],
    [['bash', '{{script}}'], []],
    [['{{program}}', 'x.sh'], []],
  ];
  for (const [words, expected] of cases) {
    test(JSON.stringify(words), () => {
      assert.deepEqual(programFileWords(words), expected);
    });
  }

  test('a script: each simple command, a literal cd, comments and quotes', () => {
    const commands = scriptCommands('# build\ncd tools && ./build.sh "a b"; bash \'run me.sh\' | tee log\nif ./check.sh; then node $X; fi');
    assert.deepEqual(commands.map((command) => [command.dir, ...command.words]), [
      ['./tools', './build.sh', 'a b'],
      ['./tools', 'bash', 'run me.sh'],
      ['./tools', 'tee', 'log'],
      ['./tools', 'if', './check.sh'],
      ['./tools', 'then', 'node', '$X'],
      ['./tools', 'fi'],
    ]);
  });

  test('relative to the folder, outside ones left out', () => {
    const folder = path.resolve('/ws');
    assert.deepEqual(workspaceProgramFiles({ command: ['bash', '../outside.sh'], shell: 'sh' }, folder, folder), []);
    assert.deepEqual(workspaceProgramFiles({ command: ['/usr/local/bin/tool'], shell: 'sh' }, folder, folder), []);
    assert.deepEqual(workspaceProgramFiles({ command: ['node', 'x.js'], shell: 'sh' }, folder, path.join(folder, 'sub')), ['sub/x.js']);
    assert.deepEqual(workspaceProgramFiles({ script: 'cd scripts && ./go.sh', shell: './my-shell' }, folder, folder), ['my-shell', 'scripts/go.sh']);
  });

  test('make includes: literal ones followed, computed ones named', () => {
    assert.deepEqual(makeIncludeWords('include a.mk b.mk # two\n-include $(DEPS)\nsinclude *.d\n\tinclude not-a-directive\n'), { literal: ['a.mk', 'b.mk'], computed: ['$(DEPS)', '*.d'] });
    assert.deepEqual(justIncludeWords("import 'common.just'\nimport? \"opt.just\"\nmod tools\nmod? web 'web/x.just'\n"), [
      'common.just',
      'opt.just',
      'tools.just',
      'tools/mod.just',
      'tools/justfile',
      'tools/Justfile',
      'tools/.justfile',
      'web/x.just',
    ]);
  });
});

describe('files that decide what runs, read from a real workspace', () => {
  let workspace: TempDir;
  const folder = (): { name: string; path: string } => ({ name: 'ws', path: workspace.path });
  const load = async (): Promise<PluginFile> => {
    const [file] = await loadPluginDirectories([{ path: path.join(workspace.path, '.vscode/tools'), folder: folder() }]);
    assert.ok(file !== undefined);
    return file;
  };

  beforeEach(() => {
    workspace = makeTempDir('wt-program-files-');
  });
  afterEach(() => {
    workspace.cleanup();
  });

  test('a plugin tool: editing, deleting or creating its script changes the approval hash; an untouched script keeps it', async () => {
    workspace.write('.vscode/tools/t.json', JSON.stringify({ tools: [{ name: 'go', description: 'go', handler: { type: 'shell', command: ['bash', 'scripts/go.sh'] } }, { name: 'later', description: 'l', handler: { type: 'shell', command: ['./later.sh'] } }] }));
    workspace.write('scripts/go.sh', 'echo one\necho two\n');
    const first = await load();
    assert.equal(approvalHashOf(await load()), approvalHashOf(first), 'the same files, the same hash');
    assert.deepEqual(first.programFiles?.map((file) => [file.path, file.state.split(' ')[0]]), [['later.sh', 'absent'], ['scripts/go.sh', 'sha256']]);
    const text = approvalLines(approvalSubjectOf({ loaded: first, file: first.file, pluginName: first.pluginName, approval: 'new', tools: first.tools.map((definition) => ({ definition })), diagnostics: [] }), testSandboxView()).join('\n');
    assert.match(text, /runs the workspace file scripts\/go\.sh \(sha256 [0-9a-f]{16}…\)/);
    assert.match(text, /• scripts\/go\.sh \(sha256 [0-9a-f]{16}…\)\n {4}\| echo one\n {4}\| echo two/);
    assert.match(text, /absent now \(creating one asks again\): later\.sh/);

    workspace.write('scripts/go.sh', 'echo evil\n');
    const edited = await load();
    assert.notEqual(approvalHashOf(edited), approvalHashOf(first));
    assert.deepEqual(changedParts(coveredPartsOf(first), coveredPartsOf(edited)), ['scripts/go.sh']);
    workspace.write('later.sh', 'echo created\n');
    assert.deepEqual(changedParts(coveredPartsOf(edited), coveredPartsOf(await load())), ['later.sh']);
    rmSync(path.join(workspace.path, 'scripts/go.sh'));
    const deleted = await load();
    assert.notEqual(approvalHashOf(deleted), approvalHashOf(edited));
    assert.equal(deleted.programFiles?.find((file) => file.path === 'scripts/go.sh')?.state, 'absent');
  });

  test('a plugin tool that runs a package manager: package.json and the managers\' configuration, here and above its cwd, are covered; creating .npmrc changes the hash', async () => {
    workspace.write('.vscode/tools/t.json', JSON.stringify({ tools: [{ name: 'hello', description: 'h', handler: { type: 'shell', command: ['npm', 'run', 'hello'], cwd: 'app' } }] }));
    workspace.write('app/package.json', JSON.stringify({ scripts: { hello: 'echo hi' } }));
    const before = await load();
    const covered = before.tools[0]?.programFiles ?? [];
    for (const file of ['app/package.json', 'app/.npmrc', 'package.json', '.npmrc', 'bunfig.toml', 'app/.yarnrc.yml']) {
      assert.ok(covered.includes(file), `${file} in ${covered.join(', ')}`);
    }
    workspace.write('.npmrc', 'script-shell=./evil.sh\n');
    const after = await load();
    assert.deepEqual(changedParts(coveredPartsOf(before), coveredPartsOf(after)), ['.npmrc']);
  });

  test('a script symlinked outside the workspace is not read: its state says so, and a swap to a real file changes the hash', async () => {
    const outside = makeTempDir('wt-outside-');
    try {
      outside.write('x.sh', 'echo outside\n');
      workspace.write('.vscode/tools/t.json', JSON.stringify({ tools: [{ name: 'go', description: 'go', handler: { type: 'shell', command: ['sh', 'x.sh'] } }] }));
      symlinkSync(path.join(outside.path, 'x.sh'), path.join(workspace.path, 'x.sh'));
      const linked = await load();
      assert.match(linked.programFiles?.[0]?.state ?? '', /^unusable: .*outside/);
      rmSync(path.join(workspace.path, 'x.sh'));
      workspace.write('x.sh', 'echo outside\n');
      assert.notEqual(approvalHashOf(await load()), approvalHashOf(linked));
    } finally {
      outside.cleanup();
    }
  });

  test('imported tasks: a tasks.json shell task, a package.json script and a make recipe each cover the script they run; .npmrc and includes are sources', async () => {
    workspace.write('.vscode/tools/t.json', JSON.stringify({ import: [{ from: 'tasks' }, { from: 'npm-scripts' }, { from: 'make' }] }));
    workspace.write('.vscode/tasks.json', JSON.stringify({ version: '2.0.0', tasks: [{ label: 'ship', type: 'shell', command: './ship.sh' }] }));
    workspace.write('package.json', JSON.stringify({ scripts: { build: 'node tools/build.js', prebuild: 'bash tools/pre.sh' } }));
    workspace.write('Makefile', 'include common.mk\n-include $(DEPS)\nall:\n\t@python3 tools/gen.py\n');
    workspace.write('common.mk', 'X = 1\n');
    workspace.write('.npmrc', 'script-shell=./tools/shell.sh\n');
    const loaded = await load();
    const tool = (name: string): readonly string[] => loaded.tools.find((each) => each.name === name)?.programFiles ?? [];
    assert.deepEqual(tool('task-ship'), ['ship.sh']);
    assert.deepEqual([...tool('npm-build')].sort(), ['tools/build.js', 'tools/pre.sh', 'tools/shell.sh']);
    assert.deepEqual(tool('make-all'), ['tools/gen.py']);
    const sources = (loaded.importSources ?? []).map((source) => source.path);
    for (const expected of ['.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', 'bunfig.toml', 'common.mk', 'Makefile', 'package.json', '.vscode/tasks.json']) {
      assert.ok(sources.includes(expected), `${expected} in ${sources.join(', ')}`);
    }
    assert.ok(loaded.tools.find((each) => each.name === 'make-all')?.approvalLines?.includes('not covered by approval: $(DEPS), included by Makefile: its name is computed when the task runs'));
    const before = approvalHashOf(loaded);
    for (const [file, text] of [['common.mk', 'X = 2\n'], ['tools/gen.py', 'print(1)\n'], ['bunfig.toml', '[run]\n'], ['tools/shell.sh', 'echo\n']] as const) {
      workspace.write(file, text);
      assert.notEqual(approvalHashOf(await load()), before, `${file} is covered`);
    }
  });

  test('the package managers\' configuration: absent files are sources too, a script-shell inside the workspace is a program', async () => {
    const none = await managerConfig(folder());
    assert.deepEqual(none.sources.map((source) => [source.path, source.content]), ['.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', 'bunfig.toml'].map((file) => [file, null]));
    workspace.write('.npmrc', 'script-shell = ./evil.sh\nnode-options=--require ./preload.js\n');
    workspace.write('.yarnrc.yml', 'yarnPath: .yarn/releases/yarn-4.cjs\n');
    assert.deepEqual((await managerConfig(folder())).programFiles, ['evil.sh', 'preload.js', '.yarn/releases/yarn-4.cjs']);
    assert.deepEqual((await makeIncludes(folder(), 'Makefile', 'include ../shared.mk\n')).notCovered, ['../shared.mk, included by Makefile: it is outside the workspace folder']);
  });
});
