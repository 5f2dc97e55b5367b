// The esbuild options esbuild.mjs uses for dist/mcp-server.js in production, for the bundles the
// benchmarks build themselves (the echo server, the in-process core, the snapshot entry), so
// every bundle compared is built alike.
const root = new URL('..', import.meta.url).pathname;

export const PRODUCTION_BUNDLE = Object.freeze({
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  minify: true,
  legalComments: 'none',
  mainFields: ['module', 'main'],
  logLevel: 'warning',
  absWorkingDir: root,
});

/** The files esbuild.mjs builds beside the bundles, loaded on first use (src/core/bundled-module.ts): [entry, file]. */
export const LAZY_MODULES = Object.freeze([
  ['node_modules/re2js/build/index.cjs', 're2js.js'],
  ['src/core/plugins/plugin-file-validator.generated.ts', 'plugin-file-validator.js'],
]);
