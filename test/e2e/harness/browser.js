'use strict';
// Opens the code-server workbench in headless Chromium (playwright-core, no browser download) and waits
// for the e2e driver's result file, answering modal dialogs meanwhile.
// Usage: node browser.js URL RESULT_FILE TIMEOUT_S RUN_DIR
// Probes: the driver asks what the page shows (the extension host cannot see it) by writing RUN_DIR/probe-N.req
// ({ "what": "sidebar" | "statusbar" | "notifications" | "quickInput" | "walkthrough" | "walkthroughStep" | "gutter" | "codeLenses" |
// "walkthroughMedia" },
// { "what": "type", "text", "key"? } to type into the open quick input, { "what": "screenshot", "name", "selector"? },
// { "what": "key", "key" } to press a key, { "what": "clickNotification", "text", "button" } or
// { "what": "viewport", "width", "height" }, { "what": "checkQuickPickItem", "label" } to tick a row of a multi-select pick,
// or { "what": "clickRowAction", "pane", "label", "action" } to click a sidebar row's inline action); this loop answers in
// RUN_DIR/probe-N.res.json.
// Writes into RUN_DIR: final.png (last state), tools-view.png (+ tools-view-sidebar.png) once the result
// file appears (the driver opens the Workspace Tools view just before writing it), tree-rows.json (the rows shown in
// the sidebar then), browser-console.log,
// dialogs.jsonl, dialog-N.png (each modal, before answering).
// Env:
//   CHROMIUM        browser binary (default /usr/bin/chromium)
//   AUTO_CONFIRM    modal-dialog button labels to click (first match in list order wins), '|'-separated if it
//                   contains a '|', else ','. "LABEL@@TEXT" applies only to dialogs whose text contains TEXT.
//                   Default "Yes" (VS Code's MCP "Run ...?" confirmation). "" = click nothing. The label "{Enter}"
//                   presses Enter in the dialog instead of clicking (what a person does who hits Enter at once), e.g.
//                   "{Enter}@@e2e-enter-key" for the approval dialog of that plugin file.
//   TRUST_SEED      JSON array of folder paths to mark trusted in VS Code's browser-side trust store (IndexedDB
//                   vscode-web-state-db-global-shared / ItemTable / content.trust.model.key) before the workbench loads.
//   SCREENSHOTS_DIR also copy the screenshots the checks ask for (lib.screenshot) into this directory, except those
//                   asked with `readme: false` (the demo walk's step pictures, kept in RUN_DIR/shots).
//   SHOTS=1         a screenshot every 3 s into RUN_DIR/frames (debugging a hang).
//   README_IMAGES_BASE, README_IMAGES_ROOT  answer requests below that https URL with the files below that folder
//                   (the README's pictures on the extension's Details page; the "images" probe reads every frame's).
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const [url, resultFile, timeoutS, runDir] = process.argv.slice(2);
if (!url || !resultFile || !runDir) { console.error('usage: node browser.js URL RESULT_FILE TIMEOUT_S RUN_DIR'); process.exit(64); }

// runs in the page (must be self-contained)
async function idbPutTrust(value) {
  const db = await new Promise((res, rej) => {
    const r = indexedDB.open('vscode-web-state-db-global-shared');
    r.onupgradeneeded = () => { if (!r.result.objectStoreNames.contains('ItemTable')) r.result.createObjectStore('ItemTable'); };
    r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error);
  });
  try {
    return await new Promise((res, rej) => {
      const tx = db.transaction('ItemTable', 'readwrite');
      tx.objectStore('ItemTable').put(value, 'content.trust.model.key');
      tx.oncomplete = () => res('ok'); tx.onerror = () => rej(tx.error);
    });
  } finally { db.close(); }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// runs in the page: what the driver's probes ask about (self-contained)
