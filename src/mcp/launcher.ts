/**
 * Entry point of dist/mcp-server.js (the bin): turns on Node's compile cache, then loads the
 * server bundle (dist/mcp-server-main.js, built from main.ts) from beside itself. The cache has
 * to be on before the bundle is compiled, so it cannot be turned on from inside the bundle:
 * with it, a later start reuses V8's code for the ~600 KB bundle instead of parsing and
 * compiling it again (measured in BENCHMARKS.md, "SDK v2 migration"). The cache lives in the
 * OS temporary directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off, and any failure to use it
 * only means an uncached start. process.argv[1] stays this file, so the server's own path
 * (client configurations, `approve` commands) is unchanged.
 */
import { enableCompileCache } from 'node:module';
import * as path from 'node:path';

enableCompileCache();
// A computed path: esbuild leaves the require alone, so the bundle stays a file of its own.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(path.join(__dirname, 'mcp-server-main.js'));
