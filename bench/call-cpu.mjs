/**
 * What one call costs the server in CPU, measured so that a busy 2-core machine cannot tilt the
 * comparison: the servers take turns in short blocks of calls (reversed on odd blocks), so every
 * server sees the same stretch of the machine's load, block after block. The CPU is every thread
 * of each server process (bench/process-cpu.mjs, /proc schedstat): the call history's batch write
 * and a compaction count, whichever block they fall in. The first blocks warm the servers up
 * (V8 compiles the hot code, the first compaction happens) and are not recorded.
 */
import { processCpuMs } from './process-cpu.mjs';
import { SETTLE_MS } from './hot-path.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * For each case and server: records `callcpu.<case>.<id>` (ms of server CPU per call, one sample
 * per block) and returns `<case>.<id>` -> all recorded blocks' CPU over all their calls, read
 * SETTLE_MS after the last block (what the history writes after the last answer included).
 *
 * A block's sample is the server's CPU from the start of that block to the start of its next one
 * (after the last block: to SETTLE_MS after it), not only while its calls ran: what a block's calls
 * leave for later (the history's batch write, due up to 50 ms after the block's answers, while
 * other servers take their turn) is counted in the block that caused it. So the samples add up to
 * the total, and their median is as complete as their mean while a block hit by the machine's
 * noise moves it less.
 * @param {Record<string, { transport: { pid?: number | null } }>} connections  by server id
 * @param {Record<string, Record<string, () => Promise<unknown>>>} cases  case -> server id -> one call
 */
export async function callCpuInBlocks(connections, cases, { warmupBlocks, blocks, callsPerBlock, record }) {
  const totals = {};
  for (const [name, calls] of Object.entries(cases)) {
    const ids = Object.keys(calls);
    const cpu = () => Object.fromEntries(ids.map((id) => [id, processCpuMs(connections[id].transport.pid)]));
    for (let block = 0; block < warmupBlocks; block++) {
      for (const id of ids) {
        await run(calls[id], callsPerBlock);
      }
    }
    await sleep(SETTLE_MS);
    const start = cpu();
    /** Where each server's block that is not recorded yet began. */
    const blockStart = {};
    const endBlock = (id, now) => {
      if (blockStart[id] !== undefined) {
        record(`callcpu.${name}.${id}`, (now - blockStart[id]) / callsPerBlock);
      }
    };
    for (let block = 0; block < blocks; block++) {
      for (const id of block % 2 === 0 ? ids : [...ids].reverse()) {
        const now = processCpuMs(connections[id].transport.pid);
        endBlock(id, now);
        blockStart[id] = now;
        await run(calls[id], callsPerBlock);
      }
    }
    await sleep(SETTLE_MS);
    const end = cpu();
    for (const id of ids) {
      endBlock(id, end[id]);
      totals[`${name}.${id}`] = (end[id] - start[id]) / (blocks * callsPerBlock);
    }
  }
  return totals;
}

async function run(call, times) {
  for (let i = 0; i < times; i++) {
    await call();
  }
}

/** The median server CPU per call of a case and server over the recorded blocks, in µs (NaN when not measured). */
export function callCpuMicros(results, name, id) {
  const s = results.stats[`callcpu.${name}.${id}`];
  return s === undefined ? Number.NaN : s.median * 1000;
}
