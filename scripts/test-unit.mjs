// Type-checks and compiles src/ and test/ with tsc into out/, builds the bundles the stdio tests
// spawn (dist/mcp-server.js), makes sure ripgrep is installed (search-text is tested with both of
// its engines), then runs every compiled *.test.js under node:test, once on Node 22 and once on
// Node 24 (scripts/node-runtimes.mjs: the system Node for its own major, the other from npm).
// TEST_NODES=22 (or 24, or "22,24", the default) picks the runtimes, e.g. while developing.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { nodeFor, versionOf } from './node-runtimes.mjs';

const root = new URL('..', import.meta.url).pathname;
const run = (file, args) => execFileSync(file, args, { cwd: root, stdio: 'inherit' });

/**
 * ripgrep on PATH, installed with apt-get when missing (as scripts/e2e/setup.sh installs what the
 * e2e suite needs; SKIP_APT=1 turns it off). Without it the ripgrep half of the search tests fails
 * and says how to install it.
 */
function ensureRipgrep() {
  if (spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0 || process.env.SKIP_APT === '1') {
    return;
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const apt = (...args) => spawnSync(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), ...args], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  console.log('[test-unit] installing ripgrep (apt-get install ripgrep) for the search tests');
  if (apt('install', '-y', '-qq', '--no-install-recommends', 'ripgrep').status !== 0) {
    apt('update', '-qq');
    apt('install', '-y', '-qq', '--no-install-recommends', 'ripgrep');
  }
}

ensureRipgrep();
rmSync(join(root, 'out'), { recursive: true, force: true });
run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.']);
run(process.execPath, [join(root, 'esbuild.mjs')]);

/** Every compiled test file below out/test/unit, in a stable order. */
function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) return findTests(full);
      return entry.name.endsWith('.test.js') ? [full] : [];
    });
}

const files = findTests(join(root, 'out/test/unit'));
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
const majors = (process.env.TEST_NODES ?? '22,24').split(',').map((major) => Number(major.trim()));
let runtimes;
try {
  runtimes = majors.map((major) => ({ major, node: nodeFor(major) }));
} catch (error) {
  console.error(`[test-unit] ${error.message}`);
  process.exit(1);
}
const oldNode = nodeFor(20);
const outcomes = runtimes.map(({ node }) => {
  const version = versionOf(node);
  console.log(`[test-unit] ${selected.length} test files on Node ${version} (${node})`);
  // A Node below the server's floor, for the tests that check the server names the Node it needs.
  const env = { ...process.env, WORKSPACE_TOOLS_OLD_NODE: oldNode };
  const status = spawnSync(node, ['--test', '--test-reporter=spec', ...selected], { cwd: root, stdio: 'inherit', env }).status;
  return { version, passed: status === 0 };
});
console.log(`[test-unit] ${outcomes.map(({ version, passed }) => `Node ${version}: ${passed ? 'passed' : 'FAILED'}`).join('; ')}`);
process.exitCode = outcomes.every(({ passed }) => passed) ? 0 : 1;
