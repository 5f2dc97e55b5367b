// Issue 28's "Done when", through the real command line and the real MCP server over stdio: a
// workspace's tasks.json, package.json scripts and Makefile imported by one plugin file.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { runCli } from '../helpers/cli';
import { connectServer, resultText } from '../helpers/mcp-client';
import { INJECTIONS } from '../imports/import-fixture';
import { makeImportWorkspace, PACKAGE_JSON, TASKS_JSON } from './imported-tasks-fixture';

interface Listed {
  readonly name: string;
  readonly state: string;
  readonly inputSchema: { readonly properties?: Record<string, { enum?: unknown[]; default?: unknown }> };
  readonly source: { readonly file: string; readonly line: number; readonly declared?: { readonly file: string; readonly line: number; readonly column: number } };
}

const IMPORTED = ['task-show-mode', 'task-print-args', 'task-prepare', 'task-typecheck', 'npm-greet', 'make-hello'];

let config: TempDir;
let workspace: TempDir;
const run = (args: string[]) => runCli(args, { configHome: config.path, cwd: workspace.path });

async function listed(): Promise<Map<string, Listed>> {
  const result = await run(['list', '--json', '--no-builtins']);
  assert.equal(result.code, 0, result.stderr);
  return new Map((JSON.parse(result.stdout) as Listed[]).map((tool) => [tool.name, tool]));
}

async function states(): Promise<string[]> {
  const tools = await listed();
  return IMPORTED.map((name) => `${name}:${tools.get(name)?.state ?? 'missing'}`);
}

/** The JSON argv line the print-argv script wrote (npm and make print lines of their own). */
function argvIn(text: string): unknown {
  const line = /^\[.*\]$/m.exec(text)?.[0];
  assert.ok(line !== undefined, `no argv line in: ${text}`);
  return JSON.parse(line);
}

beforeEach(() => {
  config = makeTempDir('wt-xdg-');
  workspace = makeImportWorkspace();
});

afterEach(() => {
  workspace.cleanup();
  config.cleanup();
});

