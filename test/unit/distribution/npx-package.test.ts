/**
 * The server as its users install it: `npm run package`'s tarball published to a real registry
 * (Verdaccio on 127.0.0.1, no uplinks), then `npx -y workspace-tools-mcp@<version>` from an empty
 * folder with an empty npm cache: --help, every subcommand, the SDK client talking MCP to the
 * npx-started server, `init` writing portable client files, and Claude Code connecting to it.
 * The Node running this file is the one npx runs the server on (first on PATH).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { version } from '../../../package.json';
import { claudeHome, runClaude } from '../helpers/claude-code';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import type { TestRegistry } from '../helpers/registry';
import { startRegistry, withoutNpmSettings } from '../helpers/registry';

const ROOT = path.resolve(__dirname, '../../../..');
const PACKAGE = `workspace-tools-mcp@${version}`;

const PLUGIN = JSON.stringify({
  tools: [
    {
      name: 'say',
      description: 'prints its word',
      tags: ['read'],
      inputSchema: { type: 'object', properties: { word: { type: 'string', default: 'hello' } } },
      handler: { type: 'shell', command: ['node', '-e', 'process.stdout.write("said " + process.argv[1])', '{{word}}'] },
      tests: [{ name: 'says its word', input: { word: 'hi' }, expect: { outputContains: 'said hi' } }],
    },
    { name: 'double', description: 'doubles n, in TypeScript', inputSchema: { type: 'object', properties: { n: { type: 'number' } } }, handler: { type: 'code', module: 'tools/double.ts' } },
  ],
});

let tmp: TempDir;
let registry: TestRegistry;
/** The empty folder every npx runs in, a git repository with the plugin file. */
let project: string;
let npmCache: string;
let env: Record<string, string>;

