'use strict';
// Prints one scenario's driver result (test/e2e/driver) and, as the last line, "PASSED FAILED".
// Usage: node report.js RESULT_JSON SCENARIO
const [file, sc] = process.argv.slice(2);
const r = JSON.parse(require('fs').readFileSync(file, 'utf8'));
const i = r.info || {}, e = i.extension || {};
console.log(`    VS Code ${i.vscodeVersion} (${i.appName}, ${i.uiKind}, remote=${i.remoteName}), ext host node ${i.node}; isTrusted=${i.isTrustedAtEnd}; ` +
  `activate() ${e.activateCallMs ?? '?'} ms, reported activation ${e.reportedActivationMs ?? 'n/a'} ms; driver total ${i.totalMs} ms`);
for (const c of r.checks) {
  console.log(`${c.pass ? 'PASS' : 'FAIL'}  [${sc}] ${c.name}  (${c.ms} ms)`);
  if (!c.pass) {
    // an error: its first line (the stack stays in result.json); else the check's detail
    const why = c.error ? String(c.error).split('\n')[0] : JSON.stringify(c.detail === undefined ? null : c.detail);
    console.log('      ' + why.slice(0, 700));
  }
}
const passed = r.checks.filter((c) => c.pass).length;
console.log(`${passed} ${r.checks.length - passed}`);
