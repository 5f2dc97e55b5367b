/**
 * What the OS sandbox costs a shell tool (issue 34 item 5): a read-only shell tool running
 * `git log -1` on the same server build with the sandbox (the default, `--sandbox preferred`,
 * where it is available) and without it (`--sandbox off`), interleaved, as a ratio; and the first
 * call of such a tool on a fresh server, a host's pause after `tools/list` included (the server
 * starts its sandbox broker in the background once the tools are loaded, so the first call finds
 * it warm, or waits for what is left of its start).
 *
 * Part of `npm run bench` (bench/run.mjs); alone: `node bench/sandbox-bench.mjs [--quick]` prints
 * the medians and the ratios (after `npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { THINK_MS } from './cold-start.mjs';
import { callOk, connect, disconnect, time } from './mcp-clients.mjs';
import { fmt, ratio, summarize } from './stats.mjs';

/** The tool measured: read-only, so in the sandbox it writes nothing and has no network. */
const GIT_LOG = { name: 'bench-git-log', description: 'the last commit', tags: ['read'], handler: { type: 'shell', command: ['git', 'log', '-1', '--format=%H %s'] } };

/** Proves a server runs its shell tools sandboxed: a `read` tool's write is refused there. */
const PROOF = { name: 'bench-sandbox-proof', description: 'tries to write', tags: ['read'], handler: { type: 'shell', command: ['touch', 'sandbox-proof'] } };

/** A workspace (a git repository with one commit) whose one plugin file serves GIT_LOG (and PROOF). */
export function sandboxWorkspace(root) {
  const workspace = join(root, 'sandbox-ws');
  mkdirSync(join(workspace, '.vscode', 'tools'), { recursive: true });
  writeFileSync(join(workspace, '.vscode', 'tools', 'bench.json'), JSON.stringify({ name: 'bench-sandbox', tools: [GIT_LOG, PROOF] }));
  const git = (...args) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '--allow-empty', '-m', 'bench');
  return workspace;
}

/**
 * Records `sandbox.gitlog.on` / `.off` (a warm server's call, ms) and `sandbox.first.on` / `.off`
 * (spawn, handshake, tools/list, THINK_MS, then the first call: the call's ms). Throws when the
 * sandboxed server did not run the tool sandboxed (the sandbox is unavailable here): its numbers
 * would be the other's.
 */
export async function measureSandbox({ serverJs, workspace, record, warmups, rounds, coldRounds, measureInTurn, log = () => undefined }) {
  const spec = (id, sandbox) => ({ id, label: `ours, --sandbox ${sandbox}`, args: [serverJs, '--workspace', workspace, '--approve-existing', '--no-builtins', '--sandbox', sandbox] });
  const on = spec('sandboxOn', 'preferred');
  const off = spec('sandboxOff', 'off');
  log(`sandbox: first call on a fresh server, ${coldRounds} rounds`);
  for (let i = 0; i < coldRounds; i++) {
    for (const [key, server] of i % 2 === 0 ? [['on', on], ['off', off]] : [['off', off], ['on', on]]) {
      const connection = await connect(server);
      await connection.client.listTools();
      await new Promise((resolve) => setTimeout(resolve, THINK_MS));
      record(`sandbox.first.${key}`, await time(() => callOk(connection.client, GIT_LOG.name, {})));
      await disconnect(connection);
    }
  }
  log(`sandbox: ${GIT_LOG.handler.command.join(' ')} on warm servers, ${rounds} calls each`);
  const warm = { on: await connect(on), off: await connect(off) };
  try {
    const proof = await warm.on.client.callTool({ name: PROOF.name, arguments: {} });
    if (proof.isError !== true || !JSON.stringify(proof.content).includes('Read-only file system')) {
      throw new Error(`the sandboxed server did not sandbox (is the OS sandbox available here?): ${JSON.stringify(proof.content).slice(0, 300)}`);
    }
    await measureInTurn(
      [
        ['sandbox.gitlog.on', () => callOk(warm.on.client, GIT_LOG.name, {})],
        ['sandbox.gitlog.off', () => callOk(warm.off.client, GIT_LOG.name, {})],
      ],
      warmups,
      rounds,
    );
  } finally {
    await disconnect(warm.on);
    await disconnect(warm.off);
  }
}

/** The rows the report shows: [figure, ours key, limit key, limit name]. */
export const SANDBOX_ROWS = [
  ['read-only shell tool `git log -1`, sandboxed vs `--sandbox off` (ms)', 'sandbox.gitlog.on', 'sandbox.gitlog.off', 'not sandboxed'],
  [`first call of that tool on a fresh server, ${THINK_MS} ms after tools/list (ms)`, 'sandbox.first.on', 'sandbox.first.off', 'not sandboxed'],
];

async function main() {
  const quick = process.argv.includes('--quick');
  const root = mkdtempSync(join(tmpdir(), 'wt-bench-sandbox-'));
  const samples = new Map();
  const record = (key, value) => samples.set(key, [...(samples.get(key) ?? []), value]);
  const measureInTurn = async (cases, warmups, rounds) => {
    for (let i = 0; i < warmups; i++) {
      for (const [, operation] of cases) {
        await operation();
      }
    }
    for (let i = 0; i < rounds; i++) {
      for (const [key, operation] of i % 2 === 0 ? cases : [...cases].reverse()) {
        record(key, await time(operation));
      }
    }
  };
  try {
    const serverJs = join(new URL('..', import.meta.url).pathname, 'dist', 'mcp-server.js');
    await measureSandbox({ serverJs, workspace: sandboxWorkspace(root), record, warmups: quick ? 3 : 10, rounds: quick ? 15 : 60, coldRounds: quick ? 3 : 9, measureInTurn, log: (message) => process.stderr.write(`[bench] ${message}\n`) });
    for (const [figure, ours, limit] of SANDBOX_ROWS) {
      const a = summarize(samples.get(ours) ?? []);
      const b = summarize(samples.get(limit) ?? []);
      process.stdout.write(`${figure}: ${fmt(a.median)} vs ${fmt(b.median)} (${ratio(a.median, b.median)}); min-max ${fmt(a.min)}-${fmt(a.max)} vs ${fmt(b.min)}-${fmt(b.max)}\n`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main();
}
