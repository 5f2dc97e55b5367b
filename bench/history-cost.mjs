/**
 * Hand-run: server CPU per 10 KB read (and per read of lines 1-50) for several builds of our
 * server side by side, servers taking turns in blocks (bench/call-cpu.mjs), so a change to the call
 * history can be compared with the build before it on the same stretch of a shared machine.
 *
 *   node bench/history-cost.mjs [--blocks 40] [--calls 50] [--warmup 120] [--cases read10k,lines50]
 *       [--build label=path/to/mcp-server.js ...] [--no-fs]
 *
 * Each `--build` is served twice: with the call history (`label`) and `--no-history`
 * (`label-off`); without any, dist/mcp-server.js as `ours`. server-filesystem is served too unless
 * `--no-fs`. Prints, per case, each server's CPU per call over all recorded blocks, min-max of the
 * blocks, and every ratio to server-filesystem and to the same build's `--no-history`.
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

const fx = createFixtures();
const connections = {};
const samples = new Map();
try {
  for (const { label, file } of builds) {
    connections[label] = await connect({ id: label, label, args: [file, '--workspace', fx.repo] });
    connections[`${label}-off`] = await connect({ id: `${label}-off`, label: `${label}-off`, args: [file, '--workspace', fx.repo, '--no-history'] });
  }
  if (!flag('no-fs')) {
    connections.fs = await connect({ id: 'fs', label: 'server-filesystem', args: [join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), fx.repo] });
  }
  const small = { path: fx.smallFile };
  const lines = { path: fx.largeFile, startLine: 1, endLine: 50 };
  const argsOf = { read10k: [small, { path: join(fx.repo, fx.smallFile) }], lines50: [lines, { path: join(fx.repo, fx.largeFile), head: 50 }] };
  const cases = Object.fromEntries(caseNames.map((name) => {
    const [ours, theirs] = argsOf[name];
    return [name, Object.fromEntries(Object.entries(connections).map(([id, c]) => [id, id === 'fs' ? () => callOk(c.client, 'read_text_file', theirs) : () => callOk(c.client, 'file-reader', ours)]))];
  }));
  const record = (key, value) => samples.set(key, [...(samples.get(key) ?? []), value]);
  const totals = await callCpuInBlocks(connections, cases, { warmupBlocks, blocks, callsPerBlock, record });
  for (const name of caseNames) {
    process.stdout.write(`\n${name}: server CPU per call (µs), ${blocks} blocks of ${callsPerBlock} after ${warmupBlocks}\n`);
    const median = (id) => summarize(samples.get(`callcpu.${name}.${id}`) ?? []).median;
    for (const id of Object.keys(connections)) {
      const s = summarize(samples.get(`callcpu.${name}.${id}`) ?? []);
      const total = totals[`${name}.${id}`];
      const against = (other, label) =>
        totals[`${name}.${other}`] === undefined ? '' : `  ${label}: ${(s.median / median(other)).toFixed(2)}x median, ${(total / totals[`${name}.${other}`]).toFixed(2)}x mean`;
      process.stdout.write(`  ${id.padEnd(16)} median ${micros(s.median)} mean ${micros(total)} (${micros(s.min)}-${micros(s.max)})${against('fs', 'vs fs')}${against(`${id}-off`, 'vs its --no-history')}\n`);
    }
  }
} finally {
  await Promise.all(Object.values(connections).map(disconnect));
  rmSync(fx.root, { recursive: true, force: true });
}
