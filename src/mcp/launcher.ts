/**
 * Entry point of dist/mcp-server.js (the bin): turns on Node's compile cache, then loads the
 * server bundle (dist/mcp-server-main.js, built from main.ts) from beside itself. The cache has
 * to be on before the bundle is compiled, so it cannot be turned on from inside the bundle:
 * with it, a later start reuses V8's code for the bundle instead of parsing and compiling it
 * again (measured in BENCHMARKS.md, "Compile-cache launcher").
 *
 * The cache lives in the user's own cache folder (compile-cache-dir.ts), not in Node's default
 * (node-compile-cache in the OS temporary directory): on a Linux machine with a shared /tmp,
 * another local user could create that folder first and hand this server V8 code to run, which
 * Node accepts (measured: a cache file owned by another user was read and used). NODE_COMPILE_CACHE
 * set by the user wins (Node turned the cache on before this runs); NODE_DISABLE_COMPILE_CACHE=1
 * turns it off. A folder that cannot be made, a read-only one, a Node without
 * `module.enableCompileCache` (before 22.1) or a stale or broken cache only mean an uncached start.
 * process.argv[1] stays this file, so the server's own path (client configurations, `approve`
 * commands) is unchanged.
 */
import * as nodeModule from 'node:module';
import * as path from 'node:path';
import { compileCacheDir } from './compile-cache-dir';
import { meetsFloor, nodeFloorMessage } from './node-floor';

// First of all: on a Node below the floor, say so and stop (node-floor.ts says why here).
if (!meetsFloor(process.version)) {
  process.stderr.write(nodeFloorMessage(process.version, process.execPath));
  process.exit(1);
}

/** `module.enableCompileCache` where this Node has it (22.1 and later). */
const enableCompileCache = (nodeModule as { enableCompileCache?: (directory?: string) => unknown }).enableCompileCache;
if (enableCompileCache !== undefined && process.env.NODE_COMPILE_CACHE === undefined) {
  const directory = compileCacheDir();
  if (directory !== undefined) {
    try {
      enableCompileCache(directory);
    } catch {
      // An uncached start: the cache is only ever a speed-up.
    }
  }
}
// A computed path: esbuild leaves the require alone, so the bundle stays a file of its own.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(path.join(__dirname, 'mcp-server-main.js'));
