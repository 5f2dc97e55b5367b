'use strict';
// Small helpers shared by the check files. Plain JS: this extension has no build step.
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');

// A built-in editor tool's name (editor-diagnostics, editor-hover, ...: src/core/editor-bridge/editor-tool-specs.ts):
// they all start with "editor-" and no other built-in does.
const EDITOR_TOOL_NAME = /^editor-/;
// The same prefix at the start of any line of a text (a `list` command's output names an editor tool).
const EDITOR_TOOL_LINE = new RegExp(EDITOR_TOOL_NAME.source, 'm');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function withTimeout(p, ms, what) {
  let timer;
  return Promise.race([
    Promise.resolve(p).finally(() => clearTimeout(timer)),
    new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`timeout after ${ms} ms: ${what}`)), ms); }),
  ]);
}

/** Calls fn every `step` ms until it returns a truthy value or `ms` passes; returns the last value. */
async function poll(fn, ms, step = 250) {
  const end = Date.now() + ms;
  let v;
  for (;;) {
    v = await fn();
    if (v || Date.now() >= end) return v;
    await sleep(step);
  }
}

/** Text of a LanguageModelToolResult (text parts; other parts JSON-encoded). */
function resultText(res) {
  if (!res || !Array.isArray(res.content)) return String(res);
  return res.content
    .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : p && typeof p.value === 'string' ? p.value : JSON.stringify(p)))
    .join('');
}

/** Invokes an lm tool; resolves to {text} or {error} (never rejects). */
async function invoke(name, input, ms = 20000) {
  const cts = new vscode.CancellationTokenSource();
  try {
    const res = await withTimeout(vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cts.token), ms, `invokeTool ${name}`);
    return { text: resultText(res) };
  } catch (e) {
    return { error: String((e && e.message) || e) };
  } finally {
    cts.dispose();
  }
}

/** "git-status" / "workspaceTools_get_git_status" -> "gitstatus"-style comparable keys. */
const norm = (s) => String(s).toLowerCase().replace(/[^a-z0-9]/g, '');

function wsFolder() {
  const f = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!f) throw new Error('no workspace folder open');
  return f.uri;
}

const toolsDir = () => vscode.Uri.joinPath(wsFolder(), '.vscode', 'tools');

/** A compact, JSON-safe view of the API's tools for details. */
function summarizeTools(list) {
  return (list || []).map((t) => ({ name: t.name, kind: t.source && t.source.kind, file: t.source && t.source.file, enabled: t.enabled, state: t.state }));
}

function assertApi(ctx) {
  if (!ctx.api) throw new Error('the extension did not return an API object from activate() (' + JSON.stringify(ctx.apiShape) + ')');
  return ctx.api;
}

let probeCount = 0;

/**
 * Asks the browser harness what the page shows: "sidebar" (each pane: title, welcome text and buttons, rows),
 * "statusbar" (each item: id, text, aria), "notifications" (each toast: message, buttons) or "quickInput" (the open
 * quick input: visible, title, steps, message, value, items) or "walkthrough" (the open walkthrough's steps: id,
 * done). Only under the
 * code-server harness: checks that use it set `needsBrowser`.
 */
async function probe(what, ms = 10000, extra = {}) {
  if (!process.env.E2E_RESULT_FILE) throw new Error('E2E_RESULT_FILE is not set');
  const dir = path.dirname(process.env.E2E_RESULT_FILE);
  const base = path.join(dir, `probe-${process.pid}${++probeCount}`);
  // whole or not at all: the harness may look between the file's creation and its content (a first probe right at start)
  fs.writeFileSync(base + '.req.tmp', JSON.stringify({ ...extra, what }));
  fs.renameSync(base + '.req.tmp', base + '.req');
  const answer = await poll(() => (fs.existsSync(base + '.res.json') ? JSON.parse(fs.readFileSync(base + '.res.json', 'utf8')) : null), ms, 100);
  if (!answer) throw new Error(`the browser harness did not answer the "${what}" probe within ${ms} ms`);
  if (answer.error) throw new Error(`probe "${what}": ${answer.error}`);
  return answer.value;
}

/** Types `text` into the open quick input (then presses `key`, e.g. "Enter"); resolves to the quick input after. */
const typeInQuickInput = (text, key) => probe('type', 10000, { text, key });

/**
 * Asks the harness for a screenshot named `name` (of the element matching `selector`, else the page) into the run
 * directory's shots/, and for the README (run.sh's SCREENSHOTS_DIR) unless `options.readme` is false. Best effort:
 * never fails a check, and does nothing where no harness runs (desktop). `options.keepToasts` leaves the
 * notifications on the picture.
 */
async function screenshot(name, selector, options = {}) {
  if (process.env.E2E_SCENARIO === 'desktop') return;
  // toasts left by earlier checks would cover what the picture is of
  if (!options.keepToasts) await vscode.commands.executeCommand('notifications.clearAll').then(undefined, () => undefined);
  await probe('screenshot', 8000, { name, ...(selector ? { selector } : {}), ...(options.readme === false ? { readme: false } : {}) }).catch(() => undefined);
}

/** The modal dialogs the browser harness has answered so far (it logs each, before answering, beside the result file). */
function dialogsSeen() {
  const file = path.join(path.dirname(process.env.E2E_RESULT_FILE || '.'), 'dialogs.jsonl');
  try { return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)); } catch { return []; }
}

/** Probes until `test(value)` holds (the page renders a moment after a change); returns the last value. */
async function probeUntil(what, test, ms = 10000) {
  const end = Date.now() + ms;
  let value;
  for (;;) {
    value = await probe(what);
    if (test(value) || Date.now() >= end) return value;
    await sleep(300);
  }
}

/** Presses `key` (e.g. "Enter") where the focus is, without typing; resolves to the quick input after. */
const pressKey = (key) => probe('key', 10000, { key });

/** Clicks `button` in the notification toast whose message contains `text`; resolves to { clicked }. */
const clickNotification = (text, button) => probe('clickNotification', 10000, { text, button });

/** Resizes the browser's window (the workbench lays itself out again); resolves to the new size. */
const setViewport = (width, height) => probe('viewport', 10000, { width, height });

module.exports = { EDITOR_TOOL_NAME, EDITOR_TOOL_LINE, dialogsSeen, probe, probeUntil, typeInQuickInput, pressKey, clickNotification, setViewport, screenshot, sleep, withTimeout, poll, resultText, invoke, norm, wsFolder, toolsDir, summarizeTools, assertApi };
