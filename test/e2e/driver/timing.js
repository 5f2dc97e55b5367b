'use strict';
// How long Workspace Tools took to start in this VS Code, from VS Code's own performance marks in the extension
// host (the figures of its "Running Extensions" view): loading the extension's code, activate() until it resolved,
// and the extension host's start until then; and whether its language model tools were in vscode.lm.tools when the
// driver started. Read by scripts/e2e/metrics.js for BENCHMARKS.md. (VS Code's Running Extensions view shows code
// loading + activate(); from willLoad to didActivate would also count VS Code preparing the extension's context in
// between, storage and secrets, which is not the extension's doing.) The marks live on
// globalThis.MonacoPerformanceMarks (vs/base/common/performance), shared by everything in the extension host;
// a VS Code without them gives `available: false`, never a wrong number.
const vscode = require('vscode');

/** VS Code's timing of `extensionId`'s start, in ms (times rounded to 1 ms by VS Code). */
function startTiming(extensionId, lmToolPrefix) {
  const perf = globalThis.MonacoPerformanceMarks;
  const marks = perf && typeof perf.getMarks === 'function' ? perf.getMarks() : [];
  const at = (name) => {
    const mark = marks.find((m) => m.name === name);
    return mark ? mark.startTime : undefined;
  };
  const span = (from, to) => (from === undefined || to === undefined ? null : Math.round(to - from));
  const origin = at('code/timeOrigin');
  const willLoad = at(`code/extHost/willLoadExtensionCode/${extensionId}`);
  const didLoad = at(`code/extHost/didLoadExtensionCode/${extensionId}`);
  const willActivate = at(`code/extHost/willActivateExtension/${extensionId}`);
  const didActivate = at(`code/extHost/didActivateExtension/${extensionId}`);
  const listed = vscode.lm.tools.filter((t) => t.name.startsWith(lmToolPrefix)).length;
  return {
    available: didActivate !== undefined,
    codeLoadingMs: span(willLoad, didLoad),
    activateMs: span(willActivate, didActivate),
    extHostStartToActivatedMs: span(origin, didActivate),
    extHostStartToDriverMs: origin === undefined ? null : Math.round(Date.now() - origin),
    lmToolsListedAtDriverStart: listed,
  };
}

module.exports = { startTiming };
