'use strict';
// Writes what one run.sh measured in the real VS Code, for bench/report.mjs (BENCHMARKS.md): per scenario the
// activation time the extension's API reports (activationMs) and the driver's activate() call, VS Code's own timing
// of the extension's start (test/e2e/driver/timing.js: code loading, activate(), extension host start -> activated),
// how long VS Code took from starting the MCP server to listing its plugin tools in vscode.lm.tools (the
// mcp.plugin_tool_served check), the VS Code version, and the size of the packaged .vsix. Kept outside the clone (the e2e cache dir), so a run never dirties the tree.
// Usage: node metrics.js OUT_JSON VSIX_FILE RUN_DIR SCENARIO...   (reads RUN_DIR/<scenario>/result.json)
const fs = require('fs');
const path = require('path');

const [out, vsix, runDir, ...scenarios] = process.argv.slice(2);

/** One scenario's figures, or undefined when it left no result. */
function scenarioMetrics(sc) {
  let r;
  try { r = JSON.parse(fs.readFileSync(path.join(runDir, sc, 'result.json'), 'utf8')); } catch { return undefined; }
  const i = r.info || {}, e = i.extension || {};
  const mcp = (r.checks || []).find((c) => c.name === 'mcp.plugin_tool_served' && c.pass);
  return {
    vscodeVersion: i.vscodeVersion, reportedActivationMs: e.reportedActivationMs ?? null, activateCallMs: e.activateCallMs ?? null,
    vscodeTiming: i.startTiming && i.startTiming.available ? i.startTiming : null,
    mcpToolsListed: mcp && mcp.detail && typeof mcp.detail.msUntilTool === 'number' ? { ms: mcp.detail.msUntilTool, attempts: mcp.detail.attempts } : null,
    passed: r.passed, failed: r.failed,
  };
}

const perScenario = Object.fromEntries(scenarios.map((sc) => [sc, scenarioMetrics(sc)]).filter(([, m]) => m));
const measured = Object.values(perScenario).filter((m) => typeof m.reportedActivationMs === 'number');
if (measured.length === 0) {
  console.error(`metrics: no scenario reported an activation time; ${out} left as it was`);
  process.exit(0);
}
const metrics = {
  date: new Date().toISOString(),
  vscodeVersion: measured[0].vscodeVersion,
  vsixBytes: fs.statSync(vsix).size,
  scenarios: perScenario,
};
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out + '.tmp', JSON.stringify(metrics, null, 2) + '\n');
fs.renameSync(out + '.tmp', out); // atomic: the bench never reads half a file
console.log(`metrics: activation ${measured.map((m) => m.reportedActivationMs.toFixed(1)).join(', ')} ms, .vsix ${metrics.vsixBytes} B -> ${out}`);
