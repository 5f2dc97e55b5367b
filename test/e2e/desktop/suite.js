'use strict';
// extensionTestsPath of the desktop run (test/e2e/desktop/run.mjs, @vscode/test-electron). The checks themselves run
// in the driver extension (test/e2e/driver, loaded as a second extensionDevelopmentPath, E2E_SCENARIO=desktop); this
// module waits for the driver's result file, prints each check and "N passed, N failed", and fails the run (rejects)
// if any check failed or no result came. Env: E2E_RESULT_FILE (required), E2E_TIMEOUT_S (default 240).
const fs = require('fs');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function run() {
  const file = process.env.E2E_RESULT_FILE;
  if (!file) throw new Error('E2E_RESULT_FILE is not set');
  const deadline = Date.now() + Number(process.env.E2E_TIMEOUT_S || 240) * 1000;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) {
      const progress = file.replace(/\.json$/, '') + '.progress.json';
      let last = '';
      try { const p = JSON.parse(fs.readFileSync(progress, 'utf8')); last = ` (last finished check: ${p.checks[p.checks.length - 1].name}; a check may wait for a dialog nobody answers)`; } catch { /* none */ }
      console.log('FAIL  [desktop] driver result file (no result in time)' + last);
      console.log('0 passed, 1 failed');
      throw new Error(`no driver result at ${file}${last}`);
    }
    await sleep(500);
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const i = r.info || {};
  console.log(`    VS Code ${i.vscodeVersion} (${i.appName}, ${i.uiKind}), ext host node ${i.node}; isTrusted=${i.isTrustedAtEnd}; driver total ${i.totalMs} ms`);
  if (i.notRun) console.log(`    ${i.notRun.reason}: ${i.notRun.checks.join(', ')}`);
  for (const c of r.checks) {
    console.log(`${c.pass ? 'PASS' : 'FAIL'}  [desktop] ${c.name}  (${c.ms} ms)`);
    if (!c.pass) console.log('      ' + (c.error ? String(c.error).split('\n')[0] : JSON.stringify(c.detail === undefined ? null : c.detail)).slice(0, 700));
  }
  const passed = r.checks.filter((c) => c.pass).length;
  const failed = r.checks.length - passed;
  console.log(`${passed} passed, ${failed} failed`);
  if (failed > 0 || r.checks.length === 0) throw new Error(`${failed} of ${r.checks.length} e2e checks failed`);
}

module.exports = { run };