describe('imported tasks through the command line', () => {
  test('approve, list --json with each source, call each with its parameters; a changed tasks.json or package.json waits again', async () => {
    assert.deepEqual(await states(), IMPORTED.map((name) => `${name}:pending-approval`));
    const refused = await run(['call', 'make-hello']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /waits for the user's approval/);

    const approved = await run(['approve', '--yes']);
    assert.equal(approved.code, 0, approved.stderr);
    assert.deepEqual(await states(), IMPORTED.map((name) => `${name}:active`));

    const tools = await listed();
    const declared = (name: string): string => {
      const where = tools.get(name)?.source.declared;
      return where === undefined ? 'none' : `${path.relative(workspace.path, where.file)}:${where.line}:${where.column}`;
    };
    assert.deepEqual(IMPORTED.map(declared), ['.vscode/tasks.json:9:5', '.vscode/tasks.json:10:5', '.vscode/tasks.json:11:5', '.vscode/tasks.json:12:5', 'package.json:5:5', 'Makefile:1:1']);
    assert.equal(tools.get('task-show-mode')?.source.file, path.join(workspace.path, '.vscode/tools/declared.json'));
    assert.deepEqual(tools.get('task-show-mode')?.inputSchema.properties?.['mode'], { ...tools.get('task-show-mode')?.inputSchema.properties?.['mode'], enum: ['debug', 'release'], default: 'debug' });
    const table = (await run(['list', '--no-builtins'])).stdout;
    // Each row says the tool's sandbox in a few words: imported tools write inside the workspace, with no network, by default.
    assert.match(table, /^task-show-mode +served +writes workspace, no network +\.vscode\/tasks\.json:9:5 \(import at \.vscode\/tools\/declared\.json:4:5\)$/m);
    assert.match(table, /^make-hello +served +writes workspace, no network +Makefile:1:1 \(import at \.vscode\/tools\/declared\.json:6:5\)$/m);

    const shell = await run(['call', 'task-show-mode', '{"mode":"release","note":"hi there"}']);
    assert.equal(shell.code, 0, shell.stderr);
    assert.deepEqual(argvIn(shell.stdout), ['release', 'hi there']);
    const processTask = await run(['call', 'task-print-args', '{"note":"n"}']);
    assert.deepEqual(argvIn(processTask.stdout), ['n', 'fixed']);
    const npm = await run(['call', 'npm-greet', '{"args":["a b","c"]}']);
    assert.equal(npm.code, 0, npm.stderr);
    assert.deepEqual(argvIn(npm.stdout), ['greet', 'a b', 'c']);
    const make = await run(['call', 'make-hello']);
    assert.equal(make.code, 0, make.stderr);
    assert.match(make.stdout, /made-hello/);

    // The dependsOn chain runs prepare first; the type check then fails with one $tsc problem.
    const chain = await run(['call', 'task-typecheck', '--json']);
    assert.equal(chain.code, 1);
    assert.ok(existsSync(path.join(workspace.path, 'prepared.txt')), 'the dependsOn step ran first');
    const printed = JSON.parse(chain.stdout) as { isError: boolean; structured?: { problems: unknown[] } };
    assert.equal(printed.isError, true);
    assert.deepEqual(printed.structured?.problems, [{ file: path.join(workspace.path, 'src/app.ts'), line: 3, column: 7, severity: 'error', message: "Type 'string' is not assignable to type 'number'.", code: '2322' }]);

    workspace.write('.vscode/tasks.json', TASKS_JSON.replace('node tsc-like.js', 'node tsc-like.js --changed'));
    assert.deepEqual(await states(), IMPORTED.map((name) => `${name}:pending-approval`));
    assert.equal((await run(['call', 'task-prepare'])).code, 1);
    assert.equal((await run(['approve', '--yes'])).code, 0);
    assert.deepEqual(await states(), IMPORTED.map((name) => `${name}:active`));
    workspace.write('package.json', PACKAGE_JSON.replace('node argv.js greet', 'node argv.js changed'));
    assert.deepEqual(await states(), IMPORTED.map((name) => `${name}:pending-approval`));
    const stale = await run(['call', 'npm-greet']);
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /waits for the user's approval/);
  });

  test('approve shows each imported tool with where it is declared and exactly what runs', async () => {
    const shown = await run(['approve', '--yes']);
    assert.equal(shown.code, 0, shown.stderr);
    // A shell task's line once (issue 35 item 16: it was a "runs:" line and the script both).
    assert.match(shown.stdout, /• task-show-mode \[execute, write\]\n {4}imports "show mode" from \.vscode\/tasks\.json:9:5\n {4}script run by the default shell:\n {4}\| node argv\.js "\$\{INPUT_MODE\}" "\$\{INPUT_NOTE\}"\n/);
    assert.equal(shown.stdout.split('node argv.js "${INPUT_MODE}" "${INPUT_NOTE}"').length - 1, 1, shown.stdout);
    // An npm script shows its text, not only "npm run greet" (issue 35 item 3); a make target its recipe.
    assert.match(shown.stdout, /• npm-greet \[execute, write\]\n {4}imports "greet" from package\.json:5:5\n {4}runs: npm run greet -- \{\{args\}\}\n {4}package\.json script "greet":\n {4}\| node argv\.js greet\n {4}runs the workspace file argv\.js \(sha256 [0-9a-f]{16}…\)\n {4}sandbox: writes: the workspace folder and its private temporary folder; network: none \(loopback included\)\n\n/);
    assert.match(shown.stdout, /• make-hello \[execute, write\]\n {4}imports "hello" from Makefile:1:1\n {4}runs: make hello\n {4}Makefile:1 recipe of "hello":\n {4}\| @echo made-hello\n/);
    assert.match(shown.stdout, /• task-typecheck [^\n]*\n(?: {4}[^\n]*\n)*? {4}reads problems with \$tsc/);
    assert.match(shown.stdout, /or of a file its import section reads/);
  });
});

describe('imported tasks through the MCP server over stdio', () => {
  test('served to the client; injection values reach the program literally, as argv and through the shell', async () => {
    assert.equal((await run(['approve', '--yes'])).code, 0);
    const server = await connectServer(['--workspace', workspace.path, '--no-builtins', '--no-watch'], { configHome: config.path });
    try {
      const { tools } = await server.client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), [...IMPORTED].sort());
      for (const value of INJECTIONS) {
        const shell = await server.client.callTool({ name: 'task-show-mode', arguments: { mode: 'debug', note: value } });
        assert.deepEqual(argvIn(resultText(shell)), ['debug', value], `shell task, ${JSON.stringify(value)}`);
        const processTask = await server.client.callTool({ name: 'task-print-args', arguments: { note: value } });
        if (value.startsWith('-')) {
          assert.equal(processTask.isError, true, 'a value that would be an option is refused');
        } else {
          assert.deepEqual(argvIn(resultText(processTask)), [value, 'fixed'], `process task, ${JSON.stringify(value)}`);
        }
      }
      const npm = await server.client.callTool({ name: 'npm-greet', arguments: { args: INJECTIONS.filter((value) => !value.includes('\n')) } });
      assert.deepEqual(argvIn(resultText(npm)), ['greet', ...INJECTIONS.filter((value) => !value.includes('\n'))]);
      const outOfEnum = await server.client.callTool({ name: 'task-show-mode', arguments: { mode: 'release; id', note: 'x' } });
      assert.equal(outOfEnum.isError, true);

      const checked = await server.client.callTool({ name: 'task-typecheck', arguments: {} });
      assert.equal(checked.isError, true);
      assert.deepEqual((checked.structuredContent as { problems: unknown[] }).problems, [{ file: path.join(workspace.path, 'src/app.ts'), line: 3, column: 7, severity: 'error', message: "Type 'string' is not assignable to type 'number'.", code: '2322' }]);
    } finally {
      await server.close();
    }
  });

  test('a source edited after the load runs nothing until it is approved, even before a reload', async () => {
    assert.equal((await run(['approve', '--yes'])).code, 0);
    const server = await connectServer(['--workspace', workspace.path, '--no-builtins', '--no-watch'], { configHome: config.path });
    try {
      assert.equal((await server.client.callTool({ name: 'make-hello', arguments: {} })).isError, false);
      workspace.write('Makefile', 'hello:\n\t@touch pwned\n');
      const ran = await server.client.callTool({ name: 'make-hello', arguments: {} });
      assert.equal(ran.isError, true);
      assert.match(resultText(ran), /Makefile changed since it was loaded/);
      assert.equal(existsSync(path.join(workspace.path, 'pwned')), false);
    } finally {
      await server.close();
    }
  });

  test('a watching server reloads when tasks.json changes: its tools wait for approval', async () => {
    assert.equal((await run(['approve', '--yes'])).code, 0);
    const server = await connectServer(['--workspace', workspace.path, '--no-builtins'], { configHome: config.path });
    try {
      assert.equal((await server.client.listTools()).tools.length, IMPORTED.length);
      const changed = server.nextListChanged(10_000);
      workspace.write('.vscode/tasks.json', readFileSync(path.join(workspace.path, '.vscode/tasks.json'), 'utf8').replace('"fixed"', '"other"'));
      await changed;
      assert.deepEqual((await server.client.listTools()).tools, []);
    } finally {
      await server.close();
    }
  });
});

