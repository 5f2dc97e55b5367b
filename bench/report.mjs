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
import { FILTER_CONFIG_ARGS, LARGE_QUERIES, LIST_MAX, RAW_DIFF_ARGS, RAW_LIST_ARGS, RAW_STATUS_ARGS, rawSearchArgs, SEARCH_MAX } from './large-tree-bench.mjs';
import { MAX_FILE_BYTES } from './large-tree.mjs';
import { callCpuMicros } from './call-cpu.mjs';
import { THINK_MS } from './cold-start.mjs';
import { SETTLE_MS as SETTLE } from './hot-path.mjs';
import { cell, fmt, markdownTable, ratio, summarize } from './stats.mjs';
import { loadSizeTable } from './load-size.mjs';
import { TARGETS, VSIX_GOAL_BYTES } from './targets.mjs';
import { SANDBOX_ROWS } from './sandbox-bench.mjs';
import { readActivationRuns } from './activation-runs.mjs';

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
    row('cold start -> initialize, server CPU (ms)', 'cold.initcpu.ours', 'cold.initcpu.fs', 'cold.initcpu.echo', 'echo'),
    row('cold start -> first tools/list (ms)', 'cold.list.ours', 'cold.list.fs', 'cold.list.echo', 'echo'),
    row('cold start -> first tools/list page, 1,000 plugin tools (ms)', 'cold.list.plugins', 'cold.list.fs', 'cold.list.echo', 'echo'),
    row('`node -e 0` spawn -> exit (ms)', 'cold.init.node', undefined, undefined, ''),
    row('first moments: spawn -> initialize -> tools/list -> first 10 KB read answered (ms)', 'moments.first.ours', 'moments.first.fs', 'moments.first.echo', 'SDK floor'),
    row('first moments: server CPU by the first result (ms)', 'moments.firstcpu.ours', 'moments.firstcpu.fs', 'moments.firstcpu.echo', 'SDK floor'),
    row('first moments: first tools/list, sent as initialize is answered (ms)', 'moments.list.ours', 'moments.list.fs', 'moments.list.echo', 'SDK floor'),
    row('first moments: call 2 (ms)', 'moments.call2.ours', 'moments.call2.fs', 'moments.call2.echo', 'SDK floor'),
    row('first moments: call 3 (ms)', 'moments.call3.ours', 'moments.call3.fs', 'moments.call3.echo', 'SDK floor'),
    row('first moments: call 2, server CPU (ms)', 'moments.call2cpu.ours', 'moments.call2cpu.fs', 'moments.call2cpu.echo', 'SDK floor'),
    row('first moments: call 3, server CPU (ms)', 'moments.call3cpu.ours', 'moments.call3cpu.fs', 'moments.call3cpu.echo', 'SDK floor'),
    row(`first tools/call on a fresh server, ${THINK_MS} ms after tools/list, 10 KB read (ms)`, 'cold.call.ours', 'cold.call.fs', 'cold.call.echo', 'echo first call'),
    row('first tools/call on a fresh server, server CPU (ms)', 'cold.callcpu.ours', 'cold.callcpu.fs', 'cold.callcpu.echo', 'echo first call'),
    row('tools/list, built-ins (ms)', 'list.builtin.ours', 'list.builtin.fs', 'list.builtin.echo', 'echo'),
    row('tools/list, 1,000 plugin tools, one page of 100 (ms)', 'list.plugins.ours', 'list.builtin.fs', 'list.builtin.echo', 'echo'),
    row('tools/list, 1,000 plugin tools, all 10 pages (ms)', 'list.plugins.all.ours', 'list.builtin.fs', 'list.builtin.echo', 'echo'),
    row('tools/list, 1,000 plugin tools, one page, bare JSON-RPC client (ms)', 'list.plugins.raw', 'list.builtin.fsraw', undefined, ''),
    row('tools/call echo, SDK floor (ms)', 'call.echo.echo', undefined, undefined, ''),
    row('read 10 KB (ms)', 'read10k.ours', 'read10k.fs', 'call.echo.echo', 'echo call'),
    row('read 10 KB with --no-history (ms)', 'read10k.nohistory', undefined, 'read10k.ours', 'with history'),
    row('read 1 MB (ms)', 'read1m.ours', 'read1m.fs', 'call.echo.echo', 'echo call'),
    row('read lines 1-50 of 1 MB (ms)', 'lines50.ours', 'lines50.fs', 'call.echo.echo', 'echo call'),
    callCpuRow(results, 'read10k', 'server CPU per 10 KB read, servers taking turns in blocks, after the JIT\'s warm-up (µs)'),
    callCpuRow(results, 'lines50', 'server CPU per read of lines 1-50, servers taking turns in blocks, after the JIT\'s warm-up (µs)'),
    row(`git-status vs \`git ${RAW_STATUS_ARGS.join(' ')}\` (ms)`, 'git.status.ours', undefined, 'git.status.raw', 'raw git'),
    row('git-diff-summary vs `git diff --stat` (ms)', 'git.diff.ours', undefined, 'git.diff.raw', 'raw git'),
    row(`\`git ${FILTER_CONFIG_ARGS.join(' ')}\`, run only when a config file changed (ms)`, undefined, undefined, 'git.config.raw', 'raw git'),
    row('code tool returning "ok" vs a shell tool running `node -e 0` (ms)', 'code.trivial.ours', undefined, 'code.node.ours', 'shell node -e 0'),
    ...SANDBOX_ROWS.map(([figure, ours, limit, limitName]) => row(figure, ours, undefined, limit, limitName)),
    ...[1, 8, 32].flatMap((width) => [
      row(`10 KB reads, ${width} in flight (calls/s, higher is better)`, `tput.${width}.ours`, `tput.${width}.fs`, `tput.${width}.echo`, 'echo calls'),
      row(`10 KB reads, ${width} in flight, --no-history (calls/s)`, `tput.${width}.noHistory`, undefined, `tput.${width}.ours`, 'with history'),
      cpuRow(results, width),
    ]),
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
  const rss1m = results.rss1m ?? {};
  list.push([
    'peak RSS (VmHWM) of fresh servers after the 1 MB reads',
    mib(rss1m.ours),
    mib(rss1m.fs),
    `${mib(rss1m.noHistory)} --no-history`,
    ratio(rss1m.ours, rss1m.fs),
    ratio(rss1m.ours, rss1m.noHistory),
  ]);
  return list;
}

