// The subcommands as a user runs them in a terminal or CI: real processes, a temp approval store.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { parse } from 'jsonc-parser';
import { version } from '../../../package.json';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { runCli } from '../helpers/cli';
import { SERVER_PATH, connectServer, testServerEnv } from '../helpers/mcp-client';
import { posixQuote } from '../../../src/core/sandbox/sandboxed-command';

const storeOf = (configHome: string): string => path.join(configHome, 'workspace-tools', 'approvals.json');

const TOOLS = JSON.stringify({
  tools: [
    { name: 'say', description: 'prints its word', tags: ['read'], inputSchema: { type: 'object', properties: { word: { type: 'string' } } }, handler: { type: 'shell', command: ['node', '-e', 'process.stdout.write(process.argv[1] ?? "none")', '{{word}}'] } },
    { name: 'fail', description: 'exits 3', handler: { type: 'shell', command: ['node', '-e', 'process.exit(3)'] } },
  ],
});

let config: TempDir;
let workspace: TempDir;
const run = (args: string[], input?: string) => runCli(args, { configHome: config.path, cwd: workspace.path, ...(input === undefined ? {} : { input }) });

beforeEach(() => {
  config = makeTempDir('wt-xdg-');
  workspace = makeTempDir('wt-cli-');
  workspace.write('.vscode/tools/team.json', TOOLS);
});

afterEach(() => {
  workspace.cleanup();
  config.cleanup();
});

describe('approve', () => {
  test('without a terminal and without --yes it refuses, names --yes, and approves nothing', async () => {
    const result = await run(['approve']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /standard input is not a terminal.*pass --yes/);
    assert.equal(existsSync(storeOf(config.path)), false);
  });

  test('on a terminal it shows what the file runs and approves only on "y"', async () => {
    const inTerminal = (answer: string) => inPseudoTerminal(['approve', '--workspace', workspace.path], answer, config.path);
    const refused = await inTerminal('n');
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /runs: node -e .* \{\{word\}\}\r?\n/);
    assert.match(refused.stdout, /Not approved: /);
    assert.equal(existsSync(storeOf(config.path)), false);
    const approved = await inTerminal('y');
    assert.equal(approved.code, 0, approved.stdout);
    assert.match(approved.stdout, /Approve "team" \(.*team\.json\)\? \[y\/N\]/);
    assert.equal((await run(['call', 'say', '{"word":"ok"}'])).stdout, 'ok\n');
  });

  test('two processes approving different files at once: both approvals are kept', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const name of names) {
      workspace.write(`.vscode/tools/${name}.json`, JSON.stringify({ tools: [{ name: `t-${name}`, description: 'd', handler: { type: 'file-read' } }] }));
    }
    const results = await Promise.all(names.map((name) => run(['approve', `.vscode/tools/${name}.json`, '--yes'])));
    assert.deepEqual(results.map((result) => result.code), names.map(() => 0));
    const store = JSON.parse(readFileSync(storeOf(config.path), 'utf8')) as { approved: Record<string, string> };
    assert.deepEqual(Object.keys(store.approved).map((file) => path.basename(file)).sort(), names.map((name) => `${name}.json`));
  });

  test('a malformed, truncated or foreign store: nothing is served or approved, the message names it, its bytes stay', async () => {
    for (const text of ['{"version":1,"approved":{"/x":', 'not json', '{"version":7,"approved":{}}']) {
      const store = storeOf(config.path);
      execFileSync('mkdir', ['-p', path.dirname(store)]);
      writeFileSync(store, text);
      const approved = await run(['approve', '--yes']);
      assert.equal(approved.code, 1, text);
      assert.match(approved.stderr, new RegExp(`${store.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*left unchanged`));
      assert.doesNotMatch(approved.stderr, /\n\s+at /, 'no stack trace after the message');
      assert.doesNotMatch(approved.stdout, /Approve the tools of/, 'said before the review, not after the user read it');
      const server = await connectServer(['--workspace', workspace.path, '--no-builtins', '--approvals', store], { configHome: config.path });
      assert.deepEqual((await server.client.listTools()).tools, []);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.match(server.stderr(), /nothing is approved/);
      await server.close();
      assert.equal(readFileSync(store, 'utf8'), text);
    }
  });
});

