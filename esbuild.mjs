// Two bundles from one script (as microsoft/vscode-eslint does):
//  - dist/extension.js: the VS Code adapter; `vscode` is provided by the extension host.
//  - dist/mcp-server.js (the npm package's bin, a launcher that turns on Node's compile cache) and
//    dist/mcp-server-main.js: the standalone MCP stdio server; no
//    externals but re2js (loaded from beside it, below), so a stray `vscode` import anywhere under src/core or src/mcp fails this build.
// and the files both of them load from beside themselves:
//  - dist/code-runner.js: the program a code tool's sandbox runs (Node built-ins only).
//  - dist/re2js.js and dist/plugin-file-validator.js: the linear-time regular expression engine
//    and the generated plugin file validator (~270 KB together, a third of either bundle),
//    loaded on first use (src/core/bundled-module.ts), so that start-up does not parse them;
//    dist/toml-patch.js likewise, the TOML editor only `init` uses.
//  - dist/sandbox-broker.mjs: the process that hosts Anthropic's sandbox runtime for shell and
//    imported tools (src/core/sandbox/sandbox-broker.ts), an ES module because the runtime finds
//    its prebuilt programs beside itself through import.meta.url; those programs are copied to
//    dist/vendor/ (copySandboxVendor). Neither engine bundle contains the runtime.
// Options: --production (minified, no source maps), --watch, --outdir DIR (default dist; the
// packaging script builds the npm package's copy elsewhere while tests use dist/).
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { writeThirdPartyNotices } from './scripts/third-party-notices.mjs';

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
  // engines.node is >=22.14 (module.stripTypeScriptTypes came in 22.13); VS Code 1.101's runtime is Node 22.15.
  target: 'node22',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // Licenses travel as dist/THIRD-PARTY-NOTICES.txt (below), whole, instead of scattered comments.
  legalComments: 'none',
  metafile: true,
  // Prefer ES module builds: jsonc-parser's UMD `main` hides its requires from the bundler.
  mainFields: ['module', 'main'],
};

/**
 * Points the SDK's own import of its Node shim (`@modelcontextprotocol/server/_shims`, which
 * imports the SDK's vendored Ajv-based JSON Schema validator) at src/mcp/sdk-ajv-provider.ts, which
 * exports the same names and loads the validator on first use: imported at the top of the SDK's
 * server modules, it had Ajv and its formats evaluated before the first answer. Fails the build
 * when the SDK no longer imports the shim, so an SDK upgrade cannot drop it unnoticed.
 */
const lazySdkAjv = {
  name: 'lazy-sdk-ajv',
  setup(build) {
    let redirected = 0;
    const sdk = `${path.sep}@modelcontextprotocol${path.sep}server${path.sep}`;
    build.onStart(() => {
      redirected = 0;
    });
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, (args) => {
      if (!args.importer.includes(sdk)) {
        return undefined;
      }
      redirected += 1;
      return { path: path.resolve('src/mcp/sdk-ajv-provider.ts') };
    });
    build.onEnd((result) => {
      if (result.errors.length === 0 && redirected === 0) {
        return { errors: [{ text: 'lazy-sdk-ajv: the MCP SDK no longer imports @modelcontextprotocol/server/_shims; update the plugin (esbuild.mjs)' }] };
      }
      return undefined;
    });
  },
};

const contexts = await Promise.all([
  esbuild.context({
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: path.join(outdir, 'extension.js'),
    external: ['vscode', 're2js', '@decimalturn/toml-patch'],
  }),
  // The bin is a launcher that turns on Node's compile cache before it loads the server bundle
  // (src/mcp/launcher.ts says why); the bundle itself is dist/mcp-server-main.js.
  esbuild.context({
    ...common,
    entryPoints: ['src/mcp/launcher.ts'],
    outfile: path.join(outdir, 'mcp-server.js'),
    banner: { js: '#!/usr/bin/env node' },
  }),
  esbuild.context({
    ...common,
    entryPoints: ['src/mcp/main.ts'],
    outfile: path.join(outdir, 'mcp-server-main.js'),
    external: ['re2js', '@decimalturn/toml-patch'],
    plugins: [lazySdkAjv],
  }),
  esbuild.context({
    ...common,
    entryPoints: ['src/core/handlers/code/code-runner.ts'],
    outfile: path.join(outdir, 'code-runner.js'),
  }),
  esbuild.context({
    ...common,
    entryPoints: ['node_modules/re2js/build/index.cjs'],
    outfile: path.join(outdir, 're2js.js'),
  }),
  esbuild.context({
    ...common,
    entryPoints: ['src/core/plugins/plugin-file-validator.generated.ts'],
    outfile: path.join(outdir, 'plugin-file-validator.js'),
  }),
  // The TOML editor only `init --codex` uses (src/core/client-config/codex-toml.ts).
  esbuild.context({
    ...common,
    entryPoints: ['node_modules/@decimalturn/toml-patch/dist/toml-patch.js'],
    outfile: path.join(outdir, 'toml-patch.js'),
  }),
  esbuild.context({
    ...common,
    format: 'esm',
    entryPoints: ['src/core/sandbox/sandbox-broker.ts'],
    outfile: path.join(outdir, 'sandbox-broker.mjs'),
    // The runtime's CommonJS dependencies (node-forge) require Node's modules: an ES module has no `require`.
    banner: { js: "import { createRequire as __wtCreateRequire } from 'node:module';\nconst require = __wtCreateRequire(import.meta.url);" },
  }),
]);

/**
 * The sandbox runtime's prebuilt programs, where it looks for them beside its bundle
 * (dist/vendor/...): the seccomp filter loader for each Linux architecture, and the agent that
 * points a JVM at its proxy. Not its Windows helper (srt-win.exe, 8 MB): Windows is not sandboxed yet.
 */
function copySandboxVendor() {
  const from = path.join('node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor');
  const files = [
    ['seccomp', 'x64', 'apply-seccomp'],
    ['seccomp', 'arm64', 'apply-seccomp'],
    ['java-proxy-agent', 'srt-proxy-agent.jar'],
  ];
  for (const parts of files) {
    const target = path.join(outdir, 'vendor', ...parts);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(from, ...parts), target);
    chmodSync(target, parts[0] === 'seccomp' ? 0o755 : 0o644);
  }
}

copySandboxVendor();
if (watch) {
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  const results = await Promise.all(contexts.map((context) => context.rebuild()));
  await Promise.all(contexts.map((context) => context.dispose()));
  writeThirdPartyNotices(results.map((result) => result.metafile), path.join(outdir, 'THIRD-PARTY-NOTICES.txt'));
}
