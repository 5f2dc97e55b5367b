/**
 * Load time by size (issue 33: loading is linear and never blocks). For 10, 100 and 1,000 tasks
 * or steps, a fresh `dist/mcp-server.js --workspace <ws>` loads one plugin file: a tasks.json of
 * N independent tasks, one of N tasks in a single dependsOn chain (the shape that was cubic; a
 * chain serves at most 100 tasks per tool), or one tool of N steps. The load time is the one the
 * server logs ("loaded ... in X ms"); meanwhile the bench pings every 10 ms and keeps the worst
 * answer (the server must answer within ~100 ms while it loads).
 *
 * Alone: `node bench/load-size.mjs [--quick]` prints the table. bench/run.mjs calls
 * measureLoadSizes and bench/report.mjs renders the section.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { summarize, markdownTable, fmt } from './stats.mjs';

export const LOAD_SIZES = [10, 100, 1000];

/** The workspaces: each writes its files into `dir` for `n`. */
export const LOAD_SHAPES = {
  'tasks.json, independent tasks': (dir, n) => {
    writeTasks(dir, Array.from({ length: n }, (_, i) => ({ label: `t${i}`, type: 'shell', command: `echo ${i}` })));
  },
  'tasks.json, one dependsOn chain': (dir, n) => {
    writeTasks(dir, Array.from({ length: n }, (_, i) => ({ label: `t${i}`, type: 'shell', command: `echo ${i}`, ...(i > 0 ? { dependsOn: `t${i - 1}` } : {}) })));
  },
  'one tool of N steps': (dir, n) => {
    const steps = Array.from({ length: n }, (_, i) => ({ name: `s${i}`, handler: { type: 'shell', command: ['echo', `${i}`] } }));
    writeFileSync(join(dir, '.vscode/tools/steps.json'), JSON.stringify({ tools: [{ name: 'long', description: 'N steps', steps }] }, null, 1));
  },
};

function writeTasks(dir, tasks) {
  writeFileSync(join(dir, '.vscode/tasks.json'), JSON.stringify({ version: '2.0.0', tasks }, null, 1));
  writeFileSync(join(dir, '.vscode/tools/imported.json'), JSON.stringify({ name: 'imported', import: [{ from: 'tasks' }] }));
}

const LOADED = /loaded \d+ tools .* in ([\d.]+) ms/;

/** One fresh server on `dir`: the load time it logs and the worst ping while it loaded. */
async function loadOnce(serverJs, dir) {
  const home = mkdtempSync(join(tmpdir(), 'wt-bench-load-home-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverJs, '--workspace', dir, '--no-builtins'],
    stderr: 'pipe',
    env: { HOME: home, XDG_CONFIG_HOME: home, XDG_STATE_HOME: home, PATH: process.env.PATH ?? '' },
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'workspace-tools-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
    let worstPing = 0;
    const deadline = performance.now() + 120_000;
    while (!LOADED.test(stderr) && performance.now() < deadline) {
      const started = performance.now();
      await client.ping();
      worstPing = Math.max(worstPing, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const loadMs = Number(LOADED.exec(stderr)?.[1] ?? Number.NaN);
    return { loadMs, worstPing };
  } finally {
    await client.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Measures every shape at every size, `rounds` fresh servers each; records `load.<shape>.<n>`
 * (ms) and `loadping.<shape>.<n>` (worst ping, ms) through `record`.
 */
export async function measureLoadSizes({ serverJs, rounds, record, log }) {
  for (const [shape, write] of Object.entries(LOAD_SHAPES)) {
    for (const n of LOAD_SIZES) {
      const dir = mkdtempSync(join(tmpdir(), 'wt-bench-load-'));
      try {
        mkdirSync(join(dir, '.vscode/tools'), { recursive: true });
        write(dir, n);
        for (let round = 0; round < rounds; round++) {
          const { loadMs, worstPing } = await loadOnce(serverJs, dir);
          record(`load.${shape}.${n}`, loadMs);
          record(`loadping.${shape}.${n}`, worstPing);
        }
        log?.(`load: ${shape}, ${n}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
}

/** The section's table from summarized stats (`stats[key] = { median, min, max }`). */
export function loadSizeTable(stats) {
  const header = ['workspace', ...LOAD_SIZES.map((n) => `load, N = ${n.toLocaleString('en-US')} (ms)`), `worst ping while loading, N = ${LOAD_SIZES.map((n) => n.toLocaleString('en-US')).join(' / ')} (ms)`];
  const rows = Object.keys(LOAD_SHAPES).map((shape) => [
    shape,
    ...LOAD_SIZES.map((n) => fmt(stats[`load.${shape}.${n}`]?.median ?? Number.NaN)),
    LOAD_SIZES.map((n) => fmt(stats[`loadping.${shape}.${n}`]?.max ?? Number.NaN)).join(' / '),
  ]);
  return markdownTable(header, rows);
}

// Run alone: `node bench/load-size.mjs [--quick]` (after `node esbuild.mjs`).
if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('..', import.meta.url).pathname;
  const samples = new Map();
  const record = (key, value) => samples.set(key, [...(samples.get(key) ?? []), value]);
  await measureLoadSizes({ serverJs: join(root, 'dist/mcp-server.js'), rounds: process.argv.includes('--quick') ? 1 : 3, record, log: (message) => process.stderr.write(`[bench] ${message}\n`) });
  process.stdout.write(`${loadSizeTable(Object.fromEntries([...samples].map(([key, values]) => [key, summarize(values)])))}\n`);
}