function readPage(what) {
  const text = (el) => (el ? (el.innerText || el.textContent || '').trim() : '');
  const buttons = (root) => [...root.querySelectorAll('.monaco-button')].map(text).filter(Boolean);
  if (what === 'sidebar') {
    return [...document.querySelectorAll('.part.sidebar .pane')].map((pane) => {
      const header = pane.querySelector('.pane-header');
      const welcome = pane.querySelector('.welcome-view-content');
      return {
        title: text(header && header.querySelector('.title')),
        height: Math.round(pane.getBoundingClientRect().height),
        expanded: !!header && header.classList.contains('expanded'),
        welcome: welcome ? text(welcome) : null,
        welcomeButtons: welcome ? buttons(welcome) : [],
        rows: [...pane.querySelectorAll('.monaco-list-row')].map((row) => text(row.querySelector('.label-name'))),
        // each row's label with its description, and the view's own description (TreeView.description) beside its title
        details: [...pane.querySelectorAll('.monaco-list-row')].map((row) => ({
          // trees that draw their own labels (the Testing view's): the row's text
          label: text(row.querySelector('.label-name')) || text(row),
          aria: row.getAttribute('aria-label') || '',
          description: text(row.querySelector('.label-description')),
          actions: [...row.querySelectorAll('.action-label')].map((action) => action.getAttribute('aria-label') || action.getAttribute('title')).filter(Boolean),
        })),
        description: text(header && header.querySelector('.description')),
      };
    });
  }
  if (what === 'statusbar') {
    return [...document.querySelectorAll('.part.statusbar .statusbar-item')].map((item) => ({
      id: item.id, text: text(item), aria: item.getAttribute('aria-label'),
    }));
  }
  if (what === 'notifications') {
    return [...document.querySelectorAll('.notifications-toasts .notification-toast, .notifications-center .notification-list-item')].map((item) => ({
      message: text(item.querySelector('.notification-list-item-message')), buttons: buttons(item),
    }));
  }
  if (what === 'walkthrough') {
    // the open walkthrough's steps: each step's checkbox carries its id and whether it is done
    return [...document.querySelectorAll('[data-done-step-id]')].map((el) => ({ id: el.getAttribute('data-done-step-id'), done: el.getAttribute('aria-checked') === 'true' }));
  }
  if (what === 'walkthroughStep') {
    // the expanded step of the open walkthrough: what it says, and whether its page (the media beside it) is shown
    const step = document.querySelector('.getting-started-step.expanded');
    const media = document.querySelector('.gettingStartedDetailsContent > .getting-started-media');
    return step ? { id: step.getAttribute('data-step-id'), text: text(step), mediaShown: !!media && getComputedStyle(media).display !== 'none' && media.getBoundingClientRect().width > 0 } : null;
  }
  if (what === 'quickInput') {
    const widget = document.querySelector('.quick-input-widget');
    const visible = !!widget && getComputedStyle(widget).display !== 'none';
    if (!visible) return { visible: false };
    const input = widget.querySelector('.quick-input-box input');
    return {
      visible,
      title: text(widget.querySelector('.quick-input-title')),
      steps: text(widget.querySelector('.quick-input-steps')),
      message: text(widget.querySelector('.quick-input-message')),
      value: input ? input.value : null,
      items: [...widget.querySelectorAll('.quick-input-list .monaco-list-row')].map((row) => text(row.querySelector('.label-name')) || row.getAttribute('aria-label')),
      // each item (of a list or a tree, as Configure Tools shows) as a screen reader reads it, with its tree level
      itemLabels: [...widget.querySelectorAll('.monaco-list-row')].filter((row) => row.getBoundingClientRect().height > 0).map((row) => `${row.getAttribute('aria-level') ? `${row.getAttribute('aria-level')}|` : ''}${row.getAttribute('aria-label') || text(row)}`),
      // the row Enter takes
      active: (() => { const row = widget.querySelector('.quick-input-list .monaco-list-row.focused'); return row ? text(row.querySelector('.label-name')) || row.getAttribute('aria-label') : null; })(),
    };
  }
  if (what === 'chatInput') {
    // the chat view's input as the user sees it: its text, the suggestions open under it, its attachments, and any
    // quick input a chosen suggestion opened (an MCP prompt asks its arguments there)
    const input = [...document.querySelectorAll('.interactive-input-part')].find((part) => part.getBoundingClientRect().height > 0);
    if (!input) return { found: false };
    const suggest = [...document.querySelectorAll('.suggest-widget')].find((widget) => widget.classList.contains('visible'));
    return {
      found: true,
      text: text(input.querySelector('.interactive-input-editor .view-lines')).replace(/\u00a0/g, ' '),
      suggestions: suggest ? [...suggest.querySelectorAll('.monaco-list-row')].map((row) => row.getAttribute('aria-label') || text(row)) : [],
      attachments: [...input.querySelectorAll('.chat-attached-context-attachment')].map((a) => a.getAttribute('aria-label') || text(a)),
      quickInput: readPage('quickInput'),
    };
  }
  if (what === 'codeLenses') {
    // the lenses the active editor draws where the user sees them, top to bottom: their text as the user reads it and
    // the line each stands above. Those scrolled out of view are left out: VS Code keeps them in the page with what
    // they said when last drawn, and redraws a lens only once it is in view.
    const editor = document.querySelector('.editor-group-container.active .monaco-editor') || document.querySelector('.monaco-editor');
    if (!editor) return [];
    const view = (editor.querySelector('.overflow-guard') || editor).getBoundingClientRect();
    const numbers = [...editor.querySelectorAll('.margin-view-overlays .line-numbers')].map((el) => ({ line: Number(text(el)), top: el.getBoundingClientRect().top })).filter((n) => n.line > 0);
    return [...editor.querySelectorAll('.codelens-decoration')].map((el) => ({ el, rect: el.getBoundingClientRect() }))
      .filter(({ rect }) => rect.height > 0 && rect.top >= view.top && rect.bottom <= view.bottom)
      .sort((x, y) => x.rect.top - y.rect.top)
      .map(({ el, rect }) => {
        const below = numbers.filter((n) => n.top >= rect.bottom - 2).sort((x, y) => x.top - y.top)[0];
        return { line: below ? below.line : -1, text: text(el).replace(/\s+/g, ' ') }; // "Run | Run Tests" is three spans
      });
  }
  if (what === 'gutter') {
    // the Testing gutter icons of the active editor: each with the line number it sits on and its state
    const editor = document.querySelector('.editor-group-container.active .monaco-editor') || document.querySelector('.monaco-editor');
    if (!editor) return [];
    const numbers = [...editor.querySelectorAll('.margin-view-overlays .line-numbers')].map((el) => ({ line: Number(text(el)), top: el.getBoundingClientRect().top }));
    return [...editor.querySelectorAll('.testing-run-glyph')].map((glyph) => {
      const top = glyph.getBoundingClientRect().top;
      const near = numbers.reduce((best, n) => (Math.abs(n.top - top) < Math.abs(best.top - top) ? n : best), { line: -1, top: Infinity });
      const state = (/codicon-testing-([a-z-]+?)-icon/.exec(glyph.className) || [])[1] || 'unknown';
      return { line: near.line, state };
    });
  }
  return { error: `unknown probe ${what}` };
}