describe('tasks.json npm tasks through the MCP server over stdio', () => {
  test('an unlabelled npm task, a labelled one in a folder and a composite of both run for real; an edited package.json in the folder runs nothing until approved', async () => {
    workspace.write('lib/package.json', `${JSON.stringify({ name: 'lib', private: true, scripts: { build: 'node ../argv.js lib-build' } }, null, 2)}\n`);
    workspace.write(
      '.vscode/tasks.json',
      JSON.stringify({
        version: '2.0.0',
        tasks: [
          { type: 'npm', script: 'greet' },
          { label: 'build lib', type: 'npm', script: 'build', path: 'lib' },
          { label: 'everything', dependsOn: ['npm: greet', 'build lib'], dependsOrder: 'sequence' },
        ],
      }),
    );
    assert.equal((await run(['approve', '--yes'])).code, 0);
    const server = await connectServer(['--workspace', workspace.path, '--no-builtins', '--no-watch'], { configHome: config.path });
    try {
      const names = (await server.client.listTools()).tools.map((tool) => tool.name);
      for (const name of ['task-npm-greet', 'task-build-lib', 'task-everything']) {
        assert.ok(names.includes(name), `${name} is not served: ${names.join(', ')}`);
      }
      const greet = await server.client.callTool({ name: 'task-npm-greet', arguments: {} });
      assert.equal(greet.isError, false, resultText(greet));
      assert.deepEqual(argvIn(resultText(greet)), ['greet']);
      const lib = await server.client.callTool({ name: 'task-build-lib', arguments: {} });
      assert.equal(lib.isError, false, resultText(lib));
      assert.deepEqual(argvIn(resultText(lib)), ['lib-build']);
      const all = await server.client.callTool({ name: 'task-everything', arguments: {} });
      const text = resultText(all);
      assert.equal(all.isError, false, text);
      assert.ok(text.indexOf('["greet"]') >= 0 && text.indexOf('["greet"]') < text.indexOf('["lib-build"]'), text);

      workspace.write('lib/package.json', JSON.stringify({ scripts: { build: 'touch pwned' } }));
      const edited = await server.client.callTool({ name: 'task-everything', arguments: {} });
      assert.equal(edited.isError, true);
      assert.match(resultText(edited), /lib\/package\.json changed since it was loaded/);
      assert.equal(existsSync(path.join(workspace.path, 'lib/pwned')), false);
    } finally {
      await server.close();
    }
  });
});
