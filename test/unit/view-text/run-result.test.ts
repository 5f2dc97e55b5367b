import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { failureMessage, formatRunResult, outcomeOf } from '../../../src/extension/view-text/run-result';

const startedAt = new Date(2026, 0, 2, 3, 4, 5);

describe('run result document', () => {
  test('says what ran, how it ended, the input and the output', () => {
    const text = formatRunResult({ name: 'echo', runs: 'run echo {{message}}', input: { message: 'hi' }, result: { text: 'hi\n', isError: false, details: { exitCode: 0 } }, elapsedMs: 12.3, startedAt });
    assert.match(text, /^# echo succeeded\n/);
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
    assert.match(formatRunResult({ name: 'x', runs: 'r', input: {}, result: failed, elapsedMs: 1, startedAt }), /^# x failed \(exit code 2\)[\s\S]*## Error/);
    assert.equal(outcomeOf({ text: '', isError: true }), 'failed');
    assert.doesNotMatch(formatRunResult({ name: 'x', runs: 'r', input: {}, result: { text: '', isError: false }, elapsedMs: 1, startedAt }), /Exit code/);
  });

  test('the failure notification is one sentence a person reads: what failed and why', () => {
    assert.equal(failureMessage('list-todos', { text: '\ngrep: src: No such file or directory\nmore', isError: true, details: { exitCode: 2 } }), 'list-todos failed (exit code 2): grep: src: No such file or directory. The result document has the whole output.');
    assert.equal(failureMessage('x', { text: '', isError: true }), 'x failed: it gave no reason. The result document has the whole output.');
    assert.match(failureMessage('x', { text: 'y'.repeat(500), isError: true }), /^x failed: y{200}…\./);
  });
});
