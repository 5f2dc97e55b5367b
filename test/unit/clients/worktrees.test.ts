/**
 * Tools follow the session's folder: a repository with two linked worktrees, each with its own
 * plugin file and its own changes, and a server started in each the way Claude Code and Codex
 * start a project's server: the command line as `init` wrote it into the committed `.mcp.json` and
 * `.codex/config.toml`, run in the folder the session works in (a worktree's root for Claude
 * Code, a subfolder of the other worktree for Codex). Each answers about its own tree: git state,
 * files, plugin tools, approvals, and the folder every result names.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseToml } from '../../../src/core/client-config/codex-toml';
import { runCli } from '../helpers/cli';
import type { TempGitRepo } from '../helpers/git-repo';
import { makeGitRepo } from '../helpers/git-repo';

/** A plugin file whose one tool says which tree it comes from. */
const plugin = (tool: string, says: string): string =>
  JSON.stringify({ tools: [{ name: tool, description: `says ${says}`, tags: ['read'], handler: { type: 'shell', command: ['node', '-e', `process.stdout.write(${JSON.stringify(says)})`] } }] });

let repo: TempGitRepo;
let configHome: string;
let treeA: string;
let treeB: string;
/** The environment a client gives its servers: PATH with this Node first, the approvals of this test. */
let env: Record<string, string>;

