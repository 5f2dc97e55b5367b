/**
 * watchForChanges re-arms its watches after each burst of events; a save that lands as it
 * re-arms must not be lost. Real files, real fs.watch.
 */
import assert from 'node:assert/strict';
import { watch, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { watchForChanges } from '../../../src/core/files/watch-paths';
import { makeTempDir } from '../helpers/git-repo';
import { memoryLogger } from '../helpers/fake-tools';
import { waitUntil } from '../helpers/wait';

const folder = makeTempDir('wt-watch-paths-');
after(() => folder.cleanup());

/** Blocks this thread for `ms`, so timers that fall due meanwhile run in one turn of the loop. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // Spinning on purpose: the test needs the loop not to look for file events meanwhile.
  }
}

describe('watchForChanges', () => {
  test('a save that lands just before a burst ends (its event not yet read when the watches re-arm) is reported as a burst of its own', async () => {
    const file = path.join(folder.path, 'module.mjs');
    writeFileSync(file, 'export default () => 1;\n');
    const debounceMs = 100;
    let reported = 0;
    const watching = watchForChanges({ targets: [file], debounceMs, logger: memoryLogger(), onChange: () => (reported += 1) });
    // Opened after the watch tested, so it hears each event after it: the burst's timer is set.
    const sentinel = watch(file, () => {
      sentinel.close();
      // The second save falls due before the burst ends; the thread then stays busy past both,
      // so they run in one turn: the save, then the re-arm, with no read of events in between.
      setTimeout(() => writeFileSync(file, 'export default () => 3;\n'), debounceMs / 2);
      busyFor(debounceMs * 1.5);
    });
    try {
      writeFileSync(file, 'export default () => 2;\n');
      assert.equal(await waitUntil(() => reported >= 1, 5000), true, 'the first save was never reported');
      assert.equal(await waitUntil(() => reported >= 2, 5000), true, 'the save made as the watches re-armed was lost');
    } finally {
      watching.dispose();
      sentinel.close();
    }
  });
});
