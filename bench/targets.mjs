/**
 * The speed targets of the issue, each evaluated on one run's medians. `whyMissed` is the
 * explanation BENCHMARKS.md prints when a target is missed: why, and what would close it.
 */
import { FIRST_CALL_WHY, FIRST_MOMENTS_TARGETS, HOT_PATH_TARGETS } from './hot-path-targets.mjs';
import { LIST_MAX } from './large-tree-bench.mjs';
import { fmt } from './stats.mjs';

/** The .vsix size goal, the limit scripts/package.mjs refuses at (one number for both tables of BENCHMARKS.md). */
export const VSIX_GOAL_BYTES = 2 * 1024 * 1024;

const med = (results, key) => results.stats[key]?.median ?? Number.NaN;
const x = (value) => `${value.toFixed(2)}x`;
const pct = (value, goal) => `${(((value - goal) / goal) * 100).toFixed(0)}%`;

/** A "ours / reference <= goal" target. */
function ratioAtMost(label, goalRatio, ours, reference, referenceName, whyMissed) {
  return {
    label,
    goal: `<= ${goalRatio}x ${referenceName}`,
    whyMissed,
    evaluate(results) {
      const value = med(results, ours) / med(results, reference);
      return {
        measured: `${fmt(med(results, ours))} vs ${fmt(med(results, reference))} ms = ${x(value)}`,
        met: value <= goalRatio,
        by: `${x(value)} instead of ${goalRatio}x, ${pct(value, goalRatio)} over`,
      };
    },
  };
}

/**
 * Every search-text and list-files answer on the large tree holds min(maxResults, total) results
 * and says "more exist" exactly when total > maxResults (bench/large-tree-bench.mjs checks them).
 */
function completenessTarget() {
  return {
    label: 'completeness: search-text and list-files on the large tree',
    goal: '100% of min(maxResults, total), every case',
    whyMissed: 'An answer held fewer results than min(maxResults, total) or its header or note was wrong: a correctness bug in the tool (see the large-tree table for the case), not a speed matter.',
    evaluate(results) {
      const checks = Object.entries(results.large?.completeness ?? {});
      const bad = checks.filter(([, check]) => !check.ok);
      const worst = Math.min(...checks.map(([, check]) => (check.expected === 0 ? 1 : check.returned / check.expected)));
      return {
        measured: `${checks.length - bad.length} of ${checks.length} cases complete (lowest ${(worst * 100).toFixed(0)}%)`,
        met: checks.length > 0 && bad.length === 0,
        by: bad.length === 0 ? 'no cases measured' : `incomplete: ${bad.map(([key]) => key).join(', ')}`,
      };
    },
  };
}

