import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Startup } from '../../../src/extension/startup';
import type { Logger } from '../../../src/core/types';

/** A logger that keeps its lines, by level. */
function keptLog(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string): void => void lines.push(`${level} ${message}`);
  return { lines, trace: keep('trace'), debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
}

/** Waits until `done()` holds, a turn at a time (at most 100 turns). */
async function turnsUntil(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 100 && !done(); turn++) {
    await nextTurn();
  }
  assert.ok(done(), 'the steps did not finish within 100 turns');
}

describe('Startup: what activate() hands to the event loop', () => {
  test('nothing runs while activate() runs: not when queued, not at begin()', () => {
    const startup = new Startup(keptLog());
    const ran: string[] = [];
    startup.later('a', () => ran.push('a'));
    startup.begin();
    assert.deepEqual(ran, []);
  });

  test('the steps run in the order queued, each in its own turn: work another step schedules runs in between', async () => {
    const startup = new Startup(keptLog());
    const ran: string[] = [];
    startup.later('first', () => {
      ran.push('first');
      setImmediate(() => ran.push('other work'));
    });
    startup.later('second', () => ran.push('second'));
    startup.begin();
    await turnsUntil(() => ran.length === 3);
    assert.deepEqual(ran, ['first', 'other work', 'second']);
  });

  test('a step that throws is logged by name and the next still runs', async () => {
    const log = keptLog();
    const startup = new Startup(log);
    const ran: string[] = [];
    startup.later('the broken one', () => {
      throw new Error('no such directory');
    });
    startup.later('the next', () => ran.push('next'));
    startup.begin();
    await turnsUntil(() => ran.length === 1);
    assert.ok(log.lines.includes('error [activate] the broken one failed to start: no such directory'), log.lines.join('\n'));
  });

  test('the steps still waiting when the extension deactivates never run', async () => {
    const startup = new Startup(keptLog());
    const ran: string[] = [];
    startup.later('first', () => {
      ran.push('first');
      startup.dispose();
    });
    startup.later('second', () => ran.push('second'));
    startup.begin();
    await turnsUntil(() => ran.length === 1);
    for (let turn = 0; turn < 5; turn++) {
      await nextTurn();
    }
    assert.deepEqual(ran, ['first']);
  });

  test('the log says when every step has run, and a step queued after begin() still runs', async () => {
    const log = keptLog();
    const startup = new Startup(log);
    const ran: string[] = [];
    startup.begin();
    startup.later('late', () => ran.push('late'));
    await turnsUntil(() => ran.length === 1 && log.lines.some((line) => line.startsWith('info [activate] started in ')));
    assert.deepEqual(ran, ['late']);
  });
});
