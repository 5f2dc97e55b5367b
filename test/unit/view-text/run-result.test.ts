import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cancelledMessage, failureMessage, formatDuration, formatRunResult, outcomeOf, prettyJson } from '../../../src/extension/view-text/run-result';

const startedAt = new Date(2026, 0, 2, 3, 4, 5);

describe('run result document', () => {
  test('says what ran, how it ended, the input and the output', () => {
    const text = formatRunResult({ name: 'echo', runs: 'run echo {{message}}', input: { message: 'hi' }, result: { text: 'hi\n', isError: false, details: { exitCode: 0 } }, elapsedMs: 12.3, startedAt });
    assert.match(text, /^# echo succeeded in 12 ms\n/);
    assert.match(text, /took 12 ms/);
    assert.match(text, /- Exit code: 0/);
    assert.match(text, /## What it runs\n\n```text\nrun echo \{\{message\}\}\n```/);
    assert.match(text, /```json\n\{\n {2}"message": "hi"\n\}\n```/);
    assert.match(text, /## Result\n\n```text\nhi\n\n```/);
  });

  test('the exact command of the run replaces the template, and a kept whole output is announced', () => {
    const result = {
      text: 'head\n[… 900 bytes not shown]\ntail',
      isError: false,
      details: { exitCode: 0, ran: "node build.js --target 'web app'" },
      resources: [{ uri: 'workspace-tools://output/x', name: 'build output', mimeType: 'text/plain', size: 1000 }],
    };
    const text = formatRunResult({ name: 'build', runs: 'node build.js --target {{target}}', input: { target: 'web app' }, result, elapsedMs: 5, startedAt });
    assert.match(text, /## What ran\n\n```text\nnode build\.js --target 'web app'\n```/);
    assert.doesNotMatch(text, /\{\{target\}\}/);
    assert.match(text, /- The whole output \(1000 bytes\) opens beside this document/);
  });

  test('a failure says so, with the exit code when there is one', () => {
    const failed = { text: 'grep: x: No such file\n', isError: true, details: { exitCode: 2 } };
    assert.match(formatRunResult({ name: 'x', runs: 'r', input: {}, result: failed, elapsedMs: 1, startedAt }), /^# x failed \(exit code 2\) in 1 ms[\s\S]*## Error/);
    assert.equal(outcomeOf({ text: '', isError: true }), 'failed');
    assert.doesNotMatch(formatRunResult({ name: 'x', runs: 'r', input: {}, result: { text: '', isError: false }, elapsedMs: 1, startedAt }), /Exit code/);
  });

  test('the failure notification is one sentence a person reads: what failed, after how long, and why', () => {
    assert.equal(failureMessage('list-todos', { text: '\ngrep: src: No such file or directory\nmore', isError: true, details: { exitCode: 2 } }, 1234), 'list-todos failed (exit code 2) after 1.2 s: grep: src: No such file or directory. The result document has the whole output.');
    assert.equal(failureMessage('x', { text: '', isError: true }, 5), 'x failed after 5 ms: it gave no reason. The result document has the whole output.');
    assert.match(failureMessage('x', { text: 'y'.repeat(500), isError: true }, 5), /^x failed after 5 ms: y{200}…\./);
    // a reason that ends with a period does not end with two
    assert.doesNotMatch(failureMessage('x', { text: 'The command was killed.', isError: true }, 5), /\.\./);
  });

  test('a cancelled run is not a failure: it says "cancelled" and how long it ran', () => {
    const result = { text: 'The command was cancelled; the process tree was killed.\npartial', isError: true };
    const text = formatRunResult({ name: 'slow', runs: 'r', input: {}, result, elapsedMs: 2345, startedAt, cancelled: true });
    assert.match(text, /^# slow cancelled after 2\.3 s\n/);
    assert.match(text, /## Output until it was cancelled/);
    assert.doesNotMatch(text, /failed/);
    assert.equal(cancelledMessage('slow', 2345), 'slow was cancelled after 2.3 s.');
  });

  test('durations read as a person says them', () => {
    assert.deepEqual([12.3, 999, 1000, 2345, 61_000, 125_400].map(formatDuration), ['12 ms', '999 ms', '1 s', '2.3 s', '1 min 1 s', '2 min 5 s']);
  });

  test('an HTTP body that is JSON is shown indented, after the status line', () => {
    const body = '{"name":"jsonc-parser","version":"3.3.1"}';
    const result = { text: `HTTP 200 OK\n\n${body}`, isError: false, details: { httpStatus: 200, stdout: body, ran: 'GET https://registry.npmjs.org/jsonc-parser/latest' } };
    const text = formatRunResult({ name: 'npm', runs: 'r', input: {}, result, elapsedMs: 5, startedAt });
    assert.match(text, /## Result\n\nHTTP 200 OK\n\n```json\n\{\n {2}"name": "jsonc-parser",\n {2}"version": "3\.3\.1"\n\}\n```/);
    assert.equal(prettyJson('not json {'), undefined);
    assert.equal(prettyJson('[1,2]'), '[\n  1,\n  2\n]');
  });
});
