/**
 * `node bench/render.mjs RESULTS.json [--out FILE]`: writes BENCHMARKS.md (or FILE) again from the
 * results a full `npm run bench -- --results RESULTS.json` kept: the same measurements, with the
 * current bench/notes.md. Measures nothing.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderReport } from './report.mjs';

// The report names the Node that renders it (bench/report.mjs, "Machine and versions"): render on
// the Node 22 that `npm run bench` measures on when the system node is older, as run.mjs does.
if (Number(process.versions.node.split('.')[0]) < 22) {
  const { nodeFor } = await import('../scripts/node-runtimes.mjs');
  process.exit(spawnSync(nodeFor(22), process.argv.slice(1), { stdio: 'inherit' }).status ?? 1);
}
const resultsFile = process.argv[2];
if (resultsFile === undefined) {
  throw new Error('usage: node bench/render.mjs RESULTS.json [--out FILE]');
}
const root = new URL('..', import.meta.url).pathname;
const outIndex = process.argv.indexOf('--out');
const outFile = outIndex === -1 ? join(root, 'BENCHMARKS.md') : process.argv[outIndex + 1];
const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
if (results.quick) {
  throw new Error(`${resultsFile} is from a --quick run: its figures are a smoke check, not a report`);
}
writeFileSync(outFile, renderReport(results, root));
process.stderr.write(`[bench] wrote ${outFile} from ${resultsFile}\n`);
