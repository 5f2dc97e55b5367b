// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios,
// pinned in package.json) against the built server (dist/mcp-server.js) serving
// test/conformance/workspace, and fails when a scenario of test/conformance/expected-pass.json
// does not pass. The suite speaks Streamable HTTP; supergateway bridges it to the stdio server,
// listening on 127.0.0.1 only (scripts/conformance/loopback-only.cjs). Both need Node >= 22
// (scripts/node-runtimes.mjs provides it). Prints how many scenarios pass.
//   node scripts/test-conformance.mjs [--scenario NAME] [--keep]   (--keep: keep the results dir)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { nodeFor } from './node-runtimes.mjs';

const root = new URL('..', import.meta.url).pathname;
const SUITE_TIMEOUT_MS = 5 * 60_000;
const GATEWAY_START_TIMEOUT_MS = 20_000;

const args = process.argv.slice(2);
const scenario = args.includes('--scenario') ? args[args.indexOf('--scenario') + 1] : undefined;
const keep = args.includes('--keep');
const expected = JSON.parse(readFileSync(path.join(root, 'test/conformance/expected-pass.json'), 'utf8')).scenarios;

/** A word for a POSIX shell (supergateway runs the server command line through one). */
const shellWord = (word) => `'${word.replaceAll("'", `'\\''`)}'`;

/** A port that was free on 127.0.0.1 a moment ago. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once 127.0.0.1:port accepts a connection; rejects after the timeout. */
async function waitForPort(port, gateway) {
  const deadline = Date.now() + GATEWAY_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (gateway.exitCode !== null) {
      throw new Error(`supergateway exited with status ${gateway.exitCode} before listening`);
    }
    const open = await new Promise((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`supergateway did not listen on 127.0.0.1:${port} within ${GATEWAY_START_TIMEOUT_MS} ms`);
}

/** Runs a command to its end; resolves to its exit status (null when the timeout killed it). */
function run(command, commandArgs, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, options);
    const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_TIMEOUT_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Scenario name -> passed (no check failed), from the suite's results directory. */
function outcomes(resultsDir) {
  const byScenario = new Map();
  for (const entry of readdirSync(resultsDir, { withFileTypes: true })) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry.name);
    if (!entry.isDirectory() || match === null) continue;
    const checks = JSON.parse(readFileSync(path.join(resultsDir, entry.name, 'checks.json'), 'utf8'));
    byScenario.set(match[1], checks.every((check) => check.status !== 'FAILURE'));
  }
  return byScenario;
}

async function main() {
  const node = nodeFor(22);
  const work = mkdtempSync(path.join(tmpdir(), 'wt-conformance-'));
  const resultsDir = path.join(work, 'results');
  const serverCommand = [
    node,
    path.join(root, 'dist/mcp-server.js'),
    '--workspace',
    path.join(root, 'test/conformance/workspace'),
    '--no-builtins',
    '--approve-existing',
    '--no-history',
    '--log-level',
    'warn',
  ]
    .map(shellWord)
    .join(' ');
  const port = await freePort();
  // Its own process group, so that it and the servers it spawns end with the run.
  const gateway = spawn(
    node,
    [
      '--require',
      path.join(root, 'scripts/conformance/loopback-only.cjs'),
      path.join(root, 'node_modules/supergateway/dist/index.js'),
      '--stdio',
      serverCommand,
      '--outputTransport',
      'streamableHttp',
      '--stateful',
      '--port',
      String(port),
      '--logLevel',
      'none',
    ],
    // The server's approvals and history stay in the temp dir (it writes neither here, but a
    // default path must not point at the user's).
    { cwd: work, detached: true, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, XDG_CONFIG_HOME: work, XDG_STATE_HOME: work } },
  );
  try {
    await waitForPort(port, gateway);
    const suiteArgs = ['server', '--url', `http://127.0.0.1:${port}/mcp`, '-o', resultsDir, ...(scenario === undefined ? ['--suite', 'all'] : ['--scenario', scenario])];
    console.log(`[conformance] running the suite against dist/mcp-server.js on test/conformance/workspace (bridge on 127.0.0.1:${port})`);
    // The suite exits 1 whenever a scenario fails, expected or not: the verdict is ours, below.
    await run(node, [path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'), ...suiteArgs], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    try {
      process.kill(-gateway.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  const results = outcomes(resultsDir);
  const passed = [...results].filter(([, ok]) => ok).map(([name]) => name);
  const failed = [...results].filter(([, ok]) => !ok).map(([name]) => name);
  const considered = scenario === undefined ? expected : expected.filter((name) => name === scenario);
  const regressions = considered.filter((name) => results.get(name) !== true);
  const unlisted = passed.filter((name) => !expected.includes(name));
  console.log(`[conformance] ${passed.length} of ${results.size} scenarios pass`);
  console.log(`[conformance] failing (not expected to pass yet): ${failed.filter((name) => !regressions.includes(name)).join(', ') || '(none)'}`);
  if (unlisted.length > 0) {
    console.log(`[conformance] passing but not in test/conformance/expected-pass.json (add them): ${unlisted.join(', ')}`);
  }
  if (regressions.length > 0) {
    console.error(`[conformance] FAILED: expected to pass but did not: ${regressions.join(', ')} (results in ${resultsDir})`);
    process.exitCode = 1;
  } else if (!keep) {
    rmSync(work, { recursive: true, force: true });
  }
  if (keep) {
    console.log(`[conformance] results kept in ${resultsDir}`);
  }
}

main().catch((error) => {
  console.error(`[conformance] ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
