/**
 * Hand-run: which threads of the server spend a 10 KB read's CPU, round by round: the main thread,
 * V8's helper threads (named `node`: the optimizing compiler, the collector's concurrent work) and
 * libuv's pool (`libuv-worker`: thread-pool file system calls, the history's writes). Each build is
 * served with the call history and with `--no-history`, taking turns in rounds of `--calls`
 * sequential reads, and every thread's CPU is read from /proc (Linux only). The first `--skip`
 * rounds are left out of the totals: the JIT keeps compiling for the first ~6,000 calls, on the
 * helper threads, which is what `--verbose` shows round by round.
 *
 *   node bench/thread-split.mjs [--rounds 40] [--skip 20] [--calls 300] [--verbose]
 *       [--build label=path/to/mcp-server.js ...] [--node-flags "--no-concurrent-recompilation"]
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createFixtures } from './fixtures.mjs';
import { builds as buildsGiven, flag, option } from './hand-run-args.mjs';
import { callOk, connect, disconnect } from './mcp-clients.mjs';
import { threadCpuMs } from './process-cpu.mjs';

const root = new URL('..', import.meta.url).pathname;
const builds = buildsGiven({ label: 'ours', file: join(root, 'dist/mcp-server.js') });
const rounds = Number(option('rounds', '40'));
const skip = Number(option('skip', '20'));
const calls = Number(option('calls', '300'));
const nodeFlags = (option('node-flags', '') ?? '').split(' ').filter((word) => word !== '');
/** After a round, for the history's last batch (50 ms) to be written within it. */
const SETTLE_MS = 150;

/** Milliseconds of CPU by thread kind (bench/process-cpu.mjs); none off Linux. */
const threadCpu = (pid) => threadCpuMs(pid) ?? {};

const fx = createFixtures();
const servers = {};
try {
  for (const { label, file } of builds) {
    servers[label] = await connect({ id: label, label, args: [...nodeFlags, file, '--workspace', fx.repo] });
    servers[`${label}-off`] = await connect({ id: `${label}-off`, label: `${label}-off`, args: [...nodeFlags, file, '--workspace', fx.repo, '--no-history'] });
  }
  const ids = Object.keys(servers);
  const totals = Object.fromEntries(ids.map((id) => [id, {}]));
  for (let round = 0; round < rounds; round++) {
    for (const id of round % 2 === 0 ? ids : [...ids].reverse()) {
      const { client, transport } = servers[id];
      const before = threadCpu(transport.pid);
      for (let call = 0; call < calls; call++) {
        await callOk(client, 'file-reader', { path: fx.smallFile });
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const after = threadCpu(transport.pid);
      const spent = Object.fromEntries(Object.keys(after).map((kind) => [kind, after[kind] - (before[kind] ?? 0)]));
      if (flag('verbose')) {
        process.stdout.write(`round ${round} ${id}: ${line(spent, calls)}\n`);
      }
      if (round >= skip) {
        for (const [kind, ms] of Object.entries(spent)) {
          totals[id][kind] = (totals[id][kind] ?? 0) + ms;
        }
      }
    }
  }
  process.stdout.write(`\nCPU a call by thread, rounds ${skip}-${rounds - 1} of ${calls} 10 KB reads:\n`);
  for (const id of ids) {
    process.stdout.write(`  ${id.padEnd(16)} ${line(totals[id], (rounds - skip) * calls)}\n`);
  }
} finally {
  await Promise.all(Object.values(servers).map(disconnect));
  rmSync(fx.root, { recursive: true, force: true });
}

/** `main 64.4 µs  node 5.0 µs  …  total 69.4 µs` for `byKind` milliseconds over `count` calls. */
function line(byKind, count) {
  const micros = (ms) => `${((ms * 1000) / count).toFixed(1)} µs`;
  const total = Object.values(byKind).reduce((sum, ms) => sum + ms, 0);
  return `${Object.entries(byKind).filter(([, ms]) => ms > 0).map(([kind, ms]) => `${kind} ${micros(ms)}`).join('  ')}  total ${micros(total)}`;
}
