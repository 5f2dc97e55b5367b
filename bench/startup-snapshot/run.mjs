/**
 * `node bench/startup-snapshot/run.mjs [--rounds N] [--node22 PATH]`: the startup-snapshot investigation (not part
 * of `npm run bench`, nothing here ships). Builds, in a temp directory:
 *  - the production bundle as `npm run build` makes it (dist/mcp-server.js),
 *  - the bundled SDK echo server (bench/echo-server.mjs, the SDK floor `npm run bench` uses),
 *  - a user-land V8 startup snapshot of the server (`node --snapshot-blob server.blob
 *    --build-snapshot entry.js`, Node >= 18.20 / 20): bench/startup-snapshot/entry.mjs bundled
 *    with the same esbuild options, whose modules are evaluated at build time and whose
 *    `serve` runs at start (v8.startupSnapshot.setDeserializeMainFunction),
 *  - the same for the echo server, and an empty snapshot (what deserializing costs by itself);
 * smoke-checks the server snapshot (initialize, tools/list, git-status, a plugin shell tool that
 * prints a variable set only at spawn time, the working directory), then times spawn ->
 * `initialize` answered for every variant, interleaved, and prints a Markdown table. With
 * `--node22`, a Node >= 22.1 binary, also the bundle under that Node with and without
 * NODE_COMPILE_CACHE (V8's code cache on disk, warmed by one run first). The figures
 * and the conclusion are in bench/notes.md, "Startup snapshot investigation".
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { PRODUCTION_BUNDLE } from '../bundle-options.mjs';
import { callOk, connect, disconnect, listAllTools, peakRssMiB, time } from '../mcp-clients.mjs';
import { cell, markdownTable, summarize } from '../stats.mjs';

const root = new URL('../..', import.meta.url).pathname;
const roundsIndex = process.argv.indexOf('--rounds');
const ROUNDS = roundsIndex === -1 ? 25 : Number(process.argv[roundsIndex + 1]);
const node22Index = process.argv.indexOf('--node22');
const NODE22 = node22Index === -1 ? undefined : process.argv[node22Index + 1];
const log = (message) => process.stderr.write(`[snapshot] ${message}\n`);

/** The same options esbuild.mjs uses for dist/mcp-server.js in production (as bench/run.mjs). */
const COMMON = PRODUCTION_BUNDLE;

/** Builds a snapshot blob from a bundled entry: its path, size, build time and Node's warnings. */
function buildSnapshot(entry, blob) {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', entry], { cwd: tmpdir(), encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`snapshot of ${entry} failed: ${result.stderr || result.error?.message}`);
  }
  const warnings = result.stderr
    .split('\n')
    .filter((line) => /Warning/.test(line))
    .map((line) => line.replace(/^\(node:\d+\) /, ''));
  return { blob, buildMs: performance.now() - started, bytes: statSync(blob).size, warnings };
}

function listFiles(dir) {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)]));
  } catch {
    return [];
  }
}

/** Spawn to exit of `node <args>`. */
function exitTime(args) {
  return time(
    () =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, args, { stdio: 'ignore' });
        child.on('error', reject);
        child.on('exit', resolve);
      }),
  );
}

/** A git repository with one plugin file: a shell tool that prints a variable and its cwd. */
function smokeWorkspace(dir) {
  mkdirSync(join(dir, '.vscode', 'tools'), { recursive: true });
  writeFileSync(join(dir, 'a.txt'), 'one\n');
  const tools = [
    {
      name: 'snapshot-smoke',
      description: 'prints a variable set at spawn time, and the working directory',
      tags: ['read'],
      handler: { type: 'shell', script: 'printf "%s|%s" "$SNAPSHOT_SMOKE" "$(pwd)"' },
    },
  ];
  writeFileSync(join(dir, '.vscode', 'tools', 'smoke.json'), JSON.stringify({ tools }));
  const git = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=Bench', '-c', 'user.email=bench@example.invalid', '-c', 'commit.gpgsign=false', 'add', '-A');
  git('-c', 'user.name=Bench', '-c', 'user.email=bench@example.invalid', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'smoke');
  writeFileSync(join(dir, 'a.txt'), 'two\n');
}