/**
 * A probe that acts: "type" fills the quick input's box with `text`, then presses `key` if given; "screenshot"
 * saves RUN_DIR/shots/NAME.png of the page, or of the first element matching `selector`, and copies it into
 * SCREENSHOTS_DIR when that is set (the README's images come from a run).
 */
async function act(page, req, runDir) {
  if (req.what === 'screenshot') return screenshot(page, req, runDir);
  if (req.what === 'images') return frameImages(page);
  if (req.what === 'key') { await page.keyboard.press(req.key); await sleep(400); return page.evaluate(readPage, 'quickInput'); }
  if (req.what === 'viewport') { await page.setViewportSize({ width: req.width, height: req.height }); await sleep(800); return page.viewportSize(); }
  if (req.what === 'clickNotification') return clickNotification(page, req);
  if (req.what === 'checkQuickPickItem') return checkQuickPickItem(page, req);
  if (req.what === 'clickRowAction') return clickRowAction(page, req);
  if (req.what === 'walkthroughMedia') return walkthroughMedia(page);
  if (req.what === 'chatType') return chatType(page, req);
  if (req.what !== 'type') return page.evaluate(readPage, req.what);
  const box = page.locator('.quick-input-widget .quick-input-box input').first();
  // A wait for the quick input to show, not a limit on the product: on a busy 2-core machine
  // opening it took over 3 s once; a quick input that never opens still fails here.
  await box.fill(req.text || '', { timeout: 10000 });
  if (req.key) await page.keyboard.press(req.key);
  await sleep(300);
  return page.evaluate(readPage, 'quickInput');
}

