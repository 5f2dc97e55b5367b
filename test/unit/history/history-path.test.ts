import { test } from 'node:test';
import assert from 'node:assert/strict';
import { platformNamed } from '../../../src/core/platform/platform';
import { defaultHistoryPath } from '../../../src/core/history/history-path';

test('the default call history is in the per-user state directory', () => {
  assert.equal(defaultHistoryPath({ XDG_STATE_HOME: '/xdg/state' }, platformNamed('linux'), '/home/ada'), '/xdg/state/workspace-tools/history.jsonl');
  assert.equal(defaultHistoryPath({}, platformNamed('linux'), '/home/ada'), '/home/ada/.local/state/workspace-tools/history.jsonl');
  // A relative XDG_STATE_HOME is ignored, as the XDG specification says.
  assert.equal(defaultHistoryPath({ XDG_STATE_HOME: 'rel' }, platformNamed('darwin'), '/Users/ada'), '/Users/ada/.local/state/workspace-tools/history.jsonl');
  assert.equal(defaultHistoryPath({ LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, platformNamed('win32'), 'C:\\Users\\ada'), 'C:\\Users\\ada\\AppData\\Local\\workspace-tools\\history.jsonl');
});