/** initialize, tools/list, git-status and the plugin tool, through the SDK client. */
async function smoke(spec, workspace) {
  const marker = `spawned-${process.pid}-${Date.now()}`;
  const connection = await connect({ ...spec, env: { ...spec.env, SNAPSHOT_SMOKE: marker } });
  try {
    const text = (result) => result.content.map((part) => part.text ?? '').join('');
    const info = connection.client.getServerVersion();
    const tools = (await listAllTools(connection.client)).map((tool) => tool.name);
    const status = text(await callOk(connection.client, 'git-status', {}));
    const plugin = text(await callOk(connection.client, 'snapshot-smoke', {}));
    const problems = [
      info?.name === 'workspace-tools' ? '' : `server name ${info?.name}`,
      tools.includes('git-status') && tools.includes('snapshot-smoke') ? '' : `tools: ${tools.join(', ')}`,
      /^ M a\.txt$/m.test(status) ? '' : `git-status: ${status.slice(0, 200)}`,
      plugin.includes(`${marker}|${workspace}`) ? '' : `plugin tool: ${plugin.slice(0, 200)}`,
    ].filter((problem) => problem !== '');
    return { ok: problems.length === 0, problems, tools: tools.length };
  } finally {
    await disconnect(connection);
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'wt-snapshot-'));
  try {
    log('building bundles and snapshots');
    execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], { cwd: root, stdio: 'inherit' });
    const serverJs = join(root, 'dist/mcp-server.js');
    const echoJs = join(dir, 'echo-server.js');
    const entryJs = join(dir, 'server-snapshot-entry.js');
    const echoEntryJs = join(dir, 'echo-snapshot-entry.js');
    const emptyJs = join(dir, 'empty-entry.js');
    await esbuild.build({ ...COMMON, entryPoints: [join(root, 'bench/echo-server.mjs')], outfile: echoJs });
    await esbuild.build({ ...COMMON, entryPoints: [join(root, 'bench/startup-snapshot/entry.mjs')], outfile: entryJs });
    await esbuild.build({ ...COMMON, entryPoints: [join(root, 'bench/startup-snapshot/echo-entry.mjs')], outfile: echoEntryJs });
    writeFileSync(emptyJs, "require('node:v8').startupSnapshot.setDeserializeMainFunction(() => {});\n");
    const snapshots = {
      server: buildSnapshot(entryJs, join(dir, 'server.blob')),
      echo: buildSnapshot(echoEntryJs, join(dir, 'echo.blob')),
      empty: buildSnapshot(emptyJs, join(dir, 'empty.blob')),
    };
    const workspace = join(dir, 'ws');
    smokeWorkspace(workspace);
    const serverArgs = ['--workspace', workspace, '--approve-existing'];
    const variants = [
      { id: 'dist', label: '`node dist/mcp-server.js` (as shipped)', args: [serverJs, ...serverArgs] },
      { id: 'snapshot', label: '`node --snapshot-blob server.blob` (startup snapshot of the server)', args: ['--snapshot-blob', snapshots.server.blob, '--', ...serverArgs] },
      { id: 'echo', label: 'bundled SDK echo (the SDK floor)', args: [echoJs] },
      { id: 'echoSnapshot', label: 'bundled SDK echo from a startup snapshot', args: ['--snapshot-blob', snapshots.echo.blob] },
      { id: 'semi', label: '`node --max-semi-space-size=16 dist/mcp-server.js`', args: ['--max-semi-space-size=16', serverJs, ...serverArgs] },
      { id: 'noopt', label: '`node --no-opt dist/mcp-server.js`', args: ['--no-opt', serverJs, ...serverArgs] },
    ];
    if (NODE22 !== undefined) {
      const version = execFileSync(NODE22, ['--version'], { encoding: 'utf8' }).trim();
      const cacheDir = join(dir, 'compile-cache');
      variants.push(
        { id: 'node22', label: `Node ${version}: \`node dist/mcp-server.js\``, command: NODE22, args: [serverJs, ...serverArgs] },
        { id: 'node22cache', label: `Node ${version}: the same with NODE_COMPILE_CACHE (warm)`, command: NODE22, args: [serverJs, ...serverArgs], env: { NODE_COMPILE_CACHE: cacheDir } },
        { id: 'node22echo', label: `Node ${version}: bundled SDK echo`, command: NODE22, args: [echoJs] },
      );
    }
    log('smoke checks');
    const smokes = {};
    for (const variant of variants.filter((v) => ['dist', 'snapshot', 'node22cache'].includes(v.id))) {
      smokes[variant.id] = await smoke(variant, workspace);
      if (!smokes[variant.id].ok) {
        log(`smoke check of ${variant.id} FAILED: ${smokes[variant.id].problems.join('; ')}`);
      }
    }
    log(`timing spawn -> initialize, ${ROUNDS} rounds`);
    const samples = new Map(variants.map((v) => [v.id, { init: [], call: [], rss: [] }]));
    samples.set('node', { init: [], call: [], rss: [] });
    samples.set('emptySnapshot', { init: [], call: [], rss: [] });
    for (let round = 0; round < ROUNDS + 2; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        const connection = await connect(variant);
        const callMs = variant.id.startsWith('echo')
          ? await time(() => callOk(connection.client, 'echo', { text: 'x' }))
          : await time(() => callOk(connection.client, 'git-status', {}));
        const rss = peakRssMiB(connection.transport.pid);
        await disconnect(connection);
        if (round >= 2) {
          const s = samples.get(variant.id);
          s.init.push(connection.initMs);
          s.call.push(callMs);
          if (rss !== undefined) {
            s.rss.push(rss);
          }
        }
      }
      const nodeMs = await exitTime(['-e', '0']);
      const emptyMs = await exitTime(['--snapshot-blob', snapshots.empty.blob]);
      if (round >= 2) {
        samples.get('node').init.push(nodeMs);
        samples.get('emptySnapshot').init.push(emptyMs);
      }
    }
    const stat = (id, key) => summarize(samples.get(id)[key]);
    // Paired: the ratio within each round, then the median of those (the load drifts between rounds).
    const paired = (id, reference) => {
      const ours = samples.get(id).init;
      const theirs = samples.get(reference).init;
      return `${summarize(ours.map((value, i) => value / theirs[i])).median.toFixed(2)}x`;
    };
    const rows = variants.map((variant) => [
      variant.label,
      cell(stat(variant.id, 'init')),
      paired(variant.id, 'dist'),
      paired(variant.id, 'echo'),
      cell(stat(variant.id, 'call')),
      cell(stat(variant.id, 'rss')),
    ]);
    rows.push(['`node -e 0`, spawn -> exit', cell(stat('node', 'init')), '-', '-', '-', '-']);
    rows.push(['`node --snapshot-blob empty.blob`, spawn -> exit', cell(stat('emptySnapshot', 'init')), '-', '-', '-', '-']);
    const table = markdownTable(
      ['variant', 'spawn -> initialize (ms)', 'vs dist (paired)', 'vs SDK echo (paired)', 'first call after initialize (ms)', 'peak RSS (MiB)'],
      rows,
    );
    const sizes = Object.entries(snapshots)
      .map(([name, s]) => `${name}.blob ${(s.bytes / 1024 / 1024).toFixed(1)} MiB, built in ${s.buildMs.toFixed(0)} ms`)
      .join('; ');
    const smokeText = Object.entries(smokes)
      .map(([id, s]) => `${id}: ${s.ok ? `ok (${s.tools} tools; git-status; plugin shell tool saw the spawn-time variable and cwd)` : `FAILED: ${s.problems.join('; ')}`}`)
      .join('\n');
    const cacheFiles = NODE22 === undefined ? [] : listFiles(join(dir, 'compile-cache'));
    const cacheText = NODE22 === undefined ? '' : `Compile cache after the warm-up run: ${cacheFiles.length} files, ${(cacheFiles.reduce((sum, file) => sum + statSync(file).size, 0) / 1024).toFixed(0)} KiB\n`;
    process.stdout.write(
      `Node ${process.version}, ${ROUNDS} interleaved rounds (first call: git-status for our server, echo for the echo server)\n\n${table}\n\nSnapshots: ${sizes}\nBuild warnings (server): ${snapshots.server.warnings.join(' | ') || 'none'}\n${cacheText}Smoke checks:\n${smokeText}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`[snapshot] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