/** Runs `npx -y workspace-tools-mcp@<version> ...args` in the project folder. */
function npx(args: readonly string[], input = ''): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('npx', ['-y', PACKAGE, ...args], { cwd: project, env, input, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

before(async () => {
  tmp = makeTempDir('wt-npx-');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/package.mjs'), '--npm', '--out', path.join(tmp.path, 'pack')], { cwd: ROOT, env: withoutNpmSettings(), stdio: 'ignore' });
  registry = await startRegistry(path.join(tmp.path, 'registry'));
  await registry.publish(path.join(tmp.path, 'pack', `workspace-tools-mcp-${version}.tgz`));
  project = path.join(tmp.path, 'project');
  tmp.write('project/.vscode/tools/team.json', PLUGIN);
  tmp.write('project/tools/double.ts', 'export default (input: { n: number }): string => `${input.n * 2}`;\n');
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
  npmCache = path.join(tmp.path, 'npm-cache');
  const userconfig = path.join(tmp.path, 'empty.npmrc');
  writeFileSync(userconfig, '');
  env = {
    ...withoutNpmSettings(),
    // npx, and the server's #!/usr/bin/env node, run on the Node under test
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env['PATH'] ?? ''}`,
    npm_config_registry: registry.url,
    npm_config_cache: npmCache,
    npm_config_userconfig: userconfig,
    npm_config_update_notifier: 'false',
    XDG_CONFIG_HOME: path.join(tmp.path, 'config'),
    XDG_STATE_HOME: path.join(tmp.path, 'state'),
    // The bin's compile cache (Linux: $XDG_CACHE_HOME/workspace-tools/node-compile-cache).
    XDG_CACHE_HOME: path.join(tmp.path, 'cache'),
  };
  delete env['NODE_COMPILE_CACHE'];
  delete env['NODE_DISABLE_COMPILE_CACHE'];
});

after(async () => {
  await registry?.stop();
  tmp?.cleanup();
});

describe('npx -y workspace-tools-mcp@<version>, from a registry', () => {
  test('the tarball: the bin, everything bundled, the sandbox broker and its programs, its README and the license, Node >=22.14, under 4 MiB unpacked', () => {
    const unpacked = path.join(tmp.path, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', path.join(tmp.path, 'pack', `workspace-tools-mcp-${version}.tgz`), '-C', unpacked]);
    const pkg = path.join(unpacked, 'package');
    const files = execFileSync('find', ['.', '-type', 'f'], { cwd: pkg, encoding: 'utf8' }).trim().split('\n').sort();
    assert.deepEqual(files, [
      './LICENSE',
      './README.md',
      './dist/THIRD-PARTY-NOTICES.txt',
      './dist/code-runner.js',
      './dist/mcp-server-main.js',
      './dist/mcp-server.js',
      './dist/plugin-file-validator.js',
      './dist/re2js.js',
      './dist/sandbox-broker.mjs',
      './dist/toml-patch.js',
      './dist/vendor/java-proxy-agent/srt-proxy-agent.jar',
      './dist/vendor/seccomp/arm64/apply-seccomp',
      './dist/vendor/seccomp/x64/apply-seccomp',
      './package.json',
    ]);
    // The seccomp loader must stay executable through npm's tarball.
    assert.ok((statSync(path.join(pkg, 'dist/vendor/seccomp/x64/apply-seccomp')).mode & 0o111) !== 0, 'apply-seccomp is executable');
    const notices = readFileSync(path.join(pkg, 'dist/THIRD-PARTY-NOTICES.txt'), 'utf8');
    for (const bundled of ['@modelcontextprotocol/server 2.4.0 (Apache-2.0)', 'ajv ', 'zod ', 're2js ', 'jsonc-parser ', 'fast-uri ', '@anthropic-ai/sandbox-runtime 0.0.83 (Apache-2.0)', 'node-forge ', '@decimalturn/toml-patch ']) {
      assert.match(notices, new RegExp(`^${bundled.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'), `the notices name ${bundled}`);
    }
    assert.match(notices, /Apache License\s+Version 2\.0/, 'the license text itself, not only its name');
    const manifest = JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual([manifest['name'], manifest['version'], manifest['bin'], manifest['engines'], manifest['license']], ['workspace-tools-mcp', version, { 'workspace-tools-mcp': 'dist/mcp-server.js' }, { node: '>=22.14.0' }, 'MIT']);
    assert.equal(manifest['dependencies'], undefined, 'no runtime dependency');
    assert.match(readFileSync(path.join(pkg, 'dist/mcp-server.js'), 'utf8'), /^#!\/usr\/bin\/env node\n/);
    const bytes = files.reduce((sum, file) => sum + statSync(path.join(pkg, file)).size, 0);
    assert.ok(bytes < 4 * 1024 * 1024, `${bytes} bytes unpacked`);
  });

  test('--help and --version from an empty folder with an empty npm cache; nothing but the package is installed', () => {
    assert.equal(existsSync(npmCache), false, 'the npm cache starts empty');
    const help = npx(['--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage: workspace-tools-mcp \[COMMAND\]/);
    assert.match(help.stdout, /init {7}set up agents: --claude/);
    assert.equal(npx(['--version']).stdout.trim(), version);
    const [installation] = readdirSync(path.join(npmCache, '_npx'));
    const modules = readdirSync(path.join(npmCache, '_npx', installation ?? '', 'node_modules')).filter((name) => !name.startsWith('.'));
    assert.deepEqual(modules, ['workspace-tools-mcp'], 'everything is bundled: no runtime dependency is fetched');
  });

  test('the compile cache survives npx runs: one entry for the server bundle, written by the first run and reused (not rewritten) by later ones', () => {
    const cacheDir = path.join(tmp.path, 'cache', 'workspace-tools', 'node-compile-cache');
    assert.equal(npx(['--version']).status, 0);
    const bundleEntries = (): Array<{ file: string; mtimeMs: number }> =>
      readdirSync(cacheDir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name))
        .filter((file) => statSync(file).size > 100_000)
        .map((file) => ({ file, mtimeMs: statSync(file).mtimeMs }));
    const first = bundleEntries();
    assert.equal(first.length, 1, `one cache entry for the server bundle in ${cacheDir}`);
    assert.equal(npx(['--version']).status, 0);
    assert.deepEqual(bundleEntries(), first, 'the second npx run used the entry as it was');
  });

  test('every subcommand: approve, check, list, call (shell, TypeScript code, dry run), test, history', () => {
    const pending = npx(['approve', '--list']);
    assert.match(pending.stdout, /team\.json/);
    assert.match(pending.stdout, /new/);
    assert.equal(npx(['approve', '--yes']).status, 0);
    const check = npx(['check']);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    const listed = JSON.parse(npx(['list', '--json']).stdout) as Array<{ name: string; state: string }>;
    assert.deepEqual(['say', 'double', 'git-status'].map((name) => listed.find((tool) => tool.name === name)?.state), ['active', 'active', 'active']);
    assert.equal(npx(['call', 'say', '{"word":"npx"}']).stdout.trim(), 'said npx');
    // The shell tool ran in the OS sandbox, hosted by the broker the package ships (issue 34).
    assert.match(npx(['history', '--limit', '1']).stdout, /say .*\n.*\n {4}sandboxed: writes: only its private temporary folder; network: none/);
    assert.equal(npx(['call', 'double', '{"n":21}']).stdout.trim(), '42', 'types stripped by the Node that runs the package');
    assert.match(npx(['call', 'say', '{"word":"x"}', '--dry-run']).stdout, /^say would run:\n  program: node\n  arg 1: -e\n/);
    const tests = npx(['test']);
    assert.equal(tests.status, 0, tests.stdout + tests.stderr);
    assert.match(tests.stdout, /1 passed, 0 failed/);
    const history = JSON.parse(npx(['history', '--json']).stdout) as Array<{ tool: string }>;
    assert.ok(history.some((call) => call.tool === 'double'), JSON.stringify(history));
  });

  test('serves MCP on stdio: the SDK client lists and calls the tools of the npx-started server', async () => {
    const transport = new StdioClientTransport({ command: 'npx', args: ['-y', PACKAGE, '--workspace', project], cwd: project, env, stderr: 'pipe' });
    const client = new Client({ name: 'npx-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      assert.deepEqual([client.getServerVersion()?.name, client.getServerVersion()?.version], ['workspace-tools', version]);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(['git-status', 'say', 'double'].every((name) => names.includes(name)), names.join(', '));
      const result = await client.callTool({ name: 'double', arguments: { n: 4 } });
      assert.deepEqual(result.content, [{ type: 'text', text: '8' }]);
    } finally {
      await client.close();
    }
  });

  test('init --all: every agent\'s project file, portable (npx of this version, no path of this machine), the TOML one too', () => {
    const run = npx(['init', '--all']);
    assert.equal(run.status, 0, run.stderr);
    const files = ['.mcp.json', '.cursor/mcp.json', '.codex/config.toml', '.gemini/settings.json', '.zed/settings.json', '.claude/settings.json'].map((file) => readFileSync(path.join(project, file), 'utf8'));
    assert.match(files[2] ?? '', new RegExp(`^\\[mcp_servers\\.workspace-tools\\]\ncommand = "npx"\nargs = \\["-y", "${PACKAGE.replace(/\./g, '\\.')}", "--workspace", "\\."\\]\n$`));
    assert.doesNotMatch(run.stdout + run.stderr, /NODE_OPTIONS|disable-sigusr1/);
    assert.match(npx(['init', '--all']).stdout, /Already up to date: \.codex\/config\.toml/);
    for (const text of files) {
      assert.ok(!text.includes(tmp.path) && !text.includes(ROOT) && !text.includes(npmCache), `no path of this machine in:\n${text}`);
    }
    const [claude] = files;
    const mcpJson = JSON.parse(claude ?? '') as { mcpServers: Record<string, unknown> };
    assert.deepEqual(mcpJson.mcpServers['workspace-tools'], { type: 'stdio', command: 'npx', args: ['-y', PACKAGE, '--workspace', '.'] });
    assert.match(run.stdout, new RegExp(`npx -y ${PACKAGE.replace(/\./g, '\\.')} approve --workspace`));
  });

  test('Claude Code connects: after claude mcp add ... -- npx -y <package>, and from the .mcp.json init wrote', () => {
    const home = claudeHome(tmp.path);
    const options = { cwd: project, home, env };
    const added = runClaude(['mcp', 'add', 'wt-npx', '--', 'npx', '-y', PACKAGE, '--workspace', '.'], options);
    assert.equal(added.status, 0, added.stdout + added.stderr);
    // What a person answers when Claude Code first asks to use the project's .mcp.json servers,
    // as a user setting (Claude Code does not let a project's own files approve its servers).
    mkdirSync(path.join(home, '.claude'), { recursive: true });
    writeFileSync(path.join(home, '.claude/settings.json'), JSON.stringify({ enableAllProjectMcpServers: true }));
    const listed = runClaude(['mcp', 'list'], options);
    assert.equal(listed.status, 0, listed.stdout + listed.stderr);
    assert.match(listed.stdout, new RegExp(`wt-npx: npx -y ${PACKAGE.replace(/\./g, '\\.')} --workspace \\. - ✔ Connected`), listed.stdout);
    assert.match(listed.stdout, new RegExp(`workspace-tools: npx -y ${PACKAGE.replace(/\./g, '\\.')} --workspace \\. - ✔ Connected`), listed.stdout);
  });
});