/** @type {{ label: string, goal: string, whyMissed: string, evaluate: Function }[]} */
export const TARGETS = [
  ...HOT_PATH_TARGETS,
  ...FIRST_MOMENTS_TARGETS,
  ratioAtMost('cold start to `initialize` vs server-filesystem', 0.5, 'cold.init.ours', 'cold.init.fs', 'server-filesystem',
    'Start-up is process spawn and module loading; under load the floor (`node -e 0`, the SDK echo) moves with it. The bin is a launcher that turns on Node\'s compile cache (dist/mcp-server.js, the cache in the user\'s own folder), so V8 compiles the bundle once per user and every later start only evaluates it; before `initialize` that is the SDK server, the CLI and the registry (ajv, jsonc-parser and plugin loading come after the handshake). The SDK echo row shows what is left is the SDK\'s own floor. What would close a gap further: evaluating less at start (handlers of tool kinds the workspace does not use, loaded on first use), or a V8 startup snapshot (not shipped: a blob is tied to one Node binary; see the notes).'),
  ratioAtMost('cold start to `initialize` vs bundled SDK echo (the SDK floor)', 1.1, 'cold.init.ours', 'cold.init.echo', 'SDK echo',
    'Start-up is parsing and evaluating the bundle. Counted in instructions (callgrind, user space, spawn to the `initialize` answer) ours took 1.15x the SDK echo before the hot-path work (864 M against 749 M, of which parsing 142 M against 85 M) and 1.04x after it (779 M): RE2JS and the generated plugin file validator are files of their own loaded on first use (src/core/bundled-module.ts; the bundle went from 742 to 469 KB), and the SDK\'s Ajv-based JSON Schema validator, which its server module imports at the top (Ajv, its formats and fast-uri evaluated and an Ajv instance built before `initialize`, for elicitation we never use), is loaded on first use (src/mcp/sdk-ajv-provider.ts, wired in esbuild.mjs). The main thread\'s CPU to the answer then measured ~1.05x the echo\'s. What is left in wall time runs beside the main thread: the first plugin load\'s file system calls on libuv\'s pool and the file watchers, which start with the process on purpose (--approve-existing approves exactly the files present at start, and the first `tools/list` does not wait for the load); on a loaded 2-core machine every extra runnable thread adds latency. Closing it further: less code parsed at start (handlers of tool kinds the workspace does not use, the CLI subcommands other than `serve`, loaded on first use), or a V8 code cache of the bundle (NODE_COMPILE_CACHE on Node >= 22.1, ~0.8x; see the startup snapshot study in the notes).'),
  {
    label: '`tools/list` with 1,000 plugin tools (one page of 100)',
    goal: '< 5 ms median',
    whyMissed: 'Client-side cost. `tools/list` is paged (100 tools, ~54 KB a page) and the server answers each page from a byte cache in well under a millisecond. What is left is the SDK `Client` reading, JSON.parsing and zod-validating a page; the bare JSON-RPC row shows the same bytes without the validation. The all-pages row is what a host that walks every page pays (10 requests for 1,000 tools). Closing it further means smaller pages (more round trips for hosts that want every tool) or shorter descriptions and schemas (the plugin authors\' choice).',
    evaluate(results) {
      const value = med(results, 'list.plugins.ours');
      return { measured: `${fmt(value)} ms`, met: value < 5, by: `${fmt(value - 5)} ms over` };
    },
  },
  ratioAtMost('`tools/list` with 1,000 plugin tools, one page, vs the built-in-only list (7 tools)', 1.5, 'list.plugins.ours', 'list.builtin.ours', 'built-in list',
    'A page of 100 plugin tools is ~54 KB against ~5 KB for the 7 built-ins: the server answers both from a byte cache, so what differs is the client reading, JSON.parsing and zod-validating 10x the bytes (the bare JSON-RPC row shows the same page without the client\'s validation). The issue\'s reference was a 14-tool list; ours has 7 built-ins, so the reference is smaller and the ratio stricter. Closing it: smaller pages (more round trips for a host that wants every tool) or shorter descriptions and schemas (the plugin authors\' choice).'),
  ratioAtMost('first `tools/call` on a fresh server (10 KB read, after a 250 ms pause) vs the SDK floor\'s first call', 2.0, 'cold.call.ours', 'cold.call.echo', 'the bundled SDK echo\'s first call',
    FIRST_CALL_WHY),
  ratioAtMost('read 10 KB', 1.0, 'read10k.ours', 'read10k.fs', 'server-filesystem',
    'Wall time of a warm call from the SDK Client, request to checked result. Per call on our side: the hot lane (one JSON.parse, a hand check of the params), the precompiled input validator, one realpath (two when a symlink is on the way), open, fstat and one read in parallel, a readlink of /proc/self/fd/N (what was opened is checked), a close not waited for. Each async fs call is a thread-pool round trip (~20-60 µs of latency on this machine under load). The server CPU rows (servers taking turns in blocks) are the steadier measure of the server\'s part.'),
  ratioAtMost('read lines 1-50 of 1 MB', 1.0, 'lines50.ours', 'lines50.fs', 'server-filesystem',
    'Wall time of a warm call from the SDK Client. Per call on our side: the hot lane, the precompiled input validator (no copy: the schema has no `default`), one realpath, open, fstat and an 8 KB read in parallel, the readlink of /proc/self/fd/N, a close not waited for, and splitting 50 lines. The server CPU row of the same read (servers taking turns in blocks) measures the server\'s work without the thread pool\'s and the pipe\'s latency; when it is met and this is not, the difference is latency on a loaded machine (a few round trips through libuv\'s pool, which server-filesystem\'s readFile makes as well), and the SDK Client\'s check of each answer.'),
  ratioAtMost('`git-status`, 5,000 files', 1.05, 'git.status.ours', 'git.status.raw', 'raw `git status --porcelain=v1 --branch`', 'A warm call runs one git process, as raw git does: the filter-driver names (`git config --get-regexp ^filter\\.`) are remembered per folder and checked by ~20 stat calls of the config files (src/core/builtins/git-filter-cache.ts). What is left is the MCP round trip of the answer (~1 ms, the tools/call floor), the anchored pathspec `-- :(literal)<folder>` and `--ignore-submodules=dirty`, and the answer\'s text and structured data: in process, the tool measured 1.06x a raw `git status` on this repository. On a loaded 2-core machine the ratio moves by more than the 5 % margin between runs.'),
  ratioAtMost('`git-diff-summary`, 5,000 files', 1.05, 'git.diff.ours', 'git.diff.raw', 'raw `git diff --stat`', 'A warm call runs one git process, as raw git does: the filter-driver names (`git config --get-regexp ^filter\\.`) are remembered per folder and checked by ~20 stat calls of the config files (src/core/builtins/git-filter-cache.ts). What is left is the MCP round trip of the answer (~1 ms, the tools/call floor), the anchored pathspec `-- :(literal)<folder>` and `--ignore-submodules=dirty`, and the answer\'s text and structured data: in process, the tool measured 1.06x a raw `git status` on this repository. On a loaded 2-core machine the ratio moves by more than the 5 % margin between runs.'),
  ratioAtMost('`git-status`, large tree', 1.05, 'large.status.ours', 'large.status.raw', 'raw `git status --porcelain=v1 --branch`', 'A warm call runs one git process, as raw git does: the filter-driver names (`git config --get-regexp ^filter\\.`) are remembered per folder and checked by ~20 stat calls of the config files (src/core/builtins/git-filter-cache.ts). What is left is the MCP round trip of the answer (~1 ms, the tools/call floor), the anchored pathspec `-- :(literal)<folder>` and `--ignore-submodules=dirty`, and the answer\'s text and structured data: in process, the tool measured 1.06x a raw `git status` on this repository. On a loaded 2-core machine the ratio moves by more than the 5 % margin between runs.'),
  ratioAtMost('`git-diff-summary`, large tree', 1.05, 'large.diff.ours', 'large.diff.raw', 'raw `git diff --stat`', 'A warm call runs one git process, as raw git does: the filter-driver names (`git config --get-regexp ^filter\\.`) are remembered per folder and checked by ~20 stat calls of the config files (src/core/builtins/git-filter-cache.ts). What is left is the MCP round trip of the answer (~1 ms, the tools/call floor), the anchored pathspec `-- :(literal)<folder>` and `--ignore-submodules=dirty`, and the answer\'s text and structured data: in process, the tool measured 1.06x a raw `git status` on this repository. On a loaded 2-core machine the ratio moves by more than the 5 % margin between runs.'),
  completenessTarget(),
  ratioAtMost('search-text literal, large tree, 1,000 of many matches (ripgrep engine)', 1.2, 'large.lit.ours.rg', 'large.lit.raw.rg', '`rg` killed after 1,000 lines',
    'The raw reference only counts newlines; the tool also spawns rg through runProcess, splits and reformats ~1,000 lines (`path:line:text`, cut at 300 characters) and sends a ~100 KB answer: ~2-3 ms in the process plus ~1 ms of MCP round trip on a search that takes ripgrep ~15 ms (bench/large-tree-decompose.mjs; notes). Measured 0.9x-1.3x across runs, most of them under load. Closing it: nothing structural is left; the fixed cost is the answer itself.'),
  ratioAtMost('search-text regex, large tree (ripgrep engine)', 1.2, 'large.re.ours.rg', 'large.re.raw.rg', '`rg` (runs to completion)',
    'Both scan the whole tree (~750 matches < maxResults); the tool\'s own cost is the same ~1-3 ms as for the literal, on ~400-500 ms. The tool\'s rg arguments (`--null`, `./`, `--no-require-git`) cost the same as the raw ones in an interleaved trial, so no systematic gap was found: this ratio swings between ~1.05x and ~1.3x from run to run with the machine\'s load (15 rounds of half-second scans).'),
  ...LIST_MAX.map((max) =>
    ratioAtMost(`list-files, large tree, maxResults ${max}`, 1.1, `large.list${max}.ours`, 'large.list.raw', '`git ls-files -co --exclude-standard -z`',
      '`git ls-files --others` walks the whole tree before it prints a name, so stopping after maxResults saves only the printing. Ours passes the folder as an absolute `:(literal)` pathspec that git matches against every path, then sorts and sends up to 5,000 names (~360 KB). In bench/large-tree-decompose.mjs the raw run took 92 ms, the same with the tool\'s pathspec and stopped after 5,001 names 101 ms, the tool in-process 103 ms and through MCP 98-101 ms: the MCP layer is not the gap, and the rest is at the edge of this machine\'s noise. The pathspec also makes git refuse a `core.worktree` or `.git` file that points the work tree away from the folder (git.ts), so dropping it for a folder that is the repository root would need that check done another way (once per folder, cached).'),
  ),
  {
    label: '8 calls in flight, 10 KB read',
    goal: '>= 1.0x server-filesystem',
    whyMissed: 'Calls per second are bound by per-call CPU on two cores shared by client, server and the rest of the machine; each async fs call costs ~20-60 µs of main-thread time here. See the read 10 KB row for the per-call work.',
    evaluate(results) {
      const ours = med(results, 'tput.8.ours');
      const theirs = med(results, 'tput.8.fs');
      const value = ours / theirs;
      return { measured: `${fmt(ours)} vs ${fmt(theirs)} calls/s = ${x(value)}`, met: value >= 1, by: `${x(value)}, ${pct(1, value)} short` };
    },
  },
  {
    label: 'loading 1,000 plugin tools from 100 files (cold process)',
    goal: '< 100 ms',
    whyMissed: 'The plugin-file validator is precompiled (Ajv standalone code generated from the schema file), so a cold load neither requires ajv nor compiles; the JSONC scans skip whitespace and strings natively. What is left is first-time work on code V8 has not optimized yet: JSON.parse of ~800 KB, the generated validator (including the draft-07 check of 1,000 inputSchemas), the handler checks and the content hashes. It measured ~100-130 ms in earlier runs on SDK 1.x (~190 ms before this work); the row above is this run\'s. A reload no longer repeats it: unchanged files are reused by their content hash (the reload row). Closing the cold figure with margin: keep validated results by content hash across processes as well, so an unchanged file skips validation and checks at start-up too.',
    evaluate(results) {
      const value = med(results, 'inproc.loadMs');
      return { measured: `${fmt(value)} ms`, met: value < 100, by: `${fmt(value - 100)} ms over` };
    },
  },
  {
    label: '`.vsix` size',
    goal: `< ${VSIX_GOAL_BYTES / 1024 / 1024} MiB`,
    whyMissed: 'The package is the two bundles (dist/extension.js and dist/mcp-server.js, each with the whole SDK, zod, ajv and re2js), the OS sandbox\'s broker (dist/sandbox-broker.mjs, the sandbox runtime) and the runtime\'s seccomp loader for x64 and arm64 (dist/vendor/, static binaries: most of what issue 34 added), the schema, the docs and the icons: TypeScript is stripped by Node\'s own module.stripTypeScriptTypes and the README pictures are on the repository (https URLs, the only ones the Details page loads), so neither is in it. A miss means something large entered the allow-list in .vscodeignore; scripts/package.mjs refuses a package of 2 MB or more.',
    evaluate(_results, vsix) {
      const value = vsix.bytes ?? Number.NaN;
      return { measured: `${fmt(value / 1024)} KiB (${vsix.how.split(':')[0]})`, met: value < VSIX_GOAL_BYTES, by: `${fmt((value - VSIX_GOAL_BYTES) / 1024)} KiB over` };
    },
  },
  {
    label: 'what recording a call in the history adds to its latency (10 KB read)',
    goal: '<= 0.2 ms',
    whyMissed: 'When the call ends the registry takes only what the history keeps (finished-call.ts: the output\'s size, and a copy of its first 16 KB when it is longer); redacting, serializing and writing happen in a batch up to 50 ms later, after the answer was sent (history-file.ts). A miss beyond noise means that work moved onto the call path, or the machine was too loaded to tell 0.2 ms apart (the CPU target above measures the same cost without the noise of wall time).',
    evaluate(results) {
      const cost = med(results, 'read10k.ours') - med(results, 'read10k.nohistory');
      return { measured: `${fmt(cost)} ms (${fmt(med(results, 'read10k.ours'))} vs ${fmt(med(results, 'read10k.nohistory'))} ms)`, met: cost <= 0.2, by: `${fmt(cost - 0.2)} ms over` };
    },
  },
  {
    label: 'a trivial code tool call vs a shell tool running `node -e 0`',
    goal: '<= 1.2x',
    whyMissed: 'Each call runs the module in its own sandboxed Node process (one is started ahead of the next call, so the call pays the channel round trip and the module import, not the Node start); a miss means the pre-started sandbox was not ready, e.g. calls closer together than a Node start.',
    evaluate(results) {
      const code = med(results, 'code.trivial.ours');
      const node = med(results, 'code.node.ours');
      return { measured: `${fmt(code / node)}x (${fmt(code)} vs ${fmt(node)} ms)`, met: code <= 1.2 * node, by: `${fmt(code / node - 1.2)}x over` };
    },
  },
  {
    label: 'a 3-step tool of `true` commands',
    goal: '<= a one-step call + 2 more spawns of `true` + 2 ms',
    whyMissed: 'The steps runner adds per step a run-condition check, a copy of the input with the earlier steps\' outputs, and a result section; a miss means one of those grew, or the spawns of this run were slower than the bare ones measured beside them.',
    evaluate(results) {
      const three = med(results, 'steps.three.ours');
      const bound = med(results, 'steps.one.ours') + 2 * med(results, 'steps.spawn.raw') + 2;
      return { measured: `${fmt(three)} ms vs ${fmt(bound)} ms allowed`, met: three <= bound, by: `${fmt(three - bound)} ms over` };
    },
  },
];
