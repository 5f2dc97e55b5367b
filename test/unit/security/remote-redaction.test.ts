// workspace-info shows remote URLs to the model: tokens in them must not reach the transcript.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets, redactUrl } from '../../../src/core/redact';

test('remote URLs lose every credential form', () => {
  // A token as the user name, as GitHub documents for HTTPS clones.
  assert.equal(redactUrl('https://ghp_SECRET123@github.com/o/r.git'), 'https://***@github.com/o/r.git');
  // An unencoded "@" inside the password: the user info ends at the last "@".
  assert.equal(redactUrl('https://u:p@ss@host/x'), 'https://u:***@host/x');
  assert.equal(redactUrl('https://u:tok@host/x'), 'https://u:***@host/x');
  assert.equal(redactUrl('ssh://git@host:22/x.git'), 'ssh://git@host:22/x.git');
  assert.equal(redactUrl('git@github.com:o/r.git'), 'git@github.com:o/r.git');
  assert.equal(redactUrl('https://host/x@y'), 'https://host/x@y');
});

test('query parameters named like credentials and known token shapes are redacted', () => {
  assert.equal(
    redactUrl('https://gitlab.example.com/g/r.git?private_token=glpat-abcdefghijklmnopqrst&ref=main'),
    'https://gitlab.example.com/g/r.git?private_token=***&ref=main',
  );
  assert.equal(redactUrl('https://h/x?X-Amz-Signature=abc123&a=1'), 'https://h/x?X-Amz-Signature=***&a=1');
  assert.equal(redactUrl('https://h/x?access_token=t#frag'), 'https://h/x?access_token=***#frag');
  // A token in the path, where no parameter name gives it away.
  assert.equal(redactUrl('https://h/ghp_abcdefghijklmnopqrstuvwxyz0123/r.git'), 'https://h/***/r.git');
  assert.equal(redactUrl('https://h/x?page=2'), 'https://h/x?page=2');
});

test('redactSecrets finds URLs and tokens inside free text such as a git error', () => {
  const message = "fatal: unable to access 'https://u:hunter2@h/r.git/?token=abc': could not resolve host; key AKIAABCDEFGHIJKLMNOP";
  const redacted = redactSecrets(message);
  assert.doesNotMatch(redacted, /hunter2|abc'|AKIAABCDEFGHIJKLMNOP/);
  assert.match(redacted, /https:\/\/u:\*\*\*@h\/r\.git\/\?token=\*\*\*/);
});
