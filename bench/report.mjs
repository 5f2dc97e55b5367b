/**
 * Turns the samples into the table printed on the terminal and into BENCHMARKS.md: machine,
 * versions, medians with min and max, ratios against server-filesystem and against the limit
 * (the SDK echo floor or raw git), and the targets with met or missed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, homedir, totalmem } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { cell, markdownTable, ratio, summarize } from './stats.mjs';
import { TARGETS } from './targets.mjs';

/**
 * Every sample list summarized, by key.
 * @param {Map<string, number[]>} samples
 */
export function summarizeAll(samples) {
  return Object.fromEntries([...samples].map(([key, values]) => [key, summarize(values)]));
}

/** Rows: figure, ours, server-filesystem, limit (and which), ours/theirs, ours/limit. */
function rows(results) {
  const s = results.stats;
  const m = (key) => s[key]?.median;
  const row = (figure, ours, theirs, limit, limitName) => [
    figure,
    cell(s[ours]),
    cell(s[theirs]),
    limit === undefined ? '-' : `${cell(s[limit])} ${limitName}`,
    ratio(m(ours), m(theirs)),
    ratio(m(ours), m(limit)),
  ];
  const list = [
    row('cold start -> initialize (ms)', 'cold.init.ours', 'cold.init.fs', 'cold.init.echo', 'echo'),
    row('cold start -> first tools/list (ms)', 'cold.list.ours', 'cold.list.fs', 'cold.list.echo', 'echo'),
    row('cold start -> first tools/list page, 1,000 plugin tools (ms)', 'cold.list.plugins', 'cold.list.fs', 'cold.list.echo', 'echo'),
    row('`node -e 0` spawn -> exit (ms)', 'cold.init.node', undefined, undefined, ''),
    row('first tools/call after start, 10 KB read (ms)', 'cold.call.ours', 'cold.call.fs', 'read10k.ours', 'warm call'),
    row('tools/list, built-ins (ms)', 'list.builtin.ours', 'list.builtin.fs', 'list.builtin.echo', 'echo'),
    row('tools/list, 1,000 plugin tools, one page of 100 (ms)', 'list.plugins.ours', 'list.builtin.fs', 'list.builtin.echo', 'echo'),
    row('tools/list, 1,000 plugin tools, all 10 pages (ms)', 'list.plugins.all.ours', 'list.builtin.fs', 'list.builtin.echo', 'echo'),
    row('tools/list, 1,000 plugin tools, one page, bare JSON-RPC client (ms)', 'list.plugins.raw', 'list.builtin.fsraw', undefined, ''),
    row('tools/call echo, SDK floor (ms)', 'call.echo.echo', undefined, undefined, ''),
    row('read 10 KB (ms)', 'read10k.ours', 'read10k.fs', 'call.echo.echo', 'echo call'),
    row('read 1 MB (ms)', 'read1m.ours', 'read1m.fs', 'call.echo.echo', 'echo call'),
    row('read lines 1-50 of 1 MB (ms)', 'lines50.ours', 'lines50.fs', 'call.echo.echo', 'echo call'),
    row('git-status vs `git status --porcelain` (ms)', 'git.status.ours', undefined, 'git.status.raw', 'raw git'),
    row('git-diff-summary vs `git diff --stat` (ms)', 'git.diff.ours', undefined, 'git.diff.raw', 'raw git'),
    ...[1, 8, 32].map((width) =>
      row(`10 KB reads, ${width} in flight (calls/s, higher is better)`, `tput.${width}.ours`, `tput.${width}.fs`, `tput.${width}.echo`, 'echo calls'),
    ),
    row('in-process: load 100 plugin files / 1,000 tools, cold (ms)', 'inproc.loadMs', undefined, undefined, ''),
    row('in-process: reload them (ms)', 'inproc.reloadMs', undefined, undefined, ''),
    row('in-process: validate one input, first call (ms)', 'inproc.validateFirstMs', undefined, undefined, ''),
    row('in-process: validate one input, compiled (ms)', 'inproc.validateMs', undefined, undefined, ''),
    row('in-process: require the core bundle (ms)', 'inproc.requireMs', undefined, undefined, ''),
  ];
  const rss = results.rss;
  const mib = (value) => (value === undefined ? '-' : `${value.toFixed(1)} MiB`);
  list.push([
    'peak RSS (VmHWM) at the end',
    `${mib(rss.ours)}; ${mib(rss.plugins)} with 1,000 tools`,
    mib(rss.fs),
    `${mib(rss.echo)} echo`,
    ratio(rss.ours, rss.fs),
    ratio(rss.ours, rss.echo),
  ]);
  return list;
}