/**
 * Server CPU per call at one width: every round's CPU over every round's calls (so a compaction
 * or a garbage collection that falls in one round counts as it should), min-max of the rounds.
 */
function cpuRow(results, width) {
  const total = (id) => results.cpuPerCall?.[`${width}.${id}`];
  const spread = (id) => {
    const s = results.stats[`cpu.${width}.${id}`];
    return total(id) === undefined || s === undefined ? '-' : `${fmt(total(id))} (${fmt(s.min)}-${fmt(s.max)})`;
  };
  return [
    `server CPU per call, ${width} in flight (ms; echo: an echo call)`,
    spread('ours'),
    spread('fs'),
    `${spread('noHistory')} --no-history; ${spread('echo')} echo`,
    ratio(total('ours'), total('fs')),
    ratio(total('ours'), total('noHistory')),
  ];
}

/**
 * Server CPU per call of one case, measured in alternating blocks (bench/call-cpu.mjs), in µs:
 * the median of the blocks (each block with what its calls left for later, such as the history's
 * batch write) and their min-max; ratios of the medians.
 */
function callCpuRow(results, name, figure) {
  const median = (id) => callCpuMicros(results, name, id);
  const spread = (id) => {
    const s = results.stats[`callcpu.${name}.${id}`];
    return s === undefined ? '-' : `${fmt(s.median * 1000)} (${fmt(s.min * 1000)}-${fmt(s.max * 1000)})`;
  };
  return [figure, spread('ours'), spread('fs'), `${spread('noHistory')} --no-history`, ratio(median('ours'), median('fs')), ratio(median('ours'), median('noHistory'))];
}

