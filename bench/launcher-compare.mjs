/**
 * `node bench/launcher-compare.mjs [--rounds N] [--node PATH]...`: is the compile-cache launcher
 * (dist/mcp-server.js, which loads dist/mcp-server-main.js) worth a second file? Interleaved, one
 * fresh process per variant per round, on every Node given (default: the one running this):
 *  - `direct`: `node dist/mcp-server-main.js` (the bundle as the bin was before the launcher);
 *  - `launcher-warm`: `node dist/mcp-server.js` with a cache the earlier rounds wrote (every start
 *    but the first);
 *  - `launcher-cold`: `node dist/mcp-server.js` with an empty cache (the first start, which also
 *    writes the cache).
 * Each variant gets its own XDG_CACHE_HOME (where the launcher keeps its cache on Linux) and
 * TMPDIR, and NODE_COMPILE_CACHE unset. Measured: spawn -> `initialize` answered (wall) and the server's
 * CPU by then (every thread, /proc schedstat), with a bare JSON-RPC client so the client's own
 * parsing is not in the figures. Prints medians and paired per-round ratios as JSON.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processCpuMs } from './process-cpu.mjs';

const root = new URL('..', import.meta.url).pathname;
const argValues = (flag) => process.argv.flatMap((arg, i) => (process.argv[i - 1] === flag ? [arg] : []));
const rounds = Number(argValues('--rounds')[0] ?? 21);
const nodes = argValues('--node').length > 0 ? argValues('--node') : [process.execPath];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'launcher-compare', version: '0' } },
})}\n`;

/** Spawns one server, sends `initialize`, resolves with wall ms and server CPU ms at the answer. */
function startOnce(node, script, env, workspace) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, [script, '--workspace', workspace], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${script}: no initialize answer in 30 s`));
    }, 30_000);
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) {
        const wallMs = performance.now() - started;
        const cpuMs = processCpuMs(child.pid);
        clearTimeout(timer);
        if (!out.includes('"result"')) {
          reject(new Error(`${script}: ${out}`));
        }
        child.once('exit', () => resolve({ wallMs, cpuMs }));
        child.kill();
      }
    });
    child.stdin.write(INITIALIZE);
  });
}

const workspace = mkdtempSync(join(tmpdir(), 'launcher-compare-ws-'));
const temps = [workspace];
const results = {};
try {
  for (const node of nodes) {
    const warmTmp = mkdtempSync(join(tmpdir(), 'launcher-compare-warm-'));
    const directTmp = mkdtempSync(join(tmpdir(), 'launcher-compare-direct-'));
    temps.push(warmTmp, directTmp);
    const baseEnv = { ...process.env };
    delete baseEnv.NODE_COMPILE_CACHE;
    delete baseEnv.NODE_DISABLE_COMPILE_CACHE;
    const variants = {
      direct: () => ({ script: join(root, 'dist', 'mcp-server-main.js'), env: { ...baseEnv, TMPDIR: directTmp, XDG_CACHE_HOME: directTmp } }),
      'launcher-warm': () => ({ script: join(root, 'dist', 'mcp-server.js'), env: { ...baseEnv, TMPDIR: warmTmp, XDG_CACHE_HOME: warmTmp } }),
      'launcher-cold': () => {
        const fresh = mkdtempSync(join(tmpdir(), 'launcher-compare-cold-'));
        temps.push(fresh);
        return { script: join(root, 'dist', 'mcp-server.js'), env: { ...baseEnv, TMPDIR: fresh, XDG_CACHE_HOME: fresh } };
      },
    };
    // One start to write the warm cache (and warm the OS file cache for every variant).
    for (const make of Object.values(variants)) {
      const { script, env } = make();
      await startOnce(node, script, env, workspace);
    }
    const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, { wall: [], cpu: [] }]));
    const names = Object.keys(variants);
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const { script, env } = variants[name]();
        const { wallMs, cpuMs } = await startOnce(node, script, env, workspace);
        samples[name].wall.push(wallMs);
        samples[name].cpu.push(cpuMs);
      }
    }
    const paired = (name, figure) => median(samples[name][figure].map((value, i) => value / samples.direct[figure][i]));
    const version = await new Promise((resolve) => {
      const child = spawn(node, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
      let text = '';
      child.stdout.on('data', (chunk) => (text += chunk));
      child.on('exit', () => resolve(text.trim()));
    });
    results[version] = Object.fromEntries(
      names.map((name) => [
        name,
        {
          wallMs: Number(median(samples[name].wall).toFixed(1)),
          cpuMs: Number(median(samples[name].cpu).toFixed(1)),
          wallVsDirectPaired: Number(paired(name, 'wall').toFixed(3)),
          cpuVsDirectPaired: Number(paired(name, 'cpu').toFixed(3)),
        },
      ]),
    );
  }
  process.stdout.write(`${JSON.stringify({ rounds, results }, null, 2)}\n`);
} finally {
  for (const dir of temps) {
    rmSync(dir, { recursive: true, force: true });
  }
}
