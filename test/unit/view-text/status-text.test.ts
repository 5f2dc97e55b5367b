import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NewlyPendingFiles, newlyPendingMessage, pluginErrorCount, reloadedMessage, statusText, statusTooltip } from '../../../src/extension/view-text/status-text';

const counts = { activeTools: 9, pendingFiles: 2, pendingTools: 5, errors: 1, pluginsAllowed: true };

describe('status bar text', () => {
  test('counts tools, pending files and errors, leaving out the parts that are zero', () => {
    assert.equal(statusText(counts), 'Tools 9 · 2 pending · 1 error');
    assert.equal(statusText({ ...counts, errors: 3 }), 'Tools 9 · 2 pending · 3 errors');
    assert.equal(statusText({ ...counts, pendingFiles: 0 }), 'Tools 9 · 1 error');
    assert.equal(statusText({ ...counts, pendingFiles: 0, errors: 0 }), 'Tools 9');
    assert.equal(statusText({ ...counts, activeTools: 0, pendingFiles: 0, errors: 0 }), 'Tools 0');
  });

  test('the tooltip says each count in words, and Restricted Mode', () => {
    assert.equal(
      statusTooltip(counts),
      'Workspace Tools: 9 tools offered to chat\n2 plugin files waiting for approval (5 tools not served until then)\n1 error in plugin files\nClick to open the tools view.',
    );
    assert.match(statusTooltip({ ...counts, pluginsAllowed: false, pendingFiles: 0, errors: 0 }), /^Workspace Tools: 9 tools offered to chat\nRestricted Mode/);
  });
});

describe('the errors the status bar counts', () => {
  test('what the Problems panel shows for plugin files: every error on one (the JSON service\'s syntax errors too), the extension\'s elsewhere', () => {
    const error = (source: string) => ({ error: true, source });
    const warning = (source: string) => ({ error: false, source });
    const byFile: [string, { error: boolean; source: string }[]][] = [
      ['/ws/.vscode/tools/broken.json', [error('json'), error('json')]],
      ['/ws/.vscode/tools/bad.json', [error('Workspace Tools'), warning('json')]],
      ['/ws/.vscode/tasks.json', [error('Workspace Tools'), error('json')]],
      ['/ws/src/app.ts', [error('ts'), error('Workspace Tools: task-build')]],
    ];
    assert.equal(pluginErrorCount(byFile, new Set(['/ws/.vscode/tools/broken.json', '/ws/.vscode/tools/bad.json']), 'Workspace Tools'), 4);
  });
});

describe('what Reload says it loaded', () => {
  test('files, tools offered, files waiting and problems, in one sentence; the parts that are zero left out', () => {
    const loaded = { files: 3, activeTools: 9, pendingFiles: 1, problems: 2, pluginsAllowed: true };
    assert.equal(reloadedMessage(loaded), 'Reloaded 3 plugin files: 9 tools offered to chat, 1 file waiting for approval, 2 problems.');
    assert.equal(reloadedMessage({ ...loaded, files: 1, pendingFiles: 0, problems: 0, activeTools: 1 }), 'Reloaded 1 plugin file: 1 tool offered to chat.');
    assert.equal(reloadedMessage({ ...loaded, files: 0, pendingFiles: 0, problems: 0, activeTools: 7 }), 'Reloaded: no plugin files in .vscode/tools; 7 tools offered to chat.');
    assert.match(reloadedMessage({ ...loaded, pluginsAllowed: false }), /^Reloaded: 9 tools offered to chat\. Restricted Mode/);
  });
});

describe('files that start waiting for approval', () => {
  const states = (pending: string[], approved: string[] = [], broken: string[] = []) => [
    ...pending.map((file) => ({ file, pending: true, approved: false })),
    ...approved.map((file) => ({ file, pending: false, approved: true })),
    ...broken.map((file) => ({ file, pending: false, approved: false })),
  ];

  test('the first update only records; a file that becomes pending is reported once', () => {
    const watcher = new NewlyPendingFiles();
    assert.deepEqual(watcher.update(states(['/a'])), []);
    assert.deepEqual(watcher.update(states(['/a', '/b'])), ['/b']);
    // still pending (edited again): not again
    assert.deepEqual(watcher.update(states(['/a', '/b'])), []);
  });

  test('a file being written, broken by a half-done edit in between, is announced once', () => {
    const watcher = new NewlyPendingFiles();
    watcher.update([]);
    // just created: empty, no tools (not waiting: nothing to approve yet)
    assert.deepEqual(watcher.update(states([], [], ['/a'])), []);
    assert.deepEqual(watcher.update(states(['/a'])), ['/a']);
    assert.deepEqual(watcher.update(states([], [], ['/a'])), []);
    assert.deepEqual(watcher.update(states(['/a'])), []);
  });

  test('approved, then changed: reported again; muted: never again this session', () => {
    const watcher = new NewlyPendingFiles();
    watcher.update([]);
    assert.deepEqual(watcher.update(states(['/a'])), ['/a']);
    assert.deepEqual(watcher.update(states([], ['/a'])), []);
    assert.deepEqual(watcher.update(states(['/a'])), ['/a']);
    watcher.mute('/a');
    watcher.update(states([], ['/a']));
    assert.deepEqual(watcher.update(states(['/a', '/b'])), ['/b']);
  });

  test('a file saved from an editor of this window is not announced (its lens says Approve…)', () => {
    const watcher = new NewlyPendingFiles();
    watcher.update(states([], ['/a']));
    assert.deepEqual(watcher.update(states(['/a']), (file) => file === '/a'), []);
    // and not later either, while it waits
    assert.deepEqual(watcher.update(states(['/a'])), []);
  });

  test('a deleted file that comes back is new again', () => {
    const watcher = new NewlyPendingFiles();
    watcher.update(states(['/a']));
    watcher.update([]);
    assert.deepEqual(watcher.update(states(['/a'])), ['/a']);
  });

  test('the message names one file, or counts several', () => {
    assert.equal(
      newlyPendingMessage([{ pluginName: 'team', displayPath: '.vscode/tools/team.json' }]),
      '"team" (.vscode/tools/team.json) is new or changed: its tools wait for your approval and do not run until then.',
    );
    assert.match(newlyPendingMessage([{ pluginName: 'a', displayPath: 'a' }, { pluginName: 'b', displayPath: 'b' }]), /^2 plugin files are new or changed/);
  });
});