const HEADER = ['figure', 'ours: median (min-max)', 'server-filesystem', 'limit', 'ours/theirs', 'ours/limit'];

const LARGE_HEADER = ['figure', 'ours: median (min-max)', 'raw: median (min-max)', 'ours/raw', 'complete? (returned / min(max, total))'];

/** `rg ... -e 'q'` as a reader would type it. */
const shellWords = (words) => words.map((word) => (/^[\w./=-]+$/.test(word) ? word : `'${word}'`)).join(' ');

const count = (value) => value.toLocaleString('en-US');
const times = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The completeness cell of one case: results returned against min(maxResults, true total). */
function completenessCell(check) {
  if (check === undefined) {
    return '-';
  }
  const share = check.expected === 0 ? 100 : (check.returned / check.expected) * 100;
  const more = check.total > check.max ? '"more exist" said' : 'complete answer';
  return `${check.ok ? 'yes' : 'NO'}: ${count(check.returned)} / ${count(check.expected)} = ${share.toFixed(0)}% (total ${count(check.total)}; ${check.ok ? more : 'header or note wrong'})`;
}

/** Rows of the large-tree table: ours against the raw program, and the completeness check. */
function largeRows(results) {
  const large = results.large;
  if (large === undefined) {
    return [];
  }
  const s = results.stats;
  const m = (key) => s[key]?.median;
  const row = (figure, ours, raw, check) => [figure, cell(s[ours]), cell(s[raw]), ratio(m(ours), m(raw)), completenessCell(check)];
  const list = [];
  for (const [kind, { query, regex }] of Object.entries(LARGE_QUERIES)) {
    const what = `search-text ${regex ? 'regex' : 'literal'} \`${query}\``;
    list.push(
      row(`${what}, ripgrep engine vs raw rg (ms)`, `large.${kind}.ours.rg`, `large.${kind}.raw.rg`, large.completeness[`${kind}.rg`]),
      row(`${what}, git grep engine vs raw git grep (ms)`, `large.${kind}.ours.git`, `large.${kind}.raw.gitgrep`, large.completeness[`${kind}.git`]),
      row(`${what}: raw rg to completion, ${count(large.truth[kind].rg)} lines (one run, ms)`, undefined, `large.${kind}.full.rg`),
      row(`${what}: raw git grep to completion, ${count(large.truth[kind].git)} lines (one run, ms)`, undefined, `large.${kind}.full.gitgrep`),
    );
  }
  for (const max of LIST_MAX) {
    list.push(row(`list-files, maxResults ${count(max)}, vs raw git ls-files (ms)`, `large.list${max}.ours`, 'large.list.raw', large.completeness[`list${max}`]));
  }
  list.push(
    row('git-status vs raw git status (ms)', 'large.status.ours', 'large.status.raw'),
    row('git-diff-summary vs raw git diff --stat (ms)', 'large.diff.ours', 'large.diff.raw'),
    row(`\`git ${FILTER_CONFIG_ARGS.join(' ')}\`, run only when a config file changed (ms)`, undefined, 'large.config.raw'),
  );
  return list;
}

/** The BENCHMARKS.md section of the large tree. */
/** Load time by size (bench/load-size.mjs), when the run measured it. */
function loadSizeSection(results) {
  if (!Object.keys(results.stats).some((key) => key.startsWith('load.'))) {
    return '';
  }
  return `
## Load time by size

A fresh \`dist/mcp-server.js --workspace <ws>\` per round (${results.quick ? 1 : 3} rounds, medians) loads one plugin file:
a tasks.json of N independent tasks, one of N tasks in a single dependsOn chain (each chain serves
at most 100 tasks, so its tools hold at most 100 steps each), or one tool of N steps. The load time
is the one the server logs; the bench pings every 10 ms meanwhile and shows the worst answer (the
first ping after the handshake included).

${loadSizeTable(results.stats)}
`;
}

