/**
 * Hand-run: where a call's CPU goes in the server, by layer. Builds the server unminified with a
 * source map (`node esbuild.mjs --outdir <tmp>`), starts it under `node --cpu-prof`, answers
 * `--calls` sequential 10 KB reads from the SDK `Client` after `--warmup` calls and a 400 ms pause
 * (samples before the pause are left out: start-up and the JIT's warm-up), then closes it and
 * gives each sample of the main thread to the innermost frame of ours or the SDK's (Node's own
 * functions to the frame that called them), through the source map.
 *
 *   node bench/profile-calls.mjs [--calls 3000] [--warmup 500] [--no-history] [--interval 200]
 *       [--dist DIR]   (profile a build already made with `node esbuild.mjs --outdir DIR`)
 *       [--keep FILE]  (keep the profile, and the bundle's source map as FILE.map)
 *       [--functions [--top 40]]  (also the functions that took most, the first `--top` of them)
 *
 * The main thread only: libuv's pool (the history's writes, file reads) and the kernel's work for
 * other threads are not in a CPU profile; bench/call-cpu.mjs counts every thread.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFixtures } from './fixtures.mjs';
import { flag, option } from './hand-run-args.mjs';
import { callOk, connect, disconnect } from './mcp-clients.mjs';

const root = new URL('..', import.meta.url).pathname;
const calls = Number(option('calls', '3000'));
const warmup = Number(option('warmup', '500'));
const interval = option('interval', '200');
const PAUSE_MS = 400;

const work = mkdtempSync(join(tmpdir(), 'wt-profile-'));
const dist = option('dist', undefined) ?? join(work, 'dist');
if (option('dist', undefined) === undefined) {
  execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--outdir', dist], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
const profiles = join(work, 'profiles');
const fx = createFixtures();
try {
  const args = [`--cpu-prof`, `--cpu-prof-dir=${profiles}`, `--cpu-prof-interval=${interval}`, join(dist, 'mcp-server-main.js'), '--workspace', fx.repo, ...(flag('no-history') ? ['--no-history'] : [])];
  const connection = await connect({ id: 'ours', label: 'ours', args });
  const read = () => callOk(connection.client, 'file-reader', { path: fx.smallFile });
  for (let i = 0; i < warmup; i++) {
    await read();
  }
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  for (let i = 0; i < calls; i++) {
    await read();
  }
  // The last batch of history records is written before the server exits (it flushes on close).
  await disconnect(connection);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const file = readdirSync(profiles).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) {
    throw new Error(`no profile in ${profiles}`);
  }
  const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8'));
  const keep = option('keep', undefined);
  if (keep !== undefined) {
    copyFileSync(join(profiles, file), keep);
    copyFileSync(join(dist, 'mcp-server-main.js.map'), `${keep}.map`);
  }
  const map = new SourceMap(JSON.parse(readFileSync(join(dist, 'mcp-server-main.js.map'), 'utf8')));
  report(layersOf(profile, map, join(dist, 'mcp-server-main.js')), calls);
} finally {
  rmSync(fx.root, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}

/** The source file a frame of the bundle comes from, or undefined for Node's own and V8's. */
function sourceOf(frame, map, bundle) {
  if (!frame.url.endsWith(bundle)) {
    return undefined;
  }
  const entry = map.findEntry(frame.lineNumber, frame.columnNumber);
  return entry?.originalSource ?? 'bundle';
}

/** The layer a source file belongs to (the rows of the table). */
function layerOf(source) {
  if (source.includes('/node_modules/')) {
    if (source.includes('/zod/')) return 'SDK: zod schemas';
    if (source.includes('/@modelcontextprotocol/') && source.includes('stdio')) return 'SDK: stdio transport (serializing, writing stdout)';
    if (source.includes('/@modelcontextprotocol/')) return 'SDK: dispatch (protocol, codecs)';
    return 'other bundled modules';
  }
  if (source.includes('/src/core/history/')) return 'ours: call history';
  if (source.includes('/src/mcp/')) return 'ours: MCP layer (wire, hot lane, handlers)';
  return 'ours: registry, file-reader, the file read';
}

/**
 * Milliseconds per layer over the samples after the warm-up's pause (the longest idle stretch),
 * each sample given to the innermost frame from the bundle on its stack.
 */
function layersOf(profile, map, bundle) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parents.set(child, node.id);
    }
  }
  const layerCache = new Map();
  const layerOfNode = (id) => {
    if (layerCache.has(id)) return layerCache.get(id);
    const node = nodes.get(id);
    const name = node.callFrame.functionName;
    let layer;
    if (name === '(garbage collector)') layer = 'V8: garbage collector';
    else if (name === '(idle)') layer = 'idle';
    else if (name === '(program)') layer = 'V8/Node: (program)';
    else {
      const source = sourceOf(node.callFrame, map, bundle);
      if (source !== undefined) layer = layerOf(source);
      else {
        const parent = parents.get(id);
        layer = parent === undefined || nodes.get(parent).callFrame.functionName === '(root)' ? 'Node internals (promise jobs, libuv callbacks)' : layerOfNode(parent);
      }
    }
    layerCache.set(id, layer);
    return layer;
  };
  // The measured window starts after the longest run of idle samples (the pause).
  const idle = profile.samples.map((id) => nodes.get(id).callFrame.functionName === '(idle)');
  let best = { end: 0, ms: 0 };
  for (let i = 0, start = 0, ms = 0; i < idle.length; i++) {
    if (idle[i]) {
      if (ms === 0) start = i;
      ms += profile.timeDeltas[i] / 1000;
      if (ms > best.ms) best = { end: i + 1, ms, start };
    } else {
      ms = 0;
    }
  }
  const totals = new Map();
  const functions = new Map();
  for (let i = best.end; i < profile.samples.length; i++) {
    const layer = layerOfNode(profile.samples[i]);
    // The sample's time is the gap to the next one.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    totals.set(layer, (totals.get(layer) ?? 0) + ms);
    const frame = nodes.get(profile.samples[i]).callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${(sourceOf(frame, map, bundle) ?? frame.url).replace(/^.*node_modules\//, '')}`;
    functions.set(key, (functions.get(key) ?? 0) + ms);
  }
  if (flag('functions')) {
    for (const [key, ms] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(option("top", "40")))) {
      process.stdout.write(`${ms.toFixed(1).padStart(8)} ms  ${key}\n`);
    }
  }
  return totals;
}

function report(totals, count) {
  const busy = [...totals].filter(([layer]) => layer !== 'idle').reduce((sum, [, ms]) => sum + ms, 0);
  process.stdout.write(`main thread, ${count} calls after the warm-up: ${busy.toFixed(0)} ms busy, ${((busy / count) * 1000).toFixed(1)} us a call\n`);
  process.stdout.write('| layer | ms | us a call | share of busy |\n|---|---|---|---|\n');
  for (const [layer, ms] of [...totals].filter(([name]) => name !== 'idle').sort((a, b) => b[1] - a[1])) {
    process.stdout.write(`| ${layer} | ${ms.toFixed(0)} | ${((ms / count) * 1000).toFixed(1)} | ${((100 * ms) / busy).toFixed(1)}% |\n`);
  }
}
