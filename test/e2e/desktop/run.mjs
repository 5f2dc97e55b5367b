// The e2e suite (test/e2e/driver) in DESKTOP VS Code via @vscode/test-electron: `npm run test:desktop`.
// The same driver and fixture as scripts/e2e/run.sh (code-server), scenario "desktop": trusted (trust disabled), and
// no browser to answer modal dialogs, so the checks flagged `needsDialogs` are not run (the result lists them; the
// code-server run covers them). Needs network access to update.code.visualstudio.com to download VS Code (cached in
// ${WORKSPACE_TOOLS_E2E_CACHE:-~/.cache/workspace-tools-e2e}/vscode-desktop afterwards); when that fails it stops at once with a message and "0 passed, 1 failed".
// Last line: "N passed, N failed"; exit status 0 only if nothing failed.
// Env knobs:
//   VSCODE_VERSION=1.139.1   VS Code to download ("stable", "insiders" or a version; default: the code-server run's)
//   E2E_SKIP_BUILD=1         do not run `node esbuild.mjs --production` first
//   E2E_DOWNLOAD_TIMEOUT_S=120   give up downloading after this long
//   E2E_TIMEOUT_S=240        how long suite.js waits for the driver's result
//   KEEP_RUN=1               keep the run directory (/tmp/wtdesk.XXXX) even when everything passed
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../..');
const DRIVER = path.join(ROOT, 'test/e2e/driver');
const VERSION = process.env.VSCODE_VERSION || '1.139.1';
// outside the clone, beside the code-server run's tools (scripts/e2e/env.sh)
const CACHE = path.join(process.env.WORKSPACE_TOOLS_E2E_CACHE || path.join(os.homedir(), '.cache/workspace-tools-e2e'), 'vscode-desktop');
const log = (m) => console.log(`[e2e-desktop ${new Date().toTimeString().slice(0, 8)}] ${m}`);
const fail = (m, base, keep = true) => {
  log(m);
  if (base && keep) log(`run dir kept: ${base}`);
  else if (base) fs.rmSync(base, { recursive: true, force: true });
  console.log('0 passed, 1 failed');
  process.exit(1);
};

// Desktop VS Code needs a display: on Linux without one, run again under xvfb-run when it exists.
if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY && !process.env.E2E_UNDER_XVFB) {
  const xvfb = spawnSync('sh', ['-c', 'command -v xvfb-run'], { encoding: 'utf8' }).stdout.trim();
  if (xvfb) {
    const r = spawnSync(xvfb, ['-a', process.execPath, fileURLToPath(import.meta.url)], { stdio: 'inherit', env: { ...process.env, E2E_UNDER_XVFB: '1' } });
    process.exit(r.status ?? 1);
  }
  log('no DISPLAY and no xvfb-run: VS Code may fail to start (install xvfb or run in a desktop session)');
}

const t0 = Date.now();
if (!process.env.E2E_SKIP_BUILD) {
  const b = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'inherit' });
  if (b.status !== 0) fail('build failed');
}

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'wtdesk.'));
const ws = path.join(base, 'ws');
const ud = path.join(base, 'ud');
const resultFile = path.join(base, 'result.json');
const fx = spawnSync('bash', [path.join(ROOT, 'scripts/e2e/make-fixture.sh'), ws], { stdio: 'inherit' });
if (fx.status !== 0) fail('making the fixture workspace failed', base);
fs.mkdirSync(path.join(ud, 'User'), { recursive: true });
fs.writeFileSync(path.join(ud, 'User', 'settings.json'), JSON.stringify({
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'git.autofetch': false,
  'git.openRepositoryInParentFolders': 'never',
  'update.mode': 'none',
}, null, 2));

// Download first, on its own, so that an unreachable host ends the run quickly with a clear message.
log(`downloading VS Code ${VERSION} (cached in ${CACHE})`);
let vscodeExecutablePath;
const limitS = Number(process.env.E2E_DOWNLOAD_TIMEOUT_S || 120);
try {
  vscodeExecutablePath = await Promise.race([
    downloadAndUnzipVSCode({ version: VERSION, cachePath: CACHE, timeout: 15000, extensionDevelopmentPath: [ROOT, DRIVER] }),
    new Promise((_, rej) => setTimeout(() => rej(new Error(`no download after ${limitS} s`)), limitS * 1000).unref()),
  ]);
} catch (e) {
  const why = [e && e.message, e && e.cause && e.cause.message].filter(Boolean).join(': ');
  fail(`cannot download VS Code ${VERSION}: ${why || e}. The desktop run needs https://update.code.visualstudio.com; ` +
    'where it is unreachable use `npm run test:e2e` (code-server, same checks).', base, false);
}
log(`VS Code at ${vscodeExecutablePath}`);

let code;
try {
  code = await runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: [ROOT, DRIVER],
    extensionTestsPath: path.join(HERE, 'suite.js'),
    // --disable-extensions leaves the development extensions (ours and the driver) enabled
    launchArgs: [ws, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', ud, '--extensions-dir', path.join(base, 'ext')],
    extensionTestsEnv: {
      E2E_RESULT_FILE: resultFile,
      E2E_SCENARIO: 'desktop',
      E2E_EXPECT_TRUSTED: 'true',
      E2E_TIMEOUT_S: process.env.E2E_TIMEOUT_S || '240',
    },
  });
} catch (e) {
  code = typeof e === 'number' ? e : 1;
  log(`VS Code run failed: ${(e && e.message) || e}`);
}

// suite.js printed the checks in the extension host; the summary again here, as the last line.
let passed = 0, failed = 1;
try {
  const r = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  passed = r.checks.filter((c) => c.pass).length;
  failed = r.checks.length - passed;
  if (r.info && r.info.notRun) log(`${r.info.notRun.reason}: ${r.info.notRun.checks.length} checks`);
} catch { log(`no driver result at ${resultFile}`); }
if (code !== 0 && failed === 0) failed = 1;
if (failed === 0 && !process.env.KEEP_RUN) fs.rmSync(base, { recursive: true, force: true });
else log(`run dir kept: ${base}`);
log(`total wall time ${((Date.now() - t0) / 1000).toFixed(1)}s (VS Code exit code ${code})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
