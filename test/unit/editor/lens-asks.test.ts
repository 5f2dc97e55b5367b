/**
 * VS Code may never ask for the lenses of a plugin file shown and left at once (its editor cancels the pending
 * request when it loses focus): the watch fires the change event again until VS Code asks, a bounded number of times.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { LensAskWatch } from '../../../src/extension/editor/lens-asks';

const FILE = 'file:///ws/.vscode/tools/team-tools.json';
const OTHER = 'file:///ws/.vscode/tools/workflows.json';
const DELAYS = [20, 40, 80];
/** Longer than all the delays together. */
const ALL_DELAYS = 250;

function watch(shown: string[]): { watch: LensAskWatch; nudges: () => number } {
  let nudges = 0;
  const lensWatch = new LensAskWatch({ nudge: () => (nudges += 1), shown: () => shown, delays: DELAYS });
  return { watch: lensWatch, nudges: () => nudges };
}

describe('LensAskWatch', () => {
  test('a file VS Code asks for is not nudged', async () => {
    const { watch: w, nudges } = watch([FILE]);
    w.expect([FILE]);
    w.asked(FILE);
    await sleep(ALL_DELAYS);
    assert.equal(nudges(), 0);
    assert.equal(w.pending, false);
  });

  test('a file VS Code never asks for is nudged after each delay, then left alone', async () => {
    const { watch: w, nudges } = watch([FILE]);
    w.expect([FILE]);
    await sleep(DELAYS[0]! / 2);
    assert.equal(nudges(), 0, 'not before the first delay');
    await sleep(ALL_DELAYS);
    assert.equal(nudges(), DELAYS.length);
    assert.equal(w.pending, false);
  });

  test('once VS Code asks after a nudge, the nudges stop', async () => {
    let nudges = 0;
    // VS Code answers the first nudge (the editor had lost focus: the rescheduled request is not cancelled)
    const w: LensAskWatch = new LensAskWatch({ nudge: () => { nudges += 1; w.asked(FILE); }, shown: () => [FILE], delays: DELAYS });
    w.expect([FILE]);
    await sleep(ALL_DELAYS);
    assert.equal(nudges, 1);
    assert.equal(w.pending, false);
  });

  test('a file no longer shown, or closed, is not nudged', async () => {
    const shown = [FILE, OTHER];
    const { watch: w, nudges } = watch(shown);
    w.expect([FILE, OTHER]);
    shown.splice(0, 1); // FILE's editor closed
    w.forget(OTHER); // OTHER's document closed
    await sleep(ALL_DELAYS);
    assert.equal(nudges(), 0);
  });

  test('a file asked for before the wait began still counts as not asked since', async () => {
    const { watch: w, nudges } = watch([FILE]);
    w.asked(FILE); // an earlier request, e.g. before the tools changed
    w.expect([FILE]);
    await sleep(DELAYS[0]! + 15);
    assert.equal(nudges(), 1);
    w.dispose();
    await sleep(ALL_DELAYS);
    assert.equal(nudges(), 1, 'nothing after dispose');
  });
});
