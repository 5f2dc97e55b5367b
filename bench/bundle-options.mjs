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