const HEADER = ['figure', 'ours: median (min-max)', 'server-filesystem', 'limit', 'ours/theirs', 'ours/limit'];

/** The terminal table and the targets. */
export function renderTable(results) {
  const e2e = readE2eMetrics();
  const vsix = vsixSize(results.root ?? new URL('..', import.meta.url).pathname, e2e);
  return [markdownTable(HEADER, rows(results)), '', targetTable(results, vsix), '', e2eTable(e2e) ?? ''].join('\n');
}

function targetTable(results, vsix) {
  const evaluated = TARGETS.map((target) => ({ target, outcome: target.evaluate(results, vsix) }));
  return markdownTable(
    ['target', 'measured', 'goal', 'met?'],
    evaluated.map(({ target, outcome }) => [target.label, outcome.measured, target.goal, outcome.met ? 'met' : `MISSED (${outcome.by})`]),
  );
}

/** The whole BENCHMARKS.md. */
export function renderReport(results, root) {
  const e2e = readE2eMetrics();
  const vsix = vsixSize(root, e2e);
  const missed = TARGETS.map((target) => ({ target, outcome: target.evaluate(results, vsix) })).filter(({ outcome }) => !outcome.met);
  return `# Benchmarks

Generated by \`npm run bench\` (\`node bench/run.mjs\`) on ${new Date().toISOString().slice(0, 10)}; do not edit the
numbers by hand, run it again. Everything runs in one process tree on stdio, interleaved: every
iteration visits every server in turn, so machine noise hits all of them alike.

## Machine and versions

${machine(root)}

## What is measured

- **ours**: \`node dist/mcp-server.js --workspace <repo>\` (built-ins; the production bundle), and the
  same with \`--workspace <plugins-ws>\` holding 100 plugin files of 10 tools each (1,000 tools).
- **server-filesystem**: \`@modelcontextprotocol/server-filesystem\` (${version(root, '@modelcontextprotocol/server-filesystem')}) on the same repository.
- **SDK echo**: a minimal low-level SDK \`Server\` with one echo tool, bundled with esbuild the same
  way as ours (bench/echo-server.mjs): the floor of the SDK.
- **raw git**: \`git status --porcelain\` / \`git diff --stat\` spawned from Node with \`execFile\`.
- All clients are the SDK \`Client\` over \`StdioClientTransport\`, so client-side parsing is the same
  for every server. Fixtures: a git repository of 5,000 files in nested folders with 100 modified,
  a 10,240-byte and a 1,000,000-byte text file in it, made fresh in a temp directory.
- Iterations: cold start ${results.N.cold} spawns per server, per-call latency ${results.N.latency} calls per case
  (after ${results.N.warmup} warm-up rounds), git ${results.N.git}, throughput ${results.N.rounds} rounds of ${results.N.callsPerRound} calls,
  in-process ${results.N.inProcess} fresh processes. Whole run: ${results.elapsedS.toFixed(0)} s.

## Results (medians, min-max in brackets)

${markdownTable(HEADER, rows(results))}

\`.vsix\` size: ${vsix.bytes === undefined ? 'unknown' : `${(vsix.bytes / 1024).toFixed(0)} KiB`} (${vsix.how}).

## Targets

${targetTable(results, vsix)}

${missed.length === 0 ? 'Every target is met in this run.' : missed.map(({ target, outcome }) => `### Missed: ${target.label}\n\nBy ${outcome.by}. ${target.whyMissed}\n`).join('\n')}
${e2eSection(e2e)}
## Notes

${NOTES}
`;
}

const NOTES = readFileSync(new URL('./notes.md', import.meta.url), 'utf8').trim();

function machine(root) {
  const cpu = cpus();
  const gitVersion = execFileSync('git', ['--version'], { encoding: 'utf8' }).trim();
  return [
    `- CPU: ${cpu[0]?.model ?? 'unknown'}, ${cpu.length} cores`,
    `- Memory: ${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    `- Node ${process.version}, ${process.platform} ${process.arch}`,
    `- @modelcontextprotocol/sdk ${version(root, '@modelcontextprotocol/sdk')}, ${gitVersion}`,
  ].join('\n');
}

