/**
 * `node bench/large-tree-decompose.mjs [lit|re|list] [rounds]`: where the time of one large-tree
 * case goes (bench/notes.md, "Large tree: how to read it"). Builds the 30,000-file tree in a
 * temp directory, then times, interleaved: the raw program, the tool called in-process through
 * the bundled core (no MCP), and the tool through the MCP server with a bare JSON-RPC client and
 * with the SDK client. Needs `npm run build` first (dist/mcp-server.js).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { PRODUCTION_BUNDLE } from './bundle-options.mjs';
import { callOk, connect, connectRaw, time } from './mcp-clients.mjs';
import { LARGE_QUERIES, RAW_LIST_ARGS, rawRecords, rawSearchArgs, SEARCH_MAX } from './large-tree-bench.mjs';
import { createLargeTree } from './large-tree.mjs';
import { summarize } from './stats.mjs';

const root = new URL('..', import.meta.url).pathname;
const which = process.argv[2] ?? 'lit';
const rounds = Number(process.argv[3] ?? 45);

const dir = mkdtempSync(join(tmpdir(), 'wt-decompose-'));
try {
  const tree = createLargeTree(join(dir, 'tree'), join(root, 'node_modules'), { files: 30_000, modified: 200 }).path;
  const core = join(dir, 'core.js');
  await esbuild.build({
    ...PRODUCTION_BUNDLE,
    entryPoints: [join(root, 'bench/core-entry.mjs')],
    outfile: core,
  });
  const { createWorkspaceRegistry, ApproveAllPolicy, DEFAULT_LIMITS } = createRequire(import.meta.url)(core);
  const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const registry = createWorkspaceRegistry({
    folders: () => [{ name: 'ws', path: tree }],
    includeBuiltins: true,
    includePlugins: false,
    approval: new ApproveAllPolicy(),
    limits: () => DEFAULT_LIMITS,
    env: process.env,
    logger: silent,
  });
  await registry.initialize();
  const spec = { id: 'ours', label: 'ours', args: [join(root, 'dist/mcp-server.js'), '--workspace', tree] };
  const sdk = await connect(spec);
  const bare = await connectRaw(spec);
  const [tool, input, raw] =
    which === 'list'
      ? ['list-files', { maxResults: 5000 }, [
          ['raw git ls-files, to completion', () => rawRecords('git', RAW_LIST_ARGS, tree, { separator: 0 })],
          ['raw, the tool\'s args and pathspec, killed after 5,001', () => rawRecords('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', `:(literal)${tree}`], tree, { separator: 0, limit: 5001 })],
        ]]
      : ['search-text', { ...LARGE_QUERIES[which], maxResults: SEARCH_MAX }, [
          [`raw rg, killed after ${SEARCH_MAX} lines`, () => rawRecords('rg', rawSearchArgs(which).rg, tree, { limit: SEARCH_MAX })],
        ]];
  const cases = [
    ...raw,
    ['the tool in-process (no MCP)', () => registry.call(tool, input, new AbortController().signal)],
    ['through MCP, bare JSON-RPC client', () => bare.request('tools/call', { name: tool, arguments: input })],
    ['through MCP, SDK client', () => callOk(sdk.client, tool, input)],
  ];
  const samples = new Map(cases.map(([key]) => [key, []]));
  for (let i = 0; i < rounds + 3; i++) {
    for (const [key, operation] of i % 2 === 0 ? cases : [...cases].reverse()) {
      const ms = await time(operation);
      if (i >= 3) {
        samples.get(key).push(ms);
      }
    }
  }
  process.stdout.write(`${tool} ${JSON.stringify(input)}, ${rounds} interleaved rounds\n`);
  for (const [key, values] of samples) {
    const s = summarize(values);
    process.stdout.write(`${key.padEnd(56)} ${s.median.toFixed(2)} ms (${s.min.toFixed(2)}-${s.max.toFixed(2)})\n`);
  }
  process.stdout.write(`answer: ${bare.lastBytes()} bytes of JSON-RPC\n`);
  await sdk.client.close();
  await bare.close();
  registry.dispose();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
