/**
 * Hand-run: server CPU per 10 KB read (and per read of lines 1-50) for several builds of our
 * server side by side, servers taking turns in blocks (bench/call-cpu.mjs), so a change to the call
 * history can be compared with the build before it on the same stretch of a shared machine.
 *
 *   node bench/history-cost.mjs [--blocks 40] [--calls 50] [--warmup 120] [--cases read10k,lines50]
 *       [--build label=path/to/mcp-server.js ...] [--processes 1] [--no-fs]
 *
 * Each `--build` is served twice: with the call history (`label`) and `--no-history`
 * (`label-off`); without any, dist/mcp-server.js as `ours`. server-filesystem is served too unless
 * `--no-fs`. Prints, per case, each server's CPU per call over all recorded blocks, min-max of the
 * blocks, and every ratio to server-filesystem and to the same build's `--no-history`.
 *
 * `--processes N` serves each of them as N processes taking turns like the others, and pools
 * their blocks: two processes of one build measure up to 10% apart on this machine (memory
 * layout, when the JIT compiled what), as much as the history's whole cost, so a single pair
 * cannot settle a change of a few µs. More servers in turn means longer pauses between a
 * server's blocks, and colder caches: compare builds within one run, not across runs.
 */
import { join } from 'node:path';
import { callCpuInBlocks } from './call-cpu.mjs';
import { createFixtures } from './fixtures.mjs';
import { builds as buildsGiven, flag, option } from './hand-run-args.mjs';
import { callOk, connect, disconnect } from './mcp-clients.mjs';
import { summarize } from './stats.mjs';
import { rmSync } from 'node:fs';

/** Milliseconds as µs, one decimal: a call's CPU is ~0.1 ms. */
const micros = (ms) => (ms * 1000).toFixed(1);

const root = new URL('..', import.meta.url).pathname;
const builds = buildsGiven({ label: 'ours', file: join(root, 'dist/mcp-server.js') });
const blocks = Number(option('blocks', '40'));
const callsPerBlock = Number(option('calls', '50'));
// Blocks of warm-up, as `npm run bench` (cpuWarmupBlocks): V8 compiles for the first ~6,000 calls.
const warmupBlocks = Number(option('warmup', '120'));
const caseNames = option('cases', 'read10k,lines50').split(',');
const processes = Number(option('processes', '1'));
/** The server a process belongs to: `ours#2` is a process of `ours`. */
const serverOf = (id) => id.split('#')[0];
const processIds = (id) => (processes === 1 ? [id] : Array.from({ length: processes }, (_, index) => `${id}#${index + 1}`));

const fx = createFixtures();
const connections = {};
const samples = new Map();
try {
  for (const { label, file } of builds) {
    for (const id of processIds(label)) {
      connections[id] = await connect({ id, label: id, args: [file, '--workspace', fx.repo] });
    }
    for (const id of processIds(`${label}-off`)) {
      connections[id] = await connect({ id, label: id, args: [file, '--workspace', fx.repo, '--no-history'] });
    }
  }
  if (!flag('no-fs')) {
    for (const id of processIds('fs')) {
      connections[id] = await connect({ id, label: 'server-filesystem', args: [join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), fx.repo] });
    }
  }
  const small = { path: fx.smallFile };
  const lines = { path: fx.largeFile, startLine: 1, endLine: 50 };
  const argsOf = { read10k: [small, { path: join(fx.repo, fx.smallFile) }], lines50: [lines, { path: join(fx.repo, fx.largeFile), head: 50 }] };
  const cases = Object.fromEntries(caseNames.map((name) => {
    const [ours, theirs] = argsOf[name];
    return [name, Object.fromEntries(Object.entries(connections).map(([id, c]) => [id, serverOf(id) === 'fs' ? () => callOk(c.client, 'read_text_file', theirs) : () => callOk(c.client, 'file-reader', ours)]))];
  }));
  const record = (key, value) => samples.set(key, [...(samples.get(key) ?? []), value]);
  const totals = await callCpuInBlocks(connections, cases, { warmupBlocks, blocks, callsPerBlock, record });
  const servers = [...new Set(Object.keys(connections).map(serverOf))];
  for (const name of caseNames) {
    process.stdout.write(`\n${name}: server CPU per call (µs), ${blocks} blocks of ${callsPerBlock} after ${warmupBlocks}${processes === 1 ? '' : `, ${processes} processes a server, their blocks pooled`}\n`);
    const ids = (server) => Object.keys(connections).filter((id) => serverOf(id) === server);
    const blocksOf = (server) => ids(server).flatMap((id) => samples.get(`callcpu.${name}.${id}`) ?? []);
    const mean = (server) => ids(server).reduce((sum, id) => sum + totals[`${name}.${id}`], 0) / ids(server).length;
    const median = (server) => summarize(blocksOf(server)).median;
    for (const server of servers) {
      const s = summarize(blocksOf(server));
      const against = (other, label) =>
        servers.includes(other) ? `  ${label}: ${(s.median / median(other)).toFixed(2)}x median, ${(mean(server) / mean(other)).toFixed(2)}x mean` : '';
      process.stdout.write(`  ${server.padEnd(16)} median ${micros(s.median)} mean ${micros(mean(server))} (${micros(s.min)}-${micros(s.max)})${against('fs', 'vs fs')}${against(`${server}-off`, 'vs its --no-history')}\n`);
      if (processes > 1) {
        const each = ids(server).map((id) => micros(summarize(samples.get(`callcpu.${name}.${id}`) ?? []).median));
        process.stdout.write(`  ${''.padEnd(16)} medians of its processes: ${each.join(', ')}\n`);
      }
    }
  }
} finally {
  await Promise.all(Object.values(connections).map(disconnect));
  rmSync(fx.root, { recursive: true, force: true });
}