/**
 * "chatType": clicks into the visible chat input, replaces its text with `text` (typed key by key, so completion
 * triggers such as "/" fire as for a user), presses `key` if given, and answers what the "chatInput" probe reads.
 */
async function chatType(page, req) {
  if (req.text !== undefined) {
    await page.locator('.interactive-input-part .interactive-input-editor .monaco-editor >> visible=true').first().click({ timeout: 3000 });
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(req.text, { delay: 60 });
  }
  if (req.key) await page.keyboard.press(req.key);
  await sleep(1000);
  return page.evaluate(readPage, 'chatInput');
}

/** The pictures of every frame that has some (webviews, such as an extension's Details page, are frames): alt, src, loaded. */
async function frameImages(page) {
  const frames = [];
  for (const frame of page.frames()) {
    const images = await frame.evaluate(() => [...document.querySelectorAll('img')].map((img) => ({
      alt: img.getAttribute('alt') || '', src: img.getAttribute('src') || '', complete: img.complete, naturalWidth: img.naturalWidth,
    }))).catch(() => []);
    if (images.length > 0) frames.push({ url: frame.url(), images });
  }
  return frames;
}

/**
 * README_IMAGES_BASE (the https URL vsce points the README's relative pictures at) is answered from
 * README_IMAGES_ROOT (this checkout): the e2e has no internet, and this shows that each URL names a file the
 * repository has. Anything else below the base, or outside the root, is a 404.
 */
async function serveReadmeImages(ctx) {
  const base = process.env.README_IMAGES_BASE;
  const root = process.env.README_IMAGES_ROOT;
  if (!base || !root) return;
  await ctx.route((url) => url.href.startsWith(base), async (route) => {
    const relative = decodeURIComponent(new URL(route.request().url()).pathname.slice(new URL(base).pathname.length));
    const file = path.resolve(root, relative);
    const inside = file.startsWith(path.resolve(root) + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile();
    console.log(`[browser] ${inside ? 'served' : '404'} ${route.request().url()}`);
    if (!inside) return route.fulfill({ status: 404, body: 'not in the repository' });
    return route.fulfill({ status: 200, contentType: file.endsWith('.png') ? 'image/png' : 'application/octet-stream', body: fs.readFileSync(file) });
  });
}

/** Clicks `button` in the notification whose message contains `text`; resolves to whether one was there. */
/** "checkQuickPickItem": ticks the checkbox of the open multi-select quick pick's row labelled `label`, as a click does. */
async function checkQuickPickItem(page, req) {
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  const count = await rows.count();
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    if ((await row.locator('.label-name').first().innerText({ timeout: 500 }).catch(() => '')).trim() === req.label) {
      await row.locator('input[type=checkbox], .quick-input-list-checkbox, .monaco-custom-toggle').first().click({ timeout: 3000 });
      await sleep(200);
      return { checked: true, quickInput: await page.evaluate(readPage, 'quickInput') };
    }
  }
  return { checked: false, quickInput: await page.evaluate(readPage, 'quickInput') };
}

/**
 * "clickRowAction": in the sidebar pane titled `pane`, hovers the row labelled `label` (its inline actions show on
 * hover) and clicks its action whose aria-label starts with `action`.
 */
