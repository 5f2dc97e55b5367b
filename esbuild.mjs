// Two bundles from one script (as microsoft/vscode-eslint does):
//  - dist/extension.js: the VS Code adapter; `vscode` is provided by the extension host.
//  - dist/mcp-server.js: the standalone MCP stdio server; no externals but amaro (below), so a
//    stray `vscode` import anywhere under src/core or src/mcp fails this build.
// and two files both of them load from beside themselves:
//  - dist/code-runner.js: the program a code tool's sandbox runs (Node built-ins only).
//  - dist/amaro.js: the TypeScript type stripper (3.7 MB of WebAssembly), loaded on the first
//    TypeScript code module only, so that start-up never parses it.
//  - dist/re2js.js and dist/plugin-file-validator.js: the linear-time regular expression engine
//    and the generated plugin file validator (~270 KB together, a third of either bundle),
//    loaded on first use (src/core/bundled-module.ts), so that start-up does not parse them.
import * as esbuild from 'esbuild';
import * as path from 'node:path';

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

/**
 * Points the SDK's own import of its Ajv-based JSON Schema validator at src/mcp/sdk-ajv-provider.ts,
 * which loads it on first use: imported at the top of the SDK's server module, it had Ajv, its
 * formats and fast-uri evaluated (and an Ajv instance built) before `initialize` was answered.
 * Fails the build when the SDK no longer imports it, so an SDK upgrade cannot drop it unnoticed.
 */
const lazySdkAjv = {
  name: 'lazy-sdk-ajv',
  setup(build) {
    let redirected = 0;
    const sdk = `${path.sep}@modelcontextprotocol${path.sep}sdk${path.sep}`;
    build.onStart(() => {
      redirected = 0;
    });
    build.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (args) => {
      if (!args.importer.includes(sdk)) {
        return undefined;
      }
      redirected += 1;
      return { path: path.resolve('src/mcp/sdk-ajv-provider.ts') };
    });
    build.onEnd((result) => {
      if (result.errors.length === 0 && redirected === 0) {
        return { errors: [{ text: 'lazy-sdk-ajv: the MCP SDK no longer imports validation/ajv-provider.js; update the plugin (esbuild.mjs)' }] };
      }
      return undefined;
    });
  },
};

const contexts = await Promise.all([
  esbuild.context({
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode', 'amaro', 're2js'],
  }),
  esbuild.context({
    ...common,
    entryPoints: ['src/mcp/main.ts'],
    outfile: 'dist/mcp-server.js',
    external: ['amaro', 're2js'],
    plugins: [lazySdkAjv],
    banner: { js: '#!/usr/bin/env node' },
  }),
  esbuild.context({
    ...common,
    entryPoints: ['src/core/handlers/code/code-runner.ts'],
    outfile: 'dist/code-runner.js',
  }),
  esbuild.context({
    ...common,
    entryPoints: ['node_modules/re2js/build/index.cjs'],
    outfile: 'dist/re2js.js',
  }),
  esbuild.context({
    ...common,
    entryPoints: ['src/core/plugins/plugin-file-validator.generated.ts'],
    outfile: 'dist/plugin-file-validator.js',
  }),
  esbuild.context({
    ...common,
    entryPoints: ['node_modules/amaro/dist/index.js'],
    outfile: 'dist/amaro.js',
    // Already minified WebAssembly glue: a source map of it helps nobody.
    sourcemap: false,
  }),
]);

if (watch) {
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(contexts.map((context) => context.rebuild()));
  await Promise.all(contexts.map((context) => context.dispose()));
}