before(async () => {
  repo = makeGitRepo('wt-worktrees-');
  configHome = mkdtempSync(path.join(tmpdir(), 'wt-worktrees-config-'));
  env = {
    ...(process.env as Record<string, string>),
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env['PATH'] ?? ''}`,
    XDG_CONFIG_HOME: configHome,
    XDG_STATE_HOME: configHome,
  };
  repo.commit('the team tools', { '.vscode/tools/team.json': plugin('team-tool', 'main tools'), 'src/keep.txt': 'kept\n', 'README.md': '# repo\n' });
  // The team commits its agents' files: the path form here (--local), as npx would need the published package.
  const wrote = await runCli(['init', '--claude', '--codex', '--local'], { configHome, cwd: repo.path, env });
  assert.equal(wrote.code, 0, wrote.stderr);
  repo.git('add', '.mcp.json', '.codex/config.toml', '.claude/settings.json');
  repo.git('commit', '-q', '-m', 'agents');
  // Approved in the main checkout, as a person does once.
  assert.equal((await runCli(['approve', '--yes'], { configHome, cwd: repo.path, env })).code, 0);
  treeA = path.join(path.dirname(repo.path), `${path.basename(repo.path)}-a`);
  treeB = path.join(path.dirname(repo.path), `${path.basename(repo.path)}-b`);
  repo.git('worktree', 'add', '-q', '-b', 'feature-a', treeA);
  repo.git('worktree', 'add', '-q', '-b', 'feature-b', treeB);
  // Tree A has a plugin file of its own and a change of its own; tree B keeps the approved plugin file and changes another file.
  writeIn(treeA, '.vscode/tools/team.json', plugin('team-tool', 'tree A tools'));
  writeIn(treeA, 'only-in-a.txt', 'A was here\n');
  writeIn(treeB, 'README.md', '# repo, changed in B\n');
});

after(() => {
  repo?.cleanup();
  for (const dir of [treeA, treeB, configHome]) {
    if (dir !== undefined) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

function writeIn(root: string, relative: string, content: string): void {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, content);
}

/** The stdio command an agent's committed file says, for the server named workspace-tools. */
function claudeCommand(root: string): { command: string; args: string[] } {
  const mcp = JSON.parse(readFileSync(path.join(root, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> };
  const entry = mcp.mcpServers['workspace-tools'];
  assert.ok(entry !== undefined);
  return entry;
}

function codexCommand(root: string): { command: string; args: string[] } {
  const config = parseToml(readFileSync(path.join(root, '.codex/config.toml'), 'utf8')) as { mcp_servers: Record<string, { command: string; args: string[] }> };
  const entry = config.mcp_servers['workspace-tools'];
  assert.ok(entry !== undefined);
  return { command: entry.command, args: [...entry.args] };
}

/** Starts the server as an agent does: that command line, in the session's folder. */
async function startAs(line: { command: string; args: string[] }, cwd: string): Promise<Client> {
  const client = new Client({ name: 'worktree-test', version: '1' });
  await client.connect(new StdioClientTransport({ command: line.command, args: line.args, cwd, env, stderr: 'ignore' }));
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string => (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');

describe('a server started in each linked worktree answers about its own tree', () => {
  test('the committed files start "--workspace ." with no path of the worktree in them', () => {
    for (const root of [treeA, treeB]) {
      assert.deepEqual(claudeCommand(root).args.slice(-2), ['--workspace', '.']);
      assert.deepEqual(codexCommand(root).args.slice(-2), ['--workspace', '.']);
      assert.ok(!JSON.stringify(claudeCommand(root)).includes(root));
    }
  });

  test('Claude Code in tree A, Codex in a subfolder of tree B: git, files, plugin tools, approvals and the folder each result names are their own tree\'s', async () => {
    const inA = await startAs(claudeCommand(treeA), treeA);
    const inB = await startAs(codexCommand(treeB), path.join(treeB, 'src'));
    try {
      // git: each sees its own branch and its own change.
      const statusA = await inA.callTool({ name: 'git-status', arguments: {} });
      const statusB = await inB.callTool({ name: 'git-status', arguments: {} });
      const dataA = statusA.structuredContent as { branch: string; entries: Array<{ path: string }>; workspaceFolder: string };
      const dataB = statusB.structuredContent as { branch: string; entries: Array<{ path: string }>; workspaceFolder: string };
      assert.deepEqual([dataA.branch, dataA.workspaceFolder], ['feature-a', treeA]);
      assert.deepEqual([dataB.branch, dataB.workspaceFolder], ['feature-b', treeB], 'started in src/, it serves the whole worktree');
      const changed = (data: { entries: Array<{ path: string }> }): string[] => data.entries.map((entry) => entry.path).sort();
      assert.deepEqual(changed(dataA), ['.vscode/tools/team.json', 'only-in-a.txt']);
      assert.deepEqual(changed(dataB), ['README.md']);

      // files: each reads its own checkout.
      assert.equal(textOf(await inA.callTool({ name: 'file-reader', arguments: { path: 'only-in-a.txt' } })).includes('A was here'), true);
      const missing = await inB.callTool({ name: 'file-reader', arguments: { path: 'only-in-a.txt' } });
      assert.equal(missing.isError, true, textOf(missing));
      assert.match(textOf(await inB.callTool({ name: 'file-reader', arguments: { path: 'README.md' } })), /changed in B/);

      // plugin files and approvals: B's file is the one approved in the main checkout (same content): served.
      const fromB = await inB.callTool({ name: 'team-tool', arguments: {} });
      assert.deepEqual([fromB.isError, textOf(fromB), fromB._meta], [false, 'main tools', { 'workspace-tools/folder': treeB }]);
      // A's differs: the main checkout's approval does not cover it; it waits until approved in A.
      const waiting = await inA.callTool({ name: 'team-tool', arguments: {} });
      assert.equal(waiting.isError, true);
      assert.match(textOf(waiting), /waits for the user's approval/);
      const approved = await runCli(['approve', '--yes'], { configHome, cwd: treeA, env });
      assert.equal(approved.code, 0, approved.stderr);
      assert.match(approved.stdout, /^Approved: \.vscode\/tools\/team\.json$/m, 'approved where it is: in tree A');
      const fromA = await eventually(async () => {
        const result = await inA.callTool({ name: 'team-tool', arguments: {} });
        return result.isError === true ? undefined : result;
      });
      assert.deepEqual([textOf(fromA), fromA._meta], ['tree A tools', { 'workspace-tools/folder': treeA }]);
      // B still runs its own (main's) tool: A's approval covers A's content only.
      assert.equal(textOf(await inB.callTool({ name: 'team-tool', arguments: {} })), 'main tools');
    } finally {
      await inA.close();
      await inB.close();
    }
  });
});

/** The value `probe` gives once it gives one (the server reloads on an approval within moments). */
async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`nothing after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