async function clickRowAction(page, req) {
  const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header .title', { hasText: req.pane }) }).first();
  const rows = pane.locator('.monaco-list-row');
  const count = await rows.count();
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    const label = (await row.locator('.label-name').first().innerText({ timeout: 500 }).catch(() => '')).trim() || (await row.innerText({ timeout: 500 }).catch(() => '')).trim();
    if (label !== req.label && !label.startsWith(req.label)) continue;
    await row.hover({ timeout: 3000 });
    const action = row.locator(`.action-label[aria-label^="${req.action}"]`).first();
    if (!(await action.count())) return { clicked: false, reason: 'no such action on the row' };
    await action.click({ timeout: 3000 });
    return { clicked: true };
  }
  return { clicked: false, reason: `no row labelled ${req.label}` };
}

async function clickNotification(page, req) {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: req.text }).first();
  if (!(await toast.count())) return { clicked: false };
  await toast.locator('.monaco-button', { hasText: req.button }).first().click({ timeout: 3000 });
  return { clicked: true };
}

/**
 * The walkthrough's Markdown pages (webviews) in the page, measured: heading, width, what in them is wider than the
 * page (a table or a code line that needs side-scrolling), how many tables each has.
 */
async function walkthroughMedia(page) {
  const pages = [];
  for (const frame of page.frames().filter((candidate) => candidate !== page.mainFrame())) {
    const found = await frame.evaluate(() => {
      const heading = document.querySelector('h1');
      if (!heading) return null;
      const width = document.documentElement.clientWidth;
      const wide = [...document.querySelectorAll('pre, table, p, li, h1, code')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > width + 1)
        .map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent || '').trim().slice(0, 60)}`);
      return { heading: heading.textContent.trim(), width, wide, tables: document.querySelectorAll('table').length };
    }).catch(() => null);
    if (found) pages.push(found);
  }
  return pages;
}

async function screenshot(page, req, runDir) {
  const name = String(req.name || 'shot').replace(/[^a-zA-Z0-9_-]/g, '-');
  const file = path.join(runDir, 'shots', `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await sleep(req.settleMs || 400); // let the page finish painting what the driver just did
  if (req.selector) await page.locator(req.selector).first().screenshot({ path: file, timeout: 3000 });
  else await page.screenshot({ path: file });
  if (process.env.SCREENSHOTS_DIR && req.readme !== false) {
    fs.mkdirSync(process.env.SCREENSHOTS_DIR, { recursive: true });
    fs.copyFileSync(file, path.join(process.env.SCREENSHOTS_DIR, `${name}.png`));
  }
  return { file };
}

/** Answers the driver's probe requests in runDir (see the header). */
async function answerProbes(page, runDir) {
  for (const name of fs.readdirSync(runDir).filter((n) => /^probe-\d+\.req$/.test(n))) {
    const req = path.join(runDir, name);
    let answer;
    try { answer = { value: await act(page, JSON.parse(fs.readFileSync(req, 'utf8')), runDir) }; }
    catch (e) { answer = { error: String(e) }; }
    const res = req.replace(/\.req$/, '.res.json');
    fs.writeFileSync(res + '.tmp', JSON.stringify(answer));
    fs.renameSync(res + '.tmp', res);
    fs.unlinkSync(req);
  }
}
/** The AUTO_CONFIRM label that presses Enter instead of clicking a button. */
const ENTER = '{Enter}';

(async () => {
  const t0 = Date.now();
  const secs = () => ((Date.now() - t0) / 1000).toFixed(1);
  const ctx = await chromium.launchPersistentContext(path.join(runDir, 'chrome'), {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    // Tall enough for every row of the tools view beside the Plugin Files and History panes (the list is virtual: rows out of view are not in the page).
    viewport: { width: 1400, height: 1100 },
  });
  await serveReadmeImages(ctx);
  const page = ctx.pages()[0] || await ctx.newPage();
  const consoleErrors = [];
  const consoleLog = fs.createWriteStream(path.join(runDir, 'browser-console.log'));
  page.on('console', (m) => {
    consoleLog.write(`[${m.type()}] ${m.text()}\n`);
    if (m.type() === 'error') consoleErrors.push(m.text().slice(0, 300));
  });
  page.on('pageerror', (e) => { consoleLog.write(`[pageerror] ${e}\n`); consoleErrors.push('pageerror: ' + String(e).slice(0, 300)); });

  if (process.env.TRUST_SEED) {
    // same origin as the workbench, so the same IndexedDB; /healthz is a tiny page served by code-server
    const u = new URL(url);
    const uriTrustInfo = JSON.parse(process.env.TRUST_SEED).map((p) => ({ uri: { $mid: 1, scheme: 'vscode-remote', authority: u.host, path: p }, trusted: true }));
    await page.goto(u.origin + '/healthz', { waitUntil: 'domcontentloaded' });
    const r = await page.evaluate(idbPutTrust, JSON.stringify({ uriTrustInfo }));
    console.log(`[browser] seeded trust store (${r}): ${uriTrustInfo.map((x) => x.uri.path).join(', ')}`);
  }

  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
  console.log(`[browser] page loaded after ${secs()}s`);

  const ac = process.env.AUTO_CONFIRM === undefined ? 'Yes' : process.env.AUTO_CONFIRM;
  const rules = ac.split(ac.includes('|') ? '|' : ',').map((x) => x.trim()).filter(Boolean)
    .map((e) => { const [l, t] = e.split('@@'); return { label: l.trim(), text: t && t.trim() }; });
  const dialogLog = path.join(runDir, 'dialogs.jsonl');
  fs.writeFileSync(dialogLog, '');
  const shotsDir = process.env.SHOTS ? path.join(runDir, 'frames') : null;
  let lastShot = 0, frame = 0, dialogNo = 0, lastSig = '', done = false, approvalShot = false;
  const deadline = Date.now() + Number(timeoutS || 240) * 1000;

  while (Date.now() < deadline) {
    if (fs.existsSync(resultFile)) { done = true; break; }
    try { await answerProbes(page, runDir); } catch (e) { console.log('[browser] probe error: ' + e); }
    try {
      const box = page.locator('.monaco-dialog-box').first();
      if (await page.locator('.monaco-dialog-box').count()) {
        const message = (await box.locator('.dialog-message-text').innerText({ timeout: 500 }).catch(() => '')).trim();
        const details = (await box.locator('.dialog-message-container > :not(.dialog-message-text):not(.dialog-checkbox-row)').allInnerTexts().catch(() => []))
          .map((s) => s.trim()).filter(Boolean);
        const btnLoc = box.locator('.dialog-buttons .monaco-button');
        const buttons = [];
        for (let i = 0; i < await btnLoc.count(); i++) {
          const b = btnLoc.nth(i);
          buttons.push({ text: (await b.innerText().catch(() => '')).trim(), aria: await b.getAttribute('aria-label').catch(() => null) });
        }
        const haystack = [message, ...details].join('\n');
        const rule = rules.find(({ label, text }) => (!text || haystack.includes(text)) && (label === ENTER || buttons.some((b) => b.text === label || b.aria === label)));
        const sig = JSON.stringify([message, buttons]);
        if (sig !== lastSig || rule) {
          try { await page.screenshot({ path: path.join(runDir, `dialog-${dialogNo++}.png`) }); } catch { /* best effort */ }
          // the README's picture of the approval dialog: the first one of the run
          if (process.env.SCREENSHOTS_DIR && !approvalShot && /^Approve the tools of/.test(message)) {
            approvalShot = true;
            fs.mkdirSync(process.env.SCREENSHOTS_DIR, { recursive: true });
            await box.screenshot({ path: path.join(process.env.SCREENSHOTS_DIR, 'approval-dialog.png'), timeout: 3000 }).catch(() => undefined);
          }
          // Logged (synchronously) before it is answered: the answer resumes the extension's code,
          // and a check reads this log as soon as its command returns.
          const rec = { t: +secs(), message, details, buttons: buttons.map((b) => b.text || b.aria), clicked: rule ? rule.label : null };
          console.log('[browser] dialog ' + JSON.stringify(rec));
          fs.appendFileSync(dialogLog, JSON.stringify(rec) + '\n');
          if (rule && rule.label === ENTER) await page.keyboard.press('Enter');
          else if (rule) await btnLoc.nth(buttons.findIndex((b) => b.text === rule.label || b.aria === rule.label)).click({ timeout: 2000 });
          lastSig = rule ? '' : sig;
        }
      } else lastSig = '';
    } catch (e) { console.log('[browser] dialog handling error: ' + e); }
    if (shotsDir && Date.now() - lastShot > 3000) {
      lastShot = Date.now();
      try { fs.mkdirSync(shotsDir, { recursive: true }); await page.screenshot({ path: path.join(shotsDir, `frame-${String(frame++).padStart(3, '0')}.png`) }); } catch { /* best effort */ }
    }
    await sleep(250);
  }
  console.log(`[browser] result file ${done ? 'appeared' : 'did NOT appear'} after ${secs()}s`);

  if (done) {
    // the driver showed the Workspace Tools view right before writing the result
    await sleep(700);
    const shot = path.join(runDir, 'tools-view.png');
    try {
      await page.screenshot({ path: shot });
      await page.locator('.part.sidebar').first().screenshot({ path: path.join(runDir, 'tools-view-sidebar.png'), timeout: 3000 }).catch(() => {});
    } catch (e) { console.log('[browser] tools-view screenshot failed: ' + e); }
    // the rows the user sees in the Workspace Tools view, for scripts/e2e/report.js (ui.tree_view_rows_match_api)
    try {
      // Rows of the tools view only (the History view lists calls, Plugin Files says what to do). The list is
      // virtual, so the other panes are collapsed first to give the tools view the sidebar's height.
      await page.locator('.part.sidebar').first().evaluate((sidebar) => {
        for (const header of sidebar.querySelectorAll('.pane-header[aria-expanded="true"]')) {
          if (((header.querySelector('.title') || {}).textContent || '').trim().toLowerCase() !== 'tools') header.click();
        }
      }).catch(() => undefined);
      await page.waitForTimeout(500);
      const rows = await page.locator('.part.sidebar').first().evaluate((sidebar) => {
        const panes = [...sidebar.querySelectorAll('.pane')];
        const tools = panes.filter((pane) => ((pane.querySelector('.pane-header .title') || {}).textContent || '').trim().toLowerCase() === 'tools');
        const scopes = tools.length > 0 ? tools : [sidebar];
        return scopes.flatMap((scope) => [...scope.querySelectorAll('.monaco-list-row')]).map((el) => ({
          level: Number(el.getAttribute('aria-level')) || null,
          label: ((el.querySelector('.label-name') || {}).textContent || '').trim(),
          description: ((el.querySelector('.label-description') || {}).textContent || '').trim(),
          aria: el.getAttribute('aria-label'),
        }));
      });
      fs.writeFileSync(path.join(runDir, 'tree-rows.json'), JSON.stringify(rows, null, 2));
      console.log(`[browser] ${rows.length} rows in the sidebar`);
    } catch (e) { console.log('[browser] reading the sidebar rows failed: ' + e); }
  }
  try { await page.screenshot({ path: path.join(runDir, 'final.png') }); } catch (e) { console.log('[browser] screenshot failed: ' + e); }
  if (consoleErrors.length) fs.writeFileSync(path.join(runDir, 'browser-console-errors.txt'), consoleErrors.join('\n') + '\n');
  consoleLog.end();
  await ctx.close();
  process.exit(done ? 0 : 2);
})().catch((e) => { console.error('[browser] ' + ((e && e.stack) || e)); process.exit(3); });