function largeSection(results) {
  const large = results.large;
  if (large === undefined) {
    return '';
  }
  const { tree, rounds } = large;
  return `
## Large tree (${count(tree.files)} files)

A git repository made once per run from the worktree's node_modules: every regular file up to
${MAX_FILE_BYTES / 1024} KB, copied in ${times(tree.passes, 'pass', 'passes')} (\`deps-1/\`, \`deps-2/\`, ...) until ${count(tree.files - 1)} files, plus one
probe file; one commit; then ${tree.modified} tracked text files with a line appended. Built in ${(tree.buildMs / 1000).toFixed(1)} s.

- **ours**: the real MCP server over stdio, \`dist/mcp-server.js --workspace <tree> --approve-existing\`,
  twice: one finds \`rg\` on PATH (ripgrep engine), the other has \`WORKSPACE_TOOLS_RIPGREP=off\`
  (git grep engine); a regex only ripgrep can match (\`\\d\`) checks which is which. search-text is
  called with maxResults ${count(SEARCH_MAX)} (case-insensitive, the default); list-files with maxResults ${LIST_MAX.map(count).join(' and ')}.
- **raw**, spawned from the bench process in the user's environment (locale ${process.env.LC_ALL || process.env.LANG || 'unset'}):
${Object.keys(LARGE_QUERIES)
  .map((kind) => `  - \`rg ${shellWords(rawSearchArgs(kind).rg)}\` and \`git ${shellWords(rawSearchArgs(kind).gitGrep)}\``)
  .join('\n')}
  - \`git ${RAW_LIST_ARGS.join(' ')}\`, \`git ${RAW_STATUS_ARGS.join(' ')}\`, \`git ${RAW_DIFF_ARGS.join(' ')}\`, run to completion.
- A raw search's stdout is read line by line and the program is killed (SIGKILL) after the
  ${count(SEARCH_MAX)}th line, as \`| head -n ${SEARCH_MAX}\` would stop it; a query with fewer matches runs to
  completion. Each raw search is also run to completion once (the "to completion" rows), which
  counts the true totals.
- Rounds, interleaved: literal ${rounds.search}, regex ${rounds.regex}, list-files ${rounds.list}, git ${rounds.git}, after ${rounds.warmup} warm-up rounds.
- Completeness: each search-text and list-files case is called ${times(rounds.checks, 'time')}; the fewest result lines
  against min(maxResults, total), the total counted with the raw program run to completion (ripgrep
  for the ripgrep engine, git grep for the git engine, \`git ls-files\`'s names deduplicated for
  list-files). "yes" also requires the header's count to equal the lines returned and "more exist"
  to be said exactly when total > maxResults.

${markdownTable(LARGE_HEADER, largeRows(results))}
`;
}