/**
 * Runs the server script under `script`, which gives it a pseudo-terminal, and types `answer`
 * once the y/N prompt shows (typed earlier, the terminal would drop it when readline takes over).
 */
function inPseudoTerminal(args: readonly string[], answer: string, configHome: string): Promise<{ code: number | null; stdout: string }> {
  const line = [process.execPath, SERVER_PATH, ...args].map(posixQuote).join(' ');
  const child = spawn('script', ['-qec', line, '/dev/null'], { env: testServerEnv(configHome), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let answered = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (!answered && stdout.includes('[y/N]')) {
      answered = true;
      child.stdin.write(`${answer}\r`);
    }
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

describe('check', () => {
  test('prints each problem as path:line:column and exits 1; a clean workspace exits 0', async () => {
    assert.equal((await run(['check'])).code, 0);
    workspace.write('.vscode/tools/broken.json', '{\n  "tools": [\n    { "name": "x", "description": "d", "handler": { "type": "shell", "command": "ls | wc" } }\n  ]\n}\n');
    const result = await run(['check']);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^\.vscode\/tools\/broken\.json:3:\d+: tool "x": .*script/m);
    assert.match(result.stderr, /2 plugin files checked: 1 problem in 1 file/);
  });

  test('an empty plugin file passes, and is said to serve nothing', async () => {
    workspace.write('.vscode/tools/empty.json', '');
    const result = await run(['check']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^\.vscode\/tools\/empty\.json: defines no tools, prompts or resources yet\.$/m);
    assert.doesNotMatch(result.stderr, /team\.json: defines no/);
  });
});

describe('test', () => {
  test('before approval, the tests fail as not run and the command says how to approve', async () => {
    workspace.write('.vscode/tools/tested.json', JSON.stringify({ tools: [{ name: 'hi', description: 'says hi to you', handler: { type: 'shell', command: ['echo', 'hi'] }, tests: [{ name: 'says hi', input: {}, expect: { outputContains: 'hi' } }] }] }));
    const waiting = await run(['test']);
    assert.equal(waiting.code, 1);
    assert.match(waiting.stdout, /FAIL hi › says hi/);
    assert.match(waiting.stderr, /The tests of .*tested\.json.* did not run: they wait for approval\. Review and approve with "workspace-tools-mcp approve --workspace /);
    assert.equal((await run(['approve', '--yes'])).code, 0);
    const approved = await run(['test']);
    assert.equal(approved.code, 0, approved.stdout + approved.stderr);
    assert.match(approved.stdout, /PASS hi › says hi/);
    assert.doesNotMatch(approved.stderr, /wait for approval/);
  });
});

describe('list', () => {
  test('table, JSON and --allowed-names (served read-only tools only)', async () => {
    const table = await run(['list']);
    assert.match(table.stdout, /^git-status +served +built-in, not sandboxed +built-in$/m);
    // A shell tool's sandbox in a few words: its tags give it no write and no network.
    assert.match(table.stdout, /^say +awaiting approval +writes temp only, no network +\.vscode\/tools\/team\.json:\d+:\d+$/m);
    assert.match(table.stdout, /\nShell and imported tools run in the OS sandbox their tags choose, which hides: ~\/\.ssh, ~\/\.aws, /);
    assert.equal((await run(['approve', '--yes'])).code, 0);
    const names = (await run(['list', '--allowed-names'])).stdout.trim().split('\n');
    assert.ok(names.includes('mcp__workspace-tools__git-status'));
    assert.ok(names.includes('mcp__workspace-tools__say'));
    assert.equal(names.includes('mcp__workspace-tools__fail'), false, 'an execute tool is not read-only');
    assert.match((await run(['list', '--allowed-names', 'mine'])).stdout, /^mcp__mine__say$/m);
    const json = JSON.parse((await run(['list', '--json'])).stdout) as Array<{ name: string; state: string; readOnly: boolean; sandbox?: { kind: string; lines: string[]; policy?: { write: string; network: { kind: string }; denyRead: string[] } } }>;
    assert.deepEqual(json.find((tool) => tool.name === 'fail'), { ...json.find((tool) => tool.name === 'fail'), state: 'active', readOnly: false });
    // --json has every rule of each tool's sandbox, and the policy with absolute paths.
    const sandbox = json.find((tool) => tool.name === 'fail')?.sandbox;
    assert.equal(sandbox?.kind, 'os');
    assert.deepEqual(sandbox?.lines.slice(0, 2), ['writes: only its private temporary folder', 'network: none (loopback included)']);
    assert.match(sandbox?.lines[2] ?? '', /^hidden: ~\/\.ssh, ~\/\.aws, ~\/\.config\/gh, ~\/\.netrc, ~\/\.npmrc, ~\/\.docker\/config\.json, ~\/\.kube, ~\/\.gnupg, /);
    assert.deepEqual([sandbox?.policy?.write, sandbox?.policy?.network.kind], ['temp-only', 'none']);
    assert.ok(sandbox?.policy?.denyRead.includes(path.join(config.path, 'workspace-tools')), `the approval store's folder is hidden: ${JSON.stringify(sandbox?.policy?.denyRead)}`);
    assert.deepEqual(json.find((tool) => tool.name === 'git-status')?.sandbox?.kind, 'built-in');
  });
});

describe('resources: list, check, read', () => {
  const RESOURCES = JSON.stringify({
    resources: [
      { name: 'guide', uri: 'docs://guide', file: 'docs/guide.md' },
      { name: 'dot', uri: 'img://dot', file: 'dot.bin', mimeType: 'image/png' },
      { name: 'echo', uriTemplate: 'echo://{word}', command: ['node', '-e', 'process.stdout.write(process.argv[1])', '{{word}}'] },
    ],
  }, null, 2);

  test('list shows each resource with its state and file:line:column; --resources --json; read prints it once approved', async () => {
    workspace.write('.vscode/tools/docs.json', RESOURCES);
    workspace.write('docs/guide.md', '# Guide\n');
    writeFileSync(path.join(workspace.path, 'dot.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]));
    const table = await run(['list', '--no-builtins']);
    assert.match(table.stdout, /^Resources:\ndocs:\/\/guide +awaiting approval +\.vscode\/tools\/docs\.json:3:5 +file docs\/guide\.md$/m);
    assert.match(table.stdout, /^echo:\/\/\{word\} +awaiting approval +\.vscode\/tools\/docs\.json:\d+:\d+ +command node -e/m);
    const waiting = await run(['read', 'docs://guide']);
    assert.equal(waiting.code, 1);
    assert.match(waiting.stderr, /Unknown resource docs:\/\/guide: it is defined in .*docs\.json, which waits for approval/);

    assert.equal((await run(['approve', '--yes'])).code, 0);
    const json = JSON.parse((await run(['list', '--resources', '--json'])).stdout) as Array<{ address: string; state: string; source: { line: number } }>;
    assert.deepEqual(json.map((resource) => [resource.address, resource.state]), [['docs://guide', 'served'], ['img://dot', 'served'], ['echo://{word}', 'served']]);
    assert.deepEqual(json.map((resource) => resource.source.line), [3, 8, 14]);
    assert.deepEqual(await run(['read', 'docs://guide']), { code: 0, stdout: '# Guide\n', stderr: '' });
    assert.deepEqual(await run(['read', 'echo://hi%20there']), { code: 0, stdout: 'hi there', stderr: '' });
    const unknown = await run(['read', 'docs://nothing']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Unknown resource docs:\/\/nothing: no approved plugin file serves it/);
  });

  test('read writes a blob as raw bytes', async () => {
    workspace.write('.vscode/tools/docs.json', RESOURCES);
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    writeFileSync(path.join(workspace.path, 'dot.bin'), bytes);
    const output = execFileSync(process.execPath, [SERVER_PATH, 'read', 'img://dot', '--approve-existing'], { cwd: workspace.path, env: testServerEnv(config.path) });
    assert.deepEqual(output, bytes);
  });

  test('check reports a resource problem at its line:column, naming the resource; a URI in two files names both places', async () => {
    workspace.write('.vscode/tools/a.json', '{\n  "resources": [\n    { "name": "up", "file": "../x.md" },\n    { "name": "same", "uri": "x://same", "file": "a.md" }\n  ]\n}\n');
    workspace.write('.vscode/tools/b.json', '{\n  "resources": [\n    { "name": "same2", "uri": "x://same", "file": "b.md" }\n  ]\n}\n');
    const result = await run(['check']);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^\.vscode\/tools\/a\.json:3:29: resource up: "\.\.\/x\.md" contains "\.\."/m);
    assert.match(result.stdout, /^\.vscode\/tools\/b\.json:3:5: duplicate resource URI "x:\/\/same": already defined by .*a\.json:4:5; this one is not served/m);
  });
});

describe('call', () => {
  test('prints the result; an error result exits 1; input from the argument or stdin; unapproved tools do not run', async () => {
    const unapproved = await run(['call', 'say', '{"word":"hi"}']);
    assert.equal(unapproved.code, 1);
    assert.match(unapproved.stderr, /waits for the user's approval/);
    assert.equal((await run(['approve', '--yes'])).code, 0);
    assert.deepEqual(await run(['call', 'say', '{"word":"hi"}']), { code: 0, stdout: 'hi\n', stderr: '' });
    assert.equal((await run(['call', 'say'], '{"word":"piped"}')).stdout, 'piped\n');
    const failed = await run(['call', 'fail']);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /exit code 3/);
    const bad = await run(['call', 'say', '{nope']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not JSON/);
    const status = await run(['call', 'workspace-info']);
    assert.equal(status.code, 0);
  });
});

describe('call --dry-run', () => {
  test('prints the expanded command one argument a line and runs nothing; refused input says why', async () => {
    workspace.write('.vscode/tools/deploy.json', JSON.stringify({
      tools: [
        { name: 'touch-it', description: 'creates a file', tags: ['write'], inputSchema: { type: 'object', properties: { name: { type: 'string', default: 'made.txt' }, count: { type: 'integer' } } }, handler: { type: 'shell', command: ['node', '-e', 'require("fs").writeFileSync(process.argv[1], "x")', '{{name}}', '--count={{count}}'] } },
        { name: 'scripted', description: 'a script', inputSchema: { type: 'object', properties: { who: { type: 'string' } } }, handler: { type: 'shell', script: 'echo "$INPUT_WHO"' } },
        { name: 'fetch-it', description: 'http', inputSchema: { type: 'object', properties: { id: { type: 'string' } } }, handler: { type: 'http', method: 'GET', url: 'https://api.example.com/items/{{id}}?token=abc123' } },
      ],
    }));
    const preview = await run(['call', 'touch-it', '{"count": 2}', '--dry-run', '--approve-existing']);
    assert.equal(preview.code, 0, preview.stderr);
    assert.equal(preview.stdout, "touch-it would run:\n  program: node\n  arg 1: -e\n  arg 2: 'require(\"fs\").writeFileSync(process.argv[1], \"x\")'\n  arg 3: made.txt\n  arg 4: --count=2\n");
    assert.equal(existsSync(path.join(workspace.path, 'made.txt')), false, 'a dry run ran the tool');
    const script = await run(['call', 'scripted', '{"who": "it\'s me"}', '--dry-run']);
    assert.match(script.stdout, /scripted would run \(not served now: pending-approval\):\n {2}program: sh\n {2}arg 1: -c\n {2}arg 2: 'echo "\$INPUT_WHO"'\n {2}arg 3: scripted\n {2}env INPUT_WHO: 'it'\\''s me'\n/);
    const http = await run(['call', 'fetch-it', '{"id": "a b"}', '--dry-run', '--approve-existing']);
    assert.equal(http.stdout, 'fetch-it would run:\n  GET https://api.example.com/items/a%20b?token=***\n');
    const refused = await run(['call', 'touch-it', '{"count": "two"}', '--dry-run', '--approve-existing']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /touch-it would refuse this input:\n- "count": must be integer/);
  });
});

describe('a tool that does not load is named, with why, not left out', () => {
  test('list shows the problem of a tool and of a file that does not parse; call names the tool and its problem', async () => {
    workspace.write('.vscode/tools/wrong.json', JSON.stringify({ tools: [{ name: 'wrongtypes', description: 'a timeout given as text', handler: { type: 'shell', command: ['echo', 'x'], timeout: '10' } }] }, null, 2));
    workspace.write('.vscode/tools/broken.json', '{ "tools": [ { "name": "half" ');
    assert.equal((await run(['approve', '--yes'])).code, 0);
    const listed = await run(['list']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /Problems \(these parts do not load; "check" explains each\):\n/);
    assert.match(listed.stdout, /wrong\.json:\d+:\d+: tool "wrongtypes": .*timeout/);
    assert.match(listed.stdout, /broken\.json:1:\d+: /);
    const json = JSON.parse((await run(['list', '--json'])).stdout) as Array<{ kind: string; tool?: string; file?: string }>;
    assert.ok(json.some((entry) => entry.kind === 'problem' && entry.tool === 'wrongtypes'), 'list --json has the problem');
    assert.ok(json.some((entry) => entry.kind === 'problem' && entry.file?.endsWith('broken.json') === true));
    const called = await run(['call', 'wrongtypes']);
    assert.equal(called.code, 1);
    assert.match(called.stderr, /Tool "wrongtypes" did not load: .*wrong\.json:\d+:\d+: tool "wrongtypes": .*timeout/);
    assert.doesNotMatch(called.stderr, /Unknown tool/);
    const server = await connectServer(['--workspace', workspace.path, '--no-builtins'], { configHome: config.path });
    try {
      await assert.rejects(server.client.callTool({ name: 'wrongtypes', arguments: {} }), /Tool "wrongtypes" did not load: .*timeout/);
    } finally {
      await server.close();
    }
  });
});

describe('init --claude', () => {
  test('writes .mcp.json and the read-only tools into .claude/settings.json, keeping what is there', async () => {
    assert.equal((await run(['approve', '--yes'])).code, 0);
    workspace.write('.claude/settings.json', '{\n  // mine\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n');
    const result = await run(['init', '--claude']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /How approval works there/);
    // Whether this machine sandboxes shell tools (available, or unavailable with what to do).
    assert.match(result.stdout, /Shell and imported tools run in the OS sandbox their tags allow|The OS sandbox is unavailable: /);
    const mcp = JSON.parse(readFileSync(path.join(workspace.path, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(mcp.mcpServers['workspace-tools'], { type: 'stdio', command: 'npx', args: ['-y', `workspace-tools-mcp@${version}`, '--workspace', '.'] });
    assert.match(result.stdout, new RegExp(`npx -y workspace-tools-mcp@${version.replace(/\./g, '\\.')} approve --workspace`));
    const settings = readFileSync(path.join(workspace.path, '.claude/settings.json'), 'utf8');
    assert.match(settings, /\/\/ mine/);
    assert.match(settings, /"Bash\(npm test\)"/);
    assert.match(settings, /"mcp__workspace-tools__git-status"/);
    assert.match(settings, /"mcp__workspace-tools__say"/);
    assert.doesNotMatch(settings, /mcp__workspace-tools__fail/);
  });

  test('run from a subfolder of a repository, it writes at the repository root; --workspace still names a folder', async () => {
    execFileSync('git', ['init', '-q'], { cwd: workspace.path });
    workspace.write('src/deep/keep.txt', 'x');
    const sub = path.join(workspace.path, 'src', 'deep');
    const result = await runCli(['init', '--cursor'], { configHome: config.path, cwd: sub });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Setting up the repository's root/);
    assert.equal(existsSync(path.join(workspace.path, '.cursor/mcp.json')), true, 'at the root');
    assert.equal(existsSync(path.join(sub, '.cursor')), false, 'not in the subfolder');
    const named = await runCli(['init', '--cursor', '--workspace', '.'], { configHome: config.path, cwd: sub });
    assert.equal(named.code, 0, named.stderr);
    assert.equal(existsSync(path.join(sub, '.cursor/mcp.json')), true, '--workspace . is taken as said');
  });

  test('--local keeps the path form (node and this script): for a checkout or an unpublished build', async () => {
    const result = await run(['init', '--claude', '--local']);
    assert.equal(result.code, 0, result.stderr);
    const mcp = JSON.parse(readFileSync(path.join(workspace.path, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(mcp.mcpServers['workspace-tools'], { type: 'stdio', command: 'node', args: [SERVER_PATH, '--workspace', '.'] });
    assert.match(result.stdout, /keep the files out of version control/);
  });

  test('--cursor and --vscode write .cursor/mcp.json and .mcp.json (VS Code 1.140+); an older .vscode/mcp.json entry is named, not removed', async () => {
    const legacy = '{\n  // mine\n  "servers": { "workspace-tools": { "command": "x" } }\n}\n';
    workspace.write('.vscode/mcp.json', legacy);
    const result = await run(['init', '--cursor', '--vscode']);
    assert.equal(result.code, 0, result.stderr);
    const cursor = JSON.parse(readFileSync(path.join(workspace.path, '.cursor/mcp.json'), 'utf8')) as unknown;
    assert.deepEqual(cursor, { mcpServers: { 'workspace-tools': { command: 'npx', args: ['-y', `workspace-tools-mcp@${version}`, '--workspace', '${workspaceFolder}'] } } });
    const mcp = JSON.parse(readFileSync(path.join(workspace.path, '.mcp.json'), 'utf8')) as unknown;
    assert.deepEqual(mcp, { mcpServers: { 'workspace-tools': { type: 'stdio', command: 'npx', args: ['-y', `workspace-tools-mcp@${version}`, '--workspace', '.'] } } });
    assert.match(result.stdout, /Note: \.vscode\/mcp\.json also starts "workspace-tools".*start it twice/);
    assert.equal(readFileSync(path.join(workspace.path, '.vscode/mcp.json'), 'utf8'), legacy);
    assert.equal(existsSync(path.join(workspace.path, '.claude')), false, 'only the agents asked for');
    assert.match(result.stdout, /To check that each sees it:\n {2}VS Code: Command Palette > "MCP: List Servers"\n {2}Cursor: Cursor Settings > MCP/);
  });

  test('a settings file that does not parse is left alone, with where it is broken', async () => {
    workspace.write('.claude/settings.json', '{ "permissions": ');
    const result = await run(['init', '--claude']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /\.claude\/settings\.json:1:\d+: .*left unchanged/);
    assert.equal(readFileSync(path.join(workspace.path, '.claude/settings.json'), 'utf8'), '{ "permissions": ');
  });
});

describe('init for every agent', () => {
  const npxArgs = ['-y', `workspace-tools-mcp@${version}`, '--workspace', '.'];
  const read = (file: string): string => readFileSync(path.join(workspace.path, file), 'utf8');

  test('--all in a fresh repository: each agent\'s project file in its own format, no path of this machine; a second run is up to date', async () => {
    execFileSync('git', ['init', '-q'], { cwd: workspace.path });
    const first = await run(['init', '--all']);
    assert.equal(first.code, 0, first.stderr);
    const files = ['.mcp.json', '.claude/settings.json', '.cursor/mcp.json', '.codex/config.toml', '.gemini/settings.json', '.zed/settings.json'];
    for (const file of files) {
      assert.match(first.stdout, new RegExp(`^Created: ${file.replace(/\./g, '\\.')}$`, 'm'));
      assert.ok(!read(file).includes(workspace.path) && !read(file).includes(SERVER_PATH), `no path of this machine in ${file}`);
    }
    assert.equal(first.stdout.match(/^Created: \.mcp\.json$/gm)?.length, 1, '.mcp.json once for Claude Code, VS Code and Copilot CLI');
    assert.deepEqual(JSON.parse(read('.mcp.json')), { mcpServers: { 'workspace-tools': { type: 'stdio', command: 'npx', args: npxArgs } } });
    assert.deepEqual(JSON.parse(read('.gemini/settings.json')), { mcpServers: { 'workspace-tools': { command: 'npx', args: npxArgs } } });
    assert.deepEqual(JSON.parse(read('.zed/settings.json')), { context_servers: { 'workspace-tools': { command: 'npx', args: npxArgs } } });
    assert.equal(read('.codex/config.toml'), `[mcp_servers.workspace-tools]\ncommand = "npx"\nargs = ["-y", "workspace-tools-mcp@${version}", "--workspace", "."]\n`);
    for (const check of ['claude mcp list', 'copilot mcp list', 'codex mcp list', 'gemini mcp list']) {
      assert.ok(first.stdout.includes(check), `the output says how to check: ${check}`);
    }
    const before = files.map(read);
    const second = await run(['init', '--all']);
    assert.equal(second.code, 0, second.stderr);
    for (const file of files) {
      assert.match(second.stdout, new RegExp(`^Already up to date: ${file.replace(/\./g, '\\.')}$`, 'm'));
    }
    assert.deepEqual(files.map(read), before, 'nothing rewritten');
  });

  test('existing files are merged: other settings and servers, and comments in JSONC and TOML, survive', async () => {
    const zed = '// Zed project settings\n{\n  "tab_size": 4, // ours\n  "context_servers": {\n    "other": { "command": "o", "args": [] }\n  }\n}\n';
    const gemini = '{\n  // team theme\n  "theme": "Dracula",\n  "mcpServers": {}\n}\n';
    const codex = '# Codex, this project\nmodel = "o3" # fast\n\n[mcp_servers.other]\ncommand = "o" # keep\n';
    workspace.write('.zed/settings.json', zed);
    workspace.write('.gemini/settings.json', gemini);
    workspace.write('.codex/config.toml', codex);
    const result = await run(['init', '--zed', '--gemini', '--codex']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Updated: \.zed\/settings\.json$/m);
    assert.match(read('.zed/settings.json'), /^\/\/ Zed project settings\n[\s\S]*"tab_size": 4, \/\/ ours/);
    assert.deepEqual(parse(read('.zed/settings.json')), { tab_size: 4, context_servers: { other: { command: 'o', args: [] }, 'workspace-tools': { command: 'npx', args: npxArgs } } });
    assert.match(read('.gemini/settings.json'), /\/\/ team theme/);
    assert.deepEqual(parse(read('.gemini/settings.json')), { theme: 'Dracula', mcpServers: { 'workspace-tools': { command: 'npx', args: npxArgs } } });
    assert.ok(read('.codex/config.toml').startsWith(codex), read('.codex/config.toml'));
    assert.match(read('.codex/config.toml'), /\n\[mcp_servers\.workspace-tools\]\ncommand = "npx"\n/);
  });

  test('a Codex file that does not parse is left alone, with where it is broken', async () => {
    workspace.write('.codex/config.toml', 'model = "o3"\nmodel = "o4"\n');
    const result = await run(['init', '--codex']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /\.codex\/config\.toml:2:\d+: .*left unchanged/);
    assert.equal(read('.codex/config.toml'), 'model = "o3"\nmodel = "o4"\n');
  });

  test('--copilot --user writes ~/.copilot/mcp-config.json (or $COPILOT_HOME\'s), nothing in the project', async () => {
    const home = makeTempDir('wt-home-');
    try {
      const result = await runCli(['init', '--copilot', '--user'], { configHome: config.path, cwd: workspace.path, env: { HOME: home.path, COPILOT_HOME: '' } });
      assert.equal(result.code, 0, result.stderr);
      const file = path.join(home.path, '.copilot', 'mcp-config.json');
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { mcpServers: { 'workspace-tools': { type: 'local', command: 'npx', args: npxArgs, tools: ['*'] } } });
      assert.equal(existsSync(path.join(workspace.path, '.mcp.json')), false);
      assert.match(result.stdout, /Copilot CLI: copilot mcp list/);
      const elsewhere = path.join(home.path, 'copilot-home');
      const moved = await runCli(['init', '--copilot', '--user'], { configHome: config.path, cwd: workspace.path, env: { HOME: home.path, COPILOT_HOME: elsewhere } });
      assert.equal(moved.code, 0, moved.stderr);
      assert.ok(existsSync(path.join(elsewhere, 'mcp-config.json')));
    } finally {
      home.cleanup();
    }
  });

  test('--list names each agent, its file and how to check it; bad combinations are refused with what to do', async () => {
    const listed = await run(['init', '--list']);
    assert.equal(listed.code, 0, listed.stderr);
    for (const [flag, file, check] of [
      ['--claude', '.mcp.json', 'claude mcp list'],
      ['--vscode', '.mcp.json', 'MCP: List Servers'],
      ['--copilot', '--user: ~/.copilot/mcp-config.json', 'copilot mcp list'],
      ['--cursor', '.cursor/mcp.json', 'cursor-agent mcp list'],
      ['--codex', '.codex/config.toml', 'codex mcp list'],
      ['--gemini', '.gemini/settings.json', 'gemini mcp list'],
      ['--zed', '.zed/settings.json', 'Agent Panel'],
    ]) {
      const row = new RegExp(`^ {2}${flag} [^\n]*\n {6}file: {2}[^\n]*${(file ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\n]*\n {6}check: [^\n]*${(check ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm');
      assert.match(listed.stdout, row, `${flag} in:\n${listed.stdout}`);
    }
    assert.equal(existsSync(path.join(workspace.path, '.mcp.json')), false, '--list writes nothing');
    const zedUser = await run(['init', '--zed', '--user']);
    assert.equal(zedUser.code, 2);
    assert.match(zedUser.stderr, /--user is for agents whose usual place is a file in your home folder \(--copilot\); Zed reads the project's file/);
    const allUser = await run(['init', '--all', '--user']);
    assert.equal(allUser.code, 2);
    assert.match(allUser.stderr, /--all writes every project file/);
    const none = await run(['init']);
    assert.match(none.stderr, /init needs the agents to set up: --claude, --vscode, --copilot, --cursor, --codex, --gemini, --zed, or --all/);
  });
});

describe('serve: where terminal and MCP users hear about plugin files', () => {
  test('a client that sets a log level gets each problem and pending file as notifications/message', async () => {
    workspace.write('.vscode/tools/broken.json', '{ "tools": [ { "name": "x" } ] }');
    const server = await connectServer(['--workspace', workspace.path, '--no-builtins'], { configHome: config.path });
    try {
      const messages: string[] = [];
      server.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        messages.push(String(notification.params.data));
      });
      await server.client.setLoggingLevel('warning');
      // broken.json has two problems: wait for what is asserted, not for a count of messages
      const problem = (message: string): boolean => /broken\.json:1:\d+: tool "x": /.test(message);
      const pending = (message: string): boolean => /team\.json is new and waits for approval.*\n {2}node .* approve --workspace/.test(message);
      const deadline = Date.now() + 5000;
      while (!(messages.some(problem) && messages.some(pending)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.ok(messages.some(problem), messages.join('\n'));
      assert.ok(messages.some(pending), messages.join('\n'));
      assert.match(server.stderr(), /broken\.json:1:\d+: tool "x"/);
    } finally {
      await server.close();
    }
  });

  test('stdout closed by the client while the server writes: it exits cleanly, no stack trace', async () => {
    const child = spawn(process.execPath, [SERVER_PATH, '--workspace', workspace.path], { stdio: ['pipe', 'pipe', 'pipe'], env: testServerEnv(config.path) });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdout.destroy();
    const request = (id: number, method: string, params: unknown) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
    child.stdin.write(request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
    for (let id = 2; id < 20; id++) {
      child.stdin.write(request(id, 'tools/list', {}));
    }
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))]);
    if (code === 'still running') {
      child.kill('SIGKILL');
    }
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /\n\s+at /, 'a stack trace was printed');
    assert.match(stderr, /shutting down \(stdout closed: EPIPE\)/);
  });
});
