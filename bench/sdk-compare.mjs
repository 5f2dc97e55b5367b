/**
 * `node bench/sdk-compare.mjs BUNDLE [--iterations N]`: the start-up rows of `npm run bench` for one
 * production bundle only (spawn -> initialize answered, -> first tools/list, the first
 * tools/call after THINK_MS, and a warm 1,000-tool tools/list walk), with the v1 SDK client as
 * every host of today. Used to compare two builds of the server (e.g. before and after an SDK
 * upgrade) without the whole benchmark. Prints medians as JSON.
 */
import { rmSync, statSync } from 'node:fs';
import { coldStart } from './cold-start.mjs';
import { createFixtures } from './fixtures.mjs';
import { callOk, connect, disconnect, listAllTools, time } from './mcp-clients.mjs';

const bundle = process.argv[2];
if (bundle === undefined) {
  throw new Error('usage: node bench/sdk-compare.mjs BUNDLE [--iterations N]');
}
const iterationsIndex = process.argv.indexOf('--iterations');
const iterations = iterationsIndex === -1 ? 15 : Number(process.argv[iterationsIndex + 1]);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const fx = createFixtures();
try {
  const servers = {
    ours: { id: 'ours', args: [bundle, '--workspace', fx.repo] },
    plugins: { id: 'plugins', args: [bundle, '--workspace', fx.pluginWorkspace, '--approve-existing'] },
  };
  /** @type {Map<string, number[]>} */
  const samples = new Map();
  const record = (key, value) => samples.set(key, [...(samples.get(key) ?? []), value]);
  await coldStart(Object.values(servers), { ours: (client) => callOk(client, 'file-reader', { path: fx.smallFile }) }, { iterations, record });
  const connection = await connect(servers.plugins);
  await listAllTools(connection.client);
  for (let i = 0; i < iterations * 4; i++) {
    record('warm.list1000.plugins', await time(() => listAllTools(connection.client)));
  }
  await disconnect(connection);
  const result = { bundleBytes: statSync(bundle).size, node: process.version, iterations };
  for (const [key, values] of samples) {
    result[key] = Math.round(median(values.filter((value) => value !== undefined)) * 100) / 100;
  }
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  rmSync(fx.root, { recursive: true, force: true });
}