/** The terminal table and the targets. */
export function renderTable(results) {
  const e2e = readE2eMetrics();
  const vsix = vsixSize(results.root ?? new URL('..', import.meta.url).pathname, e2e);
  const large = results.large === undefined ? [] : [markdownTable(LARGE_HEADER, largeRows(results)), ''];
  return [markdownTable(HEADER, rows(results)), '', ...large, targetTable(results, vsix), '', e2eTable(e2e) ?? ''].join('\n');
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

${machine(root)}${results.load === undefined ? '' : `\n- Load average (1 minute) at the start and the end of the run: ${results.load.start.toFixed(2)} and ${results.load.end.toFixed(2)} (${cpus().length} cores)`}

## What is measured

- **ours**: \`node dist/mcp-server.js --workspace <repo>\` (built-ins; the bin as it ships: the
  compile-cache launcher loading the production bundle, dist/mcp-server-main.js, with the cache
  the first start wrote, as every start but a user's first sees), and the
  same with \`--workspace <plugins-ws>\` holding 100 plugin files of 10 tools each (1,000 tools).
- **server-filesystem**: \`@modelcontextprotocol/server-filesystem\` (${version(root, '@modelcontextprotocol/server-filesystem')}) on the same repository.
- **SDK echo**: a minimal low-level SDK \`Server\` with an echo tool and a \`read\` tool (fs/promises
  readFile, no checks), bundled with esbuild the same way as ours (bench/echo-server.mjs): the floor
  of the SDK.
- **raw git**: \`git ${RAW_STATUS_ARGS.join(' ')}\` / \`git ${RAW_DIFF_ARGS.join(' ')}\` spawned from Node with \`execFile\`.
- All clients are the SDK \`Client\` over \`StdioClientTransport\`, so client-side parsing is the same
  for every server. Fixtures: a git repository of 5,000 files in nested folders with 100 modified,
  a 10,240-byte and a 1,000,000-byte text file in it, made fresh in a temp directory.
- **server CPU** is the CPU time every thread of the server process used, read from
  \`/proc/<pid>/task/*/schedstat\` (nanoseconds) around a round of calls, ${SETTLE}
  ms after its last answer so that work done after the answer is sent (the call history's batch
  write, a compaction) is counted: on two cores wall time hides it. Per call it is all rounds'
  CPU over all their calls; the ratios in the targets come from these figures, interleaved.
- **server CPU per call, servers taking turns in blocks** (bench/call-cpu.mjs): ours, ours with
  \`--no-history\` and server-filesystem answer ${results.N.cpuBlockCalls ?? '-'} calls each in turn, block after block
  (reversed on odd blocks), ${results.N.cpuBlocks ?? '-'} blocks per case after ${results.N.cpuWarmupBlocks ?? '-'} warm-up blocks that are not
  recorded; each block's sample runs from its start to the start of the server's next block (the
  last one's to ${SETTLE} ms after it), so what a block's calls leave for later (the history's batch
  write) counts in that block; the figure is the median of the blocks per call, in µs, with their
  min-max.
  Every server sees the same stretch of a loaded machine, which rounds of hundreds of calls did not
  give (the in-flight rows below).
- **first moments of a session** (bench/first-moments.mjs): a fresh process per server and
  iteration, in turn: spawn, \`initialize\`, \`tools/list\` at once, then three 10 KB reads in a row;
  the SDK echo's \`read\` is the floor. Times end when the client's transport has read the answer,
  before the SDK \`Client\` checks it (it compiles each listed outputSchema with Ajv and parses each
  result with zod: the client's work, which differs with the answer's shape). Server CPU is read
  right after each answer. ${results.N.moments ?? '-'} iterations after ${results.N.momentsDropped ?? '-'} that are not recorded (the first spawns
  fill the machine's caches and write the compile cache).
- **the OS sandbox** (bench/sandbox-bench.mjs): a read-only shell tool running \`git log -1\` on a
  server with the sandbox (\`--sandbox preferred\`, proved to refuse a write first) and one with
  \`--sandbox off\`, interleaved, and the first call of that tool on a fresh server of each. The
  1,000-tool server runs \`--sandbox off\`, so the shell, steps and code rows measure the engine.
- **first tools/call on a fresh server**: spawn, handshake, \`tools/list\`, a ${THINK_MS} ms pause (a host
  shows the tools to the model before it calls one), then the call; the SDK echo's first call is
  the floor. Its server CPU is read right after the answer.
- **peak RSS after the 1 MB reads**: fresh servers (ours, ours with \`--no-history\`,
  server-filesystem), ${results.N.rssRounds} rounds in turn of ${results.N.rssCalls} reads of the 1 MB file one at a time and ${results.N.rssCalls}
  with 8 in flight, then VmHWM.
- Iterations: cold start ${results.N.cold} spawns per server, per-call latency ${results.N.latency} calls per case
  (after ${results.N.warmup} warm-up rounds), git ${results.N.git}, throughput ${results.N.rounds} rounds of ${results.N.callsPerRound} calls,
  in-process ${results.N.inProcess} fresh processes. Whole run: ${results.elapsedS.toFixed(0)} s.

## Results (medians, min-max in brackets)

${markdownTable(HEADER, rows(results))}

\`.vsix\` size: ${vsix.bytes === undefined ? 'unknown' : `${(vsix.bytes / 1024).toFixed(0)} KiB`} (${vsix.how}).
${largeSection(results)}${loadSizeSection(results)}
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
    `- @modelcontextprotocol/server ${version(root, '@modelcontextprotocol/server')} (the server and the SDK echo; the bench's client: @modelcontextprotocol/sdk ${version(root, '@modelcontextprotocol/sdk')}), ${gitVersion}`,
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

const ACTIVATION_GOAL_MS = 20;

/**
 * Activation per scenario (VS Code's own marks where the run recorded them, else what the
 * extension's API reports), the start of the extension host until the tools are callable, the MCP
 * server's start until its plugin tools are in vscode.lm.tools, and the real .vsix size.
 */
function e2eTable(e2e, runs = readActivationRuns()) {
  if (e2e === undefined && runs === undefined) {
    return undefined;
  }
  const met = (ok) => (ok ? 'met' : 'MISSED');
  const ms = (value) => (typeof value === 'number' ? `${value.toFixed(value < 100 ? 1 : 0)} ms` : '-');
  const spread = (values) => {
    const s = summarize(values);
    return s.n === 0 ? '-' : `${ms(s.median)} (${fmt(s.min)}-${fmt(s.max)}, ${s.n} runs)`;
  };
  // Activation from the runs collected per scenario (bench/activation-runs.mjs), when there are any.
  const runRows = runs === undefined ? [] : Object.entries(runs.scenarios).flatMap(([name, figures]) => {
    const activate = summarize(figures.activateMs);
    return [
      [`activate(), VS Code's measurement, scenario ${name}: median (min-max) of ${activate.n} runs`, spread(figures.activateMs), `< ${ACTIVATION_GOAL_MS} ms median`, activate.n === 0 ? '-' : met(activate.median < ACTIVATION_GOAL_MS)],
      [`loading dist/extension.js before it, VS Code's measurement, scenario ${name}`, spread(figures.codeLoadingMs), '-', '-'],
      [`extension host start -> tools callable (activated), scenario ${name}`, spread(figures.extHostStartToActivatedMs), '-', '-'],
      [`activate() as the extension reports it, scenario ${name}`, spread(figures.reportedActivationMs), '-', '-'],
    ];
  });
  const rows = Object.entries(e2e?.scenarios ?? {}).flatMap(([name, scenario]) => {
    const timing = scenario.vscodeTiming;
    const list = [];
    if (timing && runs === undefined) {
      list.push(
        [`activate(), VS Code's measurement, scenario ${name}`, ms(timing.activateMs), `< ${ACTIVATION_GOAL_MS} ms`, met(timing.activateMs < ACTIVATION_GOAL_MS)],
        [`loading dist/extension.js before it, VS Code's measurement, scenario ${name}`, ms(timing.codeLoadingMs), '-', `Running Extensions shows the sum: ${ms(timing.codeLoadingMs + timing.activateMs)}`],
        [`extension host start -> tools callable (activated), scenario ${name}`, ms(timing.extHostStartToActivatedMs), '-', `built-in tools in vscode.lm.tools when the driver started: ${timing.lmToolsListedAtDriverStart}`],
      );
    }
    if (typeof scenario.reportedActivationMs === 'number' && runs === undefined) {
      list.push([`activate() as the extension reports it, scenario ${name}`, ms(scenario.reportedActivationMs), timing ? '-' : `< ${ACTIVATION_GOAL_MS} ms`, timing ? '-' : met(scenario.reportedActivationMs < ACTIVATION_GOAL_MS)]);
    }
    if (scenario.mcpToolsListed) {
      list.push([`MCP server start -> plugin tools in vscode.lm.tools, scenario ${name} (the full e2e run of ${e2e.date.slice(0, 10)})`, `${ms(scenario.mcpToolsListed.ms)} (${scenario.mcpToolsListed.attempts} startServer call${scenario.mcpToolsListed.attempts === 1 ? '' : 's'})`, '-', '-']);
    }
    return list;
  });
  const vsixBytes = e2e?.vsixBytes ?? runs?.vsixBytes;
  const vsix = typeof vsixBytes === 'number' ? [['`.vsix` size', `${(vsixBytes / 1024).toFixed(0)} KiB`, `< ${VSIX_GOAL_BYTES / 1024 / 1024} MiB`, met(vsixBytes < VSIX_GOAL_BYTES)]] : [];
  return markdownTable(['figure', 'measured', 'goal', 'met?'], [...runRows, ...rows, ...vsix]);
}

/** The BENCHMARKS.md section of the e2e figures; empty when no e2e run left any. */
export function e2eSection(e2e, runs = readActivationRuns()) {
  const table = e2eTable(e2e, runs);
  if (table === undefined) {
    return '';
  }
  const source = runs === undefined
    ? `From \`scripts/e2e/run.sh\` on ${e2e.date.slice(0, 10)}: VS Code ${e2e.vscodeVersion ?? 'unknown'}`
    : `Activation from ${runs.runs} runs of \`scripts/e2e/run.sh trusted restricted grant\` (bench/activation-runs.mjs, run by \`npm run bench\`) on ${runs.date.slice(0, 10)}, ${runs.minutes === undefined ? '' : `${runs.minutes.toFixed(0)} minutes, `}each run the three scenarios in turn with only the checks that find the extension, medians with min-max; the other rows from the last full e2e run${e2e === undefined ? ' (none recorded)' : ` (${e2e.date.slice(0, 10)})`}: VS Code ${runs.vscodeVersion ?? e2e?.vscodeVersion ?? 'unknown'}`;
  return `
## Measured in the real VS Code e2e run

${source} (code-server, Node
extension host, headless Chromium). Activation is VS Code's own measurement, the performance marks
its extension host sets around each extension's start (read by test/e2e/driver/timing.js):
\`activate()\` from \`code/extHost/willActivateExtension/<id>\` to \`didActivateExtension/<id>\`, and
loading \`dist/extension.js\` before it (\`willLoadExtensionCode\` to \`didLoadExtensionCode\`); VS
Code's Running Extensions view shows their sum. "Extension host start" is the host's \`code/timeOrigin\`, the
closest point to the window opening that the extension host can see; most of the time from it to
activation is VS Code finishing its start-up, since the extension activates \`onStartupFinished\`. The
built-in tools are declared in package.json, so VS Code lists them in \`vscode.lm.tools\` before
activation and they are callable once it ends. Plugin tools reach \`vscode.lm.tools\` through the MCP server: the MCP row is from
\`workbench.mcp.startServer\` to the first plugin tool listed (spawn, handshake and \`tools/list\` in VS
Code, and any trust prompt VS Code shows). The activate() time the extension's API reports
(\`activationMs\`) is shown too. The \`.vsix\` is the package that run installed.

${table}
${activationMissed(e2e, runs) ? `\n${ACTIVATION_WHY}\n` : ''}`;
}

/** Whether a scenario's activate() (VS Code's measurement; the median of the runs when there are runs) missed its goal. */
function activationMissed(e2e, runs) {
  if (runs !== undefined) {
    return Object.values(runs.scenarios).some((figures) => summarize(figures.activateMs).median >= ACTIVATION_GOAL_MS);
  }
  return Object.values(e2e?.scenarios ?? {}).some((scenario) => typeof scenario.vscodeTiming?.activateMs === 'number' && scenario.vscodeTiming.activateMs >= ACTIVATION_GOAL_MS);
}

const ACTIVATION_WHY = `**Why activation misses ${ACTIVATION_GOAL_MS} ms.** \`activate()\` (src/extension/extension.ts) only registers what
VS Code looks up when it activates the extension: the language model tools, the MCP server definition provider, the
commands, the views and the test controller. What the features start with (file watchers, synchronous file calls,
the MCP provider's scan, the editor bridge's server, the first load of plugin files) runs after it returns, one
step per turn (src/extension/startup.ts). Its usual 4-12 ms is VS Code's own registration calls; a sample of 20 ms
or more is the extension host stalled while it ran (the e2e holds the 2 cores at a load of ~3.5: an instrumented
build saw single registration calls take 4-7 ms and one take 45 ms in such samples). A median over the goal means
more samples stalled than not: see the load the collection ran under, and collect again on a quieter machine.`;
