/**
 * What a call costs the server, measured where a loaded 2-core machine cannot hide it: the CPU
 * the server process used (from /proc, including work done after the answer was sent, such as
 * writing the call history), calls per second with 1, 8 and 32 calls in flight, and the peak
 * memory of fresh servers answering 1 MB reads. Servers take turns round by round, so machine
 * noise falls on all of them alike.
 */
import { join } from 'node:path';
import { callOk, connect, disconnect, peakRssMiB, throughput } from './mcp-clients.mjs';
import { processCpuMs } from './process-cpu.mjs';

/**
 * How long a server is left alone after a round before its CPU is read: longer than the call
 * history's batch delay (50 ms) and its write, so what a round caused is counted in that round.
 */
export const SETTLE_MS = 250;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls per second and server CPU per call, `rounds` rounds of `calls` calls per width, every
 * server in turn (reversed on odd rounds). Records `tput.<width>.<id>` and `cpu.<width>.<id>`
 * (ms per call) for each round, and sums for the run-wide figure (`cpuTotal`).
 * @param {Record<string, { transport: { pid?: number | null } }>} c  connections by id
 * @param {Record<string, () => Promise<unknown>>} calls  one call per server id
 */
export async function callsInFlight(c, calls, { widths, rounds, callsPerRound, record, inTurn }) {
  const totals = {};
  for (const width of widths) {
    for (let round = 0; round < rounds; round++) {
      for (const [id, call] of inTurn(Object.entries(calls), round)) {
        const pid = c[id].transport.pid;
        await sleep(SETTLE_MS);
        const before = processCpuMs(pid);
        record(`tput.${width}.${id}`, await throughput(call, width, callsPerRound));
        await sleep(SETTLE_MS);
        const used = processCpuMs(pid) - before;
        record(`cpu.${width}.${id}`, used / callsPerRound);
        const total = (totals[`${width}.${id}`] ??= { ms: 0, calls: 0 });
        total.ms += used;
        total.calls += callsPerRound;
      }
    }
  }
  return Object.fromEntries(Object.entries(totals).map(([key, total]) => [key, total.ms / total.calls]));
}

/**
 * Peak RSS (VmHWM) of fresh servers after the same load of 1 MB reads: `rounds` rounds, each of
 * `callsPerRound` reads one at a time and as many with 8 in flight, servers in turn. Fresh
 * processes, so the peak is this load's and nothing measured before it.
 * @param {Record<string, import('./mcp-clients.mjs').ServerSpec>} specs  by id
 * @param {Record<string, (client: import('@modelcontextprotocol/sdk/client/index.js').Client) => Promise<unknown>>} reads
 */
export async function peakRssAfterLargeReads(specs, reads, { rounds, callsPerRound, inTurn }) {
  const connections = {};
  for (const [id, spec] of Object.entries(specs)) {
    connections[id] = await connect({ ...spec, id: `${spec.id}-rss` });
  }
  try {
    const calls = Object.fromEntries(Object.entries(reads).map(([id, read]) => [id, () => read(connections[id].client)]));
    for (let round = 0; round < rounds; round++) {
      for (const [, call] of inTurn(Object.entries(calls), round)) {
        await throughput(call, 1, callsPerRound);
        await throughput(call, 8, callsPerRound);
      }
    }
    // After a pause: what the history writes after the last answer is part of the load.
    await sleep(SETTLE_MS);
    return Object.fromEntries(Object.keys(specs).map((id) => [id, peakRssMiB(connections[id].transport.pid)]));
  } finally {
    await Promise.all(Object.values(connections).map(disconnect));
  }
}

/** The 1 MB read of each server the RSS figure compares. */
export function largeReads(fx) {
  const ours = (client) => callOk(client, 'file-reader', { path: fx.largeFile });
  return {
    ours,
    noHistory: ours,
    fs: (client) => callOk(client, 'read_text_file', { path: join(fx.repo, fx.largeFile) }),
  };
}