function version(root, name) {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/**
 * The packaged size: a real .vsix when the package script left one or the last e2e run packaged
 * one, else an estimate from the files .vscodeignore lets in, each deflated as a zip would (plus a
 * few KB of manifest).
 */
export function vsixSize(root, e2e) {
  for (const candidate of ['workspace-tools.vsix', ...listVsix(root)]) {
    const file = join(root, candidate);
    if (existsSync(file)) {
      return { bytes: statSync(file).size, how: `measured: ls -l ${candidate}` };
    }
  }
  if (e2e !== undefined) {
    return { bytes: e2e.vsixBytes, how: `measured: the .vsix packaged by the e2e run of ${e2e.date.slice(0, 10)}` };
  }
  const files = [
    ...listFiles(join(root, 'dist')).filter((file) => file.endsWith('.js')),
    ...listFiles(join(root, 'schemas')),
    ...listFiles(join(root, 'media')),
    ...['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].map((name) => join(root, name)).filter(existsSync),
  ];
  const deflated = files.reduce((sum, file) => sum + deflateRawSync(readFileSync(file), { level: 9 }).length + 100, 0);
  return { bytes: deflated + 4096, how: `estimated: ${files.length} files that .vscodeignore packages, deflated, plus the manifest` };
}

function listVsix(root) {
  return readdirSync(root).filter((name) => name.endsWith('.vsix'));
}

function listFiles(dir) {
  if (!existsSync(dir)) {
    return [];
  }
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}


/** Where scripts/e2e/run.sh leaves the figures of its last run (CACHE_ROOT of scripts/e2e/env.sh). */
function e2eMetricsFile() {
  const cacheRoot = process.env.WORKSPACE_TOOLS_E2E_CACHE || join(homedir(), '.cache', 'workspace-tools-e2e');
  return process.env.E2E_METRICS_OUT || join(cacheRoot, 'last-e2e-metrics.json');
}

/**
 * The last e2e run's figures (scripts/e2e/metrics.js), or undefined when there is no such run
 * or its file is not what we expect: the report then simply leaves the section out.
 */
export function readE2eMetrics(file = e2eMetricsFile()) {
  try {
    const metrics = JSON.parse(readFileSync(file, 'utf8'));
    const valid = typeof metrics.date === 'string' && typeof metrics.vsixBytes === 'number' && typeof metrics.scenarios === 'object';
    return valid ? metrics : undefined;
  } catch {
    return undefined;
  }
}

const ACTIVATION_GOAL_MS = 50;
const VSIX_GOAL_BYTES = 1_000_000;

/** activate() time per scenario and the real .vsix size, against their targets. */
function e2eTable(e2e) {
  if (e2e === undefined) {
    return undefined;
  }
  const met = (ok) => (ok ? 'met' : 'MISSED');
  const activation = Object.entries(e2e.scenarios)
    .filter(([, scenario]) => typeof scenario.reportedActivationMs === 'number')
    .map(([name, scenario]) => [
      `activate() time, scenario ${name} (ms)`,
      scenario.reportedActivationMs.toFixed(1),
      `< ${ACTIVATION_GOAL_MS} ms`,
      met(scenario.reportedActivationMs < ACTIVATION_GOAL_MS),
    ]);
  const vsix = ['`.vsix` size', `${(e2e.vsixBytes / 1024).toFixed(0)} KiB`, '< 1 MB', met(e2e.vsixBytes < VSIX_GOAL_BYTES)];
  return markdownTable(['figure', 'measured', 'goal', 'met?'], [...activation, vsix]);
}

/** The BENCHMARKS.md section of the e2e figures; empty when no e2e run left any. */
function e2eSection(e2e) {
  const table = e2eTable(e2e);
  if (table === undefined) {
    return '';
  }
  return `
## Measured in the real VS Code e2e run

From \`scripts/e2e/run.sh\` on ${e2e.date.slice(0, 10)}: VS Code ${e2e.vscodeVersion ?? 'unknown'} (code-server, Node
extension host, headless Chromium). activate() time is what the extension's API reports as
\`activationMs\` (from the start of \`activate()\` to its return; module loading is before it and loading the
tools after it); the \`.vsix\` is the package that run installed.

${table}
`;
}
