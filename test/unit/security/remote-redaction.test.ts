// workspace-info shows remote URLs to the model: tokens in them must not reach the transcript.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactUrl } from '../../../src/core/builtins/workspace-info';

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
