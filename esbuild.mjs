// Two bundles from one script (as microsoft/vscode-eslint does):
//  - dist/extension.js: the VS Code adapter; `vscode` is provided by the extension host.
//  - dist/mcp-server.js: the standalone MCP stdio server; no externals at all, so a stray
//    `vscode` import anywhere under src/core or src/mcp fails this build.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
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
    outfile: 'dist/extension.js',
    external: ['vscode'],
  }),
  esbuild.context({
    ...common,
    entryPoints: ['src/mcp/main.ts'],
    outfile: 'dist/mcp-server.js',
    banner: { js: '#!/usr/bin/env node' },
  }),
]);

if (watch) {
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(contexts.map((context) => context.rebuild()));
  await Promise.all(contexts.map((context) => context.dispose()));
}
