// Two bundles from one script (as microsoft/vscode-eslint does):
//  - dist/extension.js: the VS Code adapter; `vscode` is provided by the extension host.
//  - dist/mcp-server.js: the standalone MCP stdio server (also the npm package's bin); no
//    externals, so a stray `vscode` import anywhere under src/core or src/mcp fails this build.
// and the file both of them load from beside themselves:
//  - dist/code-runner.js: the program a code tool's sandbox runs (Node built-ins only).
// Options: --production (minified, no source maps), --watch, --outdir DIR (default dist; the
// packaging script builds the npm package's copy elsewhere while tests use dist/).
import * as esbuild from 'esbuild';
import * as path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const outdirIndex = process.argv.indexOf('--outdir');
const outdir = outdirIndex === -1 ? 'dist' : process.argv[outdirIndex + 1];
if (!outdir) {
  throw new Error('--outdir needs a directory');
}

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  // engines.node is >=22.13 (module.stripTypeScriptTypes); VS Code 1.101's runtime is Node 22.15.
  target: 'node22',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // Prefer ES module builds: jsonc-parser's UMD `main` hides its requires from the bundler.
  mainFields: ['module', 'main'],
};

const contexts = await Promise.all([
  esbuild.context({
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: path.join(outdir, 'extension.js'),
    external: ['vscode'],
  }),
  esbuild.context({
    ...common,
    entryPoints: ['src/mcp/main.ts'],
    outfile: path.join(outdir, 'mcp-server.js'),
    banner: { js: '#!/usr/bin/env node' },
  }),
  esbuild.context({
    ...common,
    entryPoints: ['src/core/handlers/code/code-runner.ts'],
    outfile: path.join(outdir, 'code-runner.js'),
  }),
]);

if (watch) {
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(contexts.map((context) => context.rebuild()));
  await Promise.all(contexts.map((context) => context.dispose()));
}
