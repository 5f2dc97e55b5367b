// Type-checks and compiles src/ and test/ with tsc into out/, builds the bundles the stdio tests
// spawn (dist/mcp-server.js), makes sure ripgrep is installed (search-text is tested with both of
// its engines) and, on Linux, what the OS sandbox needs (bubblewrap, socat; issue 34), then runs
// every compiled *.test.js under node:test, once on Node 22 and once on Node 24
// (scripts/node-runtimes.mjs: the system Node for its own major, the other from npm).
// TEST_NODES=22 (or 24, or "22,24", the default) picks the runtimes, e.g. while developing.
// A sandbox test on a machine that cannot sandbox fails with the reason and what fixes it
// (test/unit/sandbox): nothing is skipped.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { nodeFor, versionOf } from './node-runtimes.mjs';

const root = new URL('..', import.meta.url).pathname;
const run = (file, args) => execFileSync(file, args, { cwd: root, stdio: 'inherit' });

const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
/** A command as root: directly when we are, else through `sudo -n` (never a password prompt). */
const asRoot = (command, args) =>
  spawnSync(sudo[0] ?? command, [...sudo.slice(1), ...(sudo.length ? [command] : []), ...args], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });

/**
 * Each package whose program is not on PATH, installed with apt-get (as scripts/e2e/setup.sh
 * installs what the e2e suite needs; SKIP_APT=1 turns it off): ripgrep for the search tests
 * (without it the ripgrep half fails and says how to install it), and on Linux bubblewrap and
 * socat for the OS sandbox (without them the sandbox tests fail with the probe's reason).
 */
function ensureAptPackages(packages) {
  const missing = packages.filter(({ check }) => spawnSync(check[0], check.slice(1), { stdio: 'ignore' }).status !== 0).map(({ name }) => name);
  if (missing.length === 0 || process.env.SKIP_APT === '1') {
    return;
  }
  console.log(`[test-unit] installing ${missing.join(', ')} (apt-get install ${missing.join(' ')})`);
  if (asRoot('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing]).status !== 0) {
    asRoot('apt-get', ['update', '-qq']);
    asRoot('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing]);
  }
}

/**
 * Ubuntu 24.04 and later keep unprivileged programs from making user namespaces, which bubblewrap
 * needs (docs/sandbox.md): turned off for this machine when it is on and we may (CI runners).
 */
function allowUserNamespaces() {
  const knob = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';
  if (process.platform === 'linux' && existsSync(knob) && readFileSync(knob, 'utf8').trim() === '1' && process.env.SKIP_APT !== '1') {
    console.log('[test-unit] sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (the OS sandbox needs user namespaces)');
    asRoot('sysctl', ['-w', 'kernel.apparmor_restrict_unprivileged_userns=0']);
  }
}

ensureAptPackages([
  { name: 'ripgrep', check: ['rg', '--version'] },
  ...(process.platform === 'linux'
    ? [
        { name: 'bubblewrap', check: ['bwrap', '--version'] },
        { name: 'socat', check: ['socat', '-V'] },
      ]
    : []),
]);
allowUserNamespaces();
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
