/**
 * Hand-run: user-space instructions per call (valgrind's callgrind, every thread), which a shared
 * machine's load does not move, for builds of our server with and without the call history and
 * for server-filesystem. Each server starts under callgrind with instrumentation off, answers
 * `--warmup` 10 KB reads, then instrumentation is switched on (`callgrind_control -i on`) for `--calls`
 * reads and a pause (the history's batch write after the last answer), and the count is dumped.
 * Kernel work (the writes, the pipe, file system calls) is not in these counts: see
 * bench/call-cpu.mjs for all of it.
 *
 *   node bench/call-instructions.mjs [--calls 600] [--warmup 300] [--case read10k|lines50]
 *       [--build label=path/to/mcp-server-main.js ...] [--no-fs] [--keep DIR]
 *
 * `--keep DIR` keeps the dumps there, for `callgrind_annotate --inclusive=yes DIR/<server>/callgrind.out.*`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFixtures } from './fixtures.mjs';
import { builds as buildsGiven, flag, option } from './hand-run-args.mjs';
import { callOk, connect, disconnect } from './mcp-clients.mjs';

const root = new URL('..', import.meta.url).pathname;
const builds = buildsGiven({ label: 'ours', file: join(root, 'dist/mcp-server-main.js') });
const calls = Number(option('calls', '600'));
const warmup = Number(option('warmup', '300'));
const which = option('case', 'read10k');

const fx = createFixtures();
const out = option('keep', undefined) ?? mkdtempSync(join(tmpdir(), 'wt-callgrind-'));
const ours = which === 'read10k' ? { path: fx.smallFile } : { path: fx.largeFile, startLine: 1, endLine: 50 };
const theirs = which === 'read10k' ? { path: join(fx.repo, fx.smallFile) } : { path: join(fx.repo, fx.largeFile), head: 50 };
const servers = [
  ...builds.flatMap(({ label, file }) => [
    { id: label, args: [file, '--workspace', fx.repo], call: (client) => callOk(client, 'file-reader', ours) },
    { id: `${label}-off`, args: [file, '--workspace', fx.repo, '--no-history'], call: (client) => callOk(client, 'file-reader', ours) },
  ]),
  ...(flag('no-fs') ? [] : [{ id: 'fs', args: [join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), fx.repo], call: (client) => callOk(client, 'read_text_file', theirs) }]),
];
try {
  for (const server of servers) {
    const dumps = join(out, server.id);
    execFileSync('mkdir', ['-p', dumps]);
    const connection = await connect({
      id: server.id,
      label: server.id,
      command: 'valgrind',
      args: ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${dumps}/callgrind.out.%p`, '--quiet', process.execPath, ...server.args],
    });
    for (let i = 0; i < warmup; i++) {
      await server.call(connection.client);
    }
    const pid = String(connection.transport.pid);
    execFileSync('callgrind_control', ['-i', 'on', pid], { stdio: 'ignore' });
    for (let i = 0; i < calls; i++) {
      await server.call(connection.client);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    execFileSync('callgrind_control', ['-d', pid], { stdio: 'ignore' });
    await disconnect(connection);
    let total = 0;
    for (const file of readdirSync(dumps)) {
      // The dump taken while collecting: its totals line is every thread's instructions since -i on.
      const match = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dumps, file), 'utf8'));
      total = Math.max(total, Number(match?.[1] ?? 0));
    }
    process.stdout.write(`${which} ${server.id.padEnd(14)} ${(total / calls / 1000).toFixed(0)} K instructions a call\n`);
  }
} finally {
  rmSync(fx.root, { recursive: true, force: true });
  if (option('keep', undefined) === undefined) {
    rmSync(out, { recursive: true, force: true });
  }
}
