/**
 * The Windows smoke suite: run by the Windows build of Node (under Wine here, see
 * scripts/test-windows.mjs) as `node.exe smoke.js VERDICT_FILE DIST_DIR NPM_DIR`. It makes a workspace,
 * serves it with the real built server, checks what differs on Windows, and writes its verdict
 * as JSON to VERDICT_FILE (node.exe's own stdout cannot be a Linux pipe under Wine).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { callTool, runCli, startServer } from './server';
import type { SmokeServer } from './server';
import type { SmokeWorkspace } from './workspace';
import { BATCH_LITERALS, INJECTION_VALUES, makeWorkspace, NPM_SCRIPT } from './workspace';

/** One check's outcome. */
interface Verdict {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

const verdicts: Verdict[] = [];

/** Runs one check: it passes when `body` returns without throwing. */
async function check(name: string, body: () => Promise<void> | void): Promise<void> {
  const started = Date.now();
  try {
    await body();
    verdicts.push({ name, ok: true, detail: `${Date.now() - started} ms` });
  } catch (error) {
    verdicts.push({ name, ok: false, detail: error instanceof Error ? error.message : String(error) });
  }
}

function expect(condition: boolean, message: string): void {
  if (!condition) {
    throw new Error(message);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The 8.3 short name cmd.exe gives the directory `name` in `cwd` (Wine shortens directories, not the file a path ends in). */
function shortName(cwd: string, name: string, file: string): string {
  const line = execFileSync('cmd.exe', ['/d', '/s', '/c', `"for %I in ("${name}\\${file}") do @echo %~sI"`], { cwd, windowsVerbatimArguments: true } as Parameters<typeof execFileSync>[2]);
  return path.win32.basename(path.win32.dirname(line.toString().trim()));
}

async function toolNames(server: SmokeServer): Promise<string[]> {
  return (await server.client.listTools()).tools.map((tool) => tool.name);
}

/** Until `predicate` holds (true) or `ms` pass (false). */
async function eventually(ms: number, predicate: () => Promise<boolean>): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(250)) {
    if (await predicate()) {
      return true;
    }
  }
  return predicate();
}

async function containmentChecks(server: SmokeServer, workspace: SmokeWorkspace): Promise<void> {
  const read = (file: string): Promise<{ text: string; isError: boolean }> => callTool(server, 'file-reader', { path: file });
  const reads: [string, string][] = [
    ['inside.txt', 'inside text'],
    ['sub\\deep.txt', 'deep text'],
    ['sub/deep.txt', 'deep text'],
    ['SUB\\DEEP.TXT', 'deep text'],
    [path.join(workspace.folder, 'inside.txt').replace(/^C:/, 'c:'), 'inside text'],
  ];
  for (const [file, text] of reads) {
    await check(`reads inside: ${file}`, async () => {
      const result = await read(file);
      expect(!result.isError && result.text.includes(text), `got ${JSON.stringify(result)}`);
    });
  }
  const short = shortName(workspace.folder, 'LongDirectoryName', 'note.txt');
  const outsideShort = shortName(workspace.root, 'outside-long-directory', 'secret.txt');
  await check(`reads inside by an 8.3 short name: ${short}\\note.txt`, async () => {
    expect(short.toLowerCase() !== 'longdirectoryname', `cmd.exe gave no short name (${short})`);
    const result = await read(`${short}\\note.txt`);
    expect(!result.isError && result.text.includes('short name text'), `got ${JSON.stringify(result)}`);
  });
  const refused = [
    'C:\\windows\\win.ini', 'c:/windows/win.ini', '..\\..\\..\\windows\\win.ini', '\\\\?\\C:\\windows\\win.ini', '\\\\.\\C:\\windows\\win.ini',
    '//?/C:/windows/win.ini', '\\\\localhost\\C$\\windows\\win.ini', 'Z:\\etc\\passwd', 'C:windows\\win.ini', 'SUB\\..\\..\\secret.txt', 'FOO/../../secret.txt',
    `..\\${outsideShort}\\secret.txt`, path.join(workspace.root, outsideShort, 'secret.txt'), `C:\\PROGRA~1\\..\\windows\\win.ini`, 'inside.txt:secret', 'inside.txt::$DATA', 'CON', 'nul', 'COM1', 'con.txt', 'Aux.log', 'inside.txt.', 'inside.txt ',
  ];
  for (const file of refused) {
    await check(`refuses: ${file}`, async () => {
      const result = await read(file);
      expect(result.isError && !result.text.includes('SECRET') && !/\[fonts\]|root:/i.test(result.text), `got ${JSON.stringify(result)}`);
    });
  }
  await check('file-read plugin tool: reads in its basePath, refuses ..\\inside.txt', async () => {
    const inside = await callTool(server, 'read-docs', { path: 'guide.md' });
    const outside = await callTool(server, 'read-docs', { path: '..\\inside.txt' });
    expect(!inside.isError && inside.text.includes('# guide') && outside.isError, `got ${JSON.stringify([inside, outside])}`);
  });
}

async function shellChecks(server: SmokeServer, workspace: SmokeWorkspace): Promise<void> {
  for (const value of INJECTION_VALUES) {
    await check(`argv reaches the program literally: ${value}`, async () => {
      const result = await callTool(server, 'argv-echo', { value });
      expect(!result.isError && result.text === JSON.stringify([value]), `got ${JSON.stringify(result)}`);
    });
  }
  await check('a timeout ends the whole tree: the grandchild stops writing', async () => {
    const result = await callTool(server, 'tree-timeout');
    expect(result.isError && result.text.includes('timed out'), `got ${JSON.stringify(result)}`);
    await sleep(3000);
    const before = existsSync(workspace.growFile) ? statSync(workspace.growFile).size : 0;
    await sleep(3000);
    const after = existsSync(workspace.growFile) ? statSync(workspace.growFile).size : 0;
    expect(before > 0, 'the grandchild never wrote: nothing was tested');
    expect(after === before, `the grandchild still runs: ${before} bytes, then ${after}`);
  });
  await check('a .cmd with an input value is refused, naming CVE-2024-27980', async () => {
    const result = await callTool(server, 'batch-value', { value: 'x & echo INJECTED' });
    expect(result.isError && result.text.includes('CVE-2024-27980') && !result.text.includes('INJECTED\r'), `got ${JSON.stringify(result)}`);
  });
  await check('a .cmd with literal arguments runs, each argument intact', async () => {
    const result = await callTool(server, 'batch-literal');
    expect(!result.isError && result.text === JSON.stringify(BATCH_LITERALS), `got ${JSON.stringify(result)}`);
  });
  await check('PATHEXT finds greet.cmd on PATH', async () => {
    const result = await callTool(server, 'greet');
    expect(!result.isError && result.text.includes('greetings from greet.cmd friend'), `got ${JSON.stringify(result)}`);
  });
  await check('a program planted in the working directory is not run', async () => {
    expect(existsSync(path.join(workspace.folder, 'planted.exe')), 'no program to plant was found in system32');
    const result = await callTool(server, 'planted');
    expect(result.isError && result.text.includes('not found on PATH'), `got ${JSON.stringify(result)}`);
  });
  await check('the built-in git tools do not run a git.exe planted in the workspace (there is no git on this PATH)', async () => {
    expect(existsSync(path.join(workspace.folder, 'git.exe')), 'no git.exe was planted: nothing was tested');
    const result = await callTool(server, 'git-status');
    // The planted program would have run and printed its output where git's was expected.
    expect(result.isError && result.text.includes('git is not installed or not on PATH'), `got ${JSON.stringify(result)}`);
  });
  await check('a cmd.exe script reads !INPUT_VALUE!: no value runs as a command', async () => {
    const result = await callTool(server, 'cmd-script', { value: 'x & echo INJECTED | more' });
    expect(!result.isError && result.text.includes('[x & echo INJECTED | more]') && !/^INJECTED/m.test(result.text), `got ${JSON.stringify(result)}`);
  });
}

/**
 * A package.json script imported as a tool, on a PATH whose npm is Node's installer's npm.cmd
 * (the real npm package): npm.cmd cannot take the tool's args (CVE-2024-27980), so the tool runs
 * node.exe with npm-cli.js beside it, and npm hands the values to the script.
 */
async function npmScriptChecks(server: SmokeServer, workspace: SmokeWorkspace): Promise<void> {
  const npmCli = path.join(workspace.npmDir, 'node_modules', 'npm', 'bin', 'npm-cli.js');
  await check('npm-scripts import: the tool runs node.exe with npm-cli.js beside npm.cmd, and its description says so', async () => {
    expect(existsSync(path.join(workspace.npmDir, 'npm.cmd')) && existsSync(npmCli), `no npm layout in ${workspace.npmDir}: nothing was tested`);
    const tool = (await server.client.listTools()).tools.find((candidate) => candidate.name === NPM_SCRIPT.tool);
    const description = tool?.description ?? '';
    expect(description.includes(npmCli) && description.includes(path.join(workspace.npmDir, 'node.exe')) && description.includes(`the batch file ${path.join(workspace.npmDir, 'npm.cmd')}`), `got ${JSON.stringify(tool)}`);
  });
  await check('npm-scripts import: every injection value reaches npm as one argument, and the script literally; none runs', async () => {
    const result = await callTool(server, NPM_SCRIPT.tool, { args: INJECTION_VALUES });
    // npm's banner: the script and the arguments npm-cli.js got, before npm hands them on.
    const banner = result.text.split(/\r?\n/).find((line) => line.startsWith(`> ${NPM_SCRIPT.body}`));
    expect(banner === `> ${NPM_SCRIPT.body} ${INJECTION_VALUES.join(' ')}`, `npm's banner: ${JSON.stringify(banner)}; got ${JSON.stringify(result)}`);
    // npm runs the script with cmd.exe, escaping % as ^% (which Windows' cmd.exe honours); Wine's
    // cmd.exe expands %NAME% even through carets, so there a value with % arrives expanded: that
    // step is npm's and cmd.exe's, after the value reached npm intact (the banner above).
    const printed = JSON.parse(/^\[.*\]$/m.exec(result.text)?.[0] ?? 'null') as string[] | null;
    const expected = INJECTION_VALUES.map((value, index) => (value.includes('%') ? printed?.[index] : value));
    expect(!result.isError && JSON.stringify(printed) === JSON.stringify(expected) && !/^INJECTED/m.test(result.text), `got ${JSON.stringify(result)}`);
  });
  await check('npm-scripts import: without args the script gets none', async () => {
    const result = await callTool(server, NPM_SCRIPT.tool);
    expect(!result.isError && /^\[\]$/m.test(result.text), `got ${JSON.stringify(result)}`);
  });
}

async function codeChecks(server: SmokeServer): Promise<void> {
  await check('a code tool runs in the sandbox on Windows', async () => {
    const result = await callTool(server, 'code-hello', { name: 'smoke' });
    expect(!result.isError && result.text.includes('hello smoke on win32'), `got ${JSON.stringify(result)}`);
  });
  await check('a code tool cannot read C:\\windows\\win.ini', async () => {
    const result = await callTool(server, 'code-escape');
    expect(result.isError && result.text.includes('Refused by the sandbox') && !/\[fonts\]/i.test(result.text), `got ${JSON.stringify(result)}`);
  });
}

async function main(verdictFile: string, dist: string, npmDir: string): Promise<void> {
  const workspace = makeWorkspace(npmDir);
  const server = await startServer(dist, workspace);
  try {
    await check('initialize: the server answers with its name', () => expect(server.client.getServerVersion()?.name === 'workspace-tools', JSON.stringify(server.client.getServerVersion())));
    await check('tools/list: built-ins served, the unapproved plugin file not', async () => {
      const names = await toolNames(server);
      expect(names.includes('file-reader') && !names.includes('argv-echo'), names.join(', '));
    });
    await check('check: CRLF files give problems at their line:column, and %INPUT_X% in a cmd.exe script is refused', async () => {
      const outcome = await runCli(dist, workspace, ['check']);
      expect(outcome.code === 1 && /broken\.json:4:18: /.test(outcome.stdout + outcome.stderr) && /percent\.json:\d+:\d+: .*!INPUT_VALUE!/.test(outcome.stdout + outcome.stderr), JSON.stringify(outcome));
    });
    await check('approve through the CLI: stored in %APPDATA%\\workspace-tools\\approvals.json, then served', async () => {
      const outcome = await runCli(dist, workspace, ['approve', '--yes']);
      expect(outcome.code === 0, JSON.stringify(outcome));
      expect(existsSync(path.join(workspace.appData, 'workspace-tools', 'approvals.json')), 'no approval store in %APPDATA%');
      expect(await eventually(20_000, async () => (await toolNames(server)).includes('argv-echo')), `not served: ${(await toolNames(server)).join(', ')}`);
    });
    await check('the bin keeps its compile cache in %LOCALAPPDATA%\\workspace-tools\\node-compile-cache, and a cached start answers', async () => {
      const cacheDir = path.join(workspace.localAppData, 'workspace-tools', 'node-compile-cache');
      const bundleEntries = (): string[] =>
        existsSync(cacheDir)
          ? readdirSync(cacheDir, { recursive: true, withFileTypes: true })
              .filter((entry) => entry.isFile())
              .map((entry) => path.join(entry.parentPath, entry.name))
              .filter((file) => statSync(file).size > 100_000)
          : [];
      expect(bundleEntries().length === 1, `cache entries for the server bundle in ${cacheDir}: ${bundleEntries().join(', ')}`);
      const outcome = await runCli(dist, workspace, ['--version']);
      expect(outcome.code === 0 && /^\d+\.\d+\.\d+/.test(outcome.stdout) && bundleEntries().length === 1, JSON.stringify(outcome));
    });
    await containmentChecks(server, workspace);
    await shellChecks(server, workspace);
    await npmScriptChecks(server, workspace);
    await codeChecks(server);
    await check('history: the calls are in %LOCALAPPDATA%\\workspace-tools\\history.jsonl, and `history` lists them', async () => {
      const file = path.join(workspace.localAppData, 'workspace-tools', 'history.jsonl');
      expect(await eventually(10_000, async () => existsSync(file) && readFileSync(file, 'utf8').includes('"argv-echo"')), `no history at ${file}`);
      const outcome = await runCli(dist, workspace, ['history', '--limit', '50']);
      expect(outcome.code === 0 && outcome.stdout.includes('argv-echo'), JSON.stringify(outcome));
    });
  } finally {
    await server.close();
    writeFileSync(verdictFile, JSON.stringify({ node: process.version, platform: process.platform, workspace: workspace.root, verdicts, serverStderr: server.stderr().slice(-4000) }, null, 2));
  }
}

const [verdictFile, dist, npmDir] = process.argv.slice(2);
if (verdictFile === undefined || dist === undefined || npmDir === undefined) {
  throw new Error('usage: node smoke.js VERDICT_FILE DIST_DIR NPM_DIR');
}
main(verdictFile, dist, npmDir).catch((error: unknown) => {
  writeFileSync(verdictFile, JSON.stringify({ verdicts: [...verdicts, { name: 'the smoke suite ran to its end', ok: false, detail: error instanceof Error ? (error.stack ?? error.message) : String(error) }] }, null, 2));
  process.exitCode = 1;
});
