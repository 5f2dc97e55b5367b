/**
 * What a failed sandboxed call was refused, from what programs really print inside the sandbox
 * (texts captured from dash, bash, coreutils, Node, Python, curl and the runtime's proxy), worded
 * with the path or host and the tag or declared entry that allows it (sandbox/explain-refusal.ts).
 * The real thing, end to end, is in plugin-shell-tools.test.ts.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { explainRefusal } from '../../../src/core/sandbox/explain-refusal';
import { policyFor } from '../../../src/core/sandbox/policy';
import { howToFix, sandboxMark, unavailableNotice } from '../../../src/core/sandbox/status';
import { platformNamed } from '../../../src/core/platform/platform';

const home = path.resolve('/home/dev');
const folder = path.resolve('/home/dev/project');
const statePaths = [path.resolve('/home/dev/.config/workspace-tools')];
const place = { folder, home, statePaths };
const context = { cwd: folder, home, statePaths, violations: [] };

describe('explainRefusal', () => {
  test('a refused write, as dash, bash, coreutils, Node and Python say it, names the path and the tag "write"', () => {
    const policy = policyFor(['read'], undefined, place);
    const outputs = [
      'sh: 1: cannot create out.txt: Read-only file system',
      '/usr/bin/bash: line 1: out.txt: Read-only file system',
      "touch: cannot touch 'out.txt': Read-only file system",
      "mkdir: cannot create directory ‘out.txt’: Read-only file system",
      "Error: EROFS: read-only file system, open 'out.txt'",
      "OSError: [Errno 30] Read-only file system: 'out.txt'",
    ];
    for (const output of outputs) {
      assert.equal(
        explainRefusal(output, policy, context),
        'Refused by the OS sandbox:\n- writing "out.txt": the tool may write only its private temporary folder ($TMPDIR); tag it "write" to let it write inside the workspace folder.',
        output,
      );
    }
  });

  test('outside the folder no tag helps; inside a write tool, a protected path is said to be protected', () => {
    const outside = explainRefusal('sh: 1: cannot create /etc/x: Read-only file system', policyFor(['write'], undefined, place), context);
    assert.match(outside ?? '', /- writing "\/etc\/x": it is outside the workspace folder, where no tag lets a tool write/);
    const hook = explainRefusal('sh: 1: cannot create .git/hooks/pre-commit: Read-only file system', policyFor(['write'], undefined, place), context);
    assert.match(hook ?? '', /- writing "\.git\/hooks\/pre-commit": it is protected in every sandbox/);
    const declared = explainRefusal('sh: 1: cannot create src/x: Read-only file system', policyFor(['write'], { write: ['dist'] }, place), context);
    assert.match(declared ?? '', /- writing "src\/x": the tool may write only "dist" \(its "sandbox" "write" list\)/);
  });

  test('a hidden credential, as a file (denied) or in a folder (missing), is named; the state is never readable', () => {
    const policy = policyFor(['read'], undefined, place);
    const output = [`cat: ${home}/.ssh/id_ed25519: No such file or directory`, `cat: ${home}/.netrc: Permission denied`, `cat: ${statePaths[0] ?? ''}/approvals.json: No such file or directory`].join('\n');
    const said = explainRefusal(output, policy, context) ?? '';
    assert.match(said, /- reading "~\/\.ssh\/id_ed25519": "~\/\.ssh" is hidden from every tool .* declares it in its "sandbox" "read" list/);
    assert.match(said, /- reading "~\/\.netrc": "~\/\.netrc" is hidden/);
    assert.match(said, /- reading "~\/\.config\/workspace-tools\/approvals\.json": it is this product's own state/);
    assert.equal(explainRefusal(`${home}/.ssh/config is mentioned, fine`, policy, context), undefined, 'a path alone is no refusal');
  });

  test('no network: a refused, unresolved or tunnelled connection says the tag "network"; declared hosts name the refused one', () => {
    const none = policyFor(['read'], undefined, place);
    for (const output of ['Error: connect ECONNREFUSED 127.0.0.1:8080', 'npm error code EAI_AGAIN', 'curl: (56) CONNECT tunnel failed, response 403', 'getaddrinfo ENOTFOUND registry.npmjs.org']) {
      assert.match(explainRefusal(output, none, context) ?? '', /- a network connection: the tool has no network \(loopback included\); tag it "network"/, output);
    }
    const violations = ['deny network-outbound example.com:443 (host is not on the allow list)'];
    const hosts = policyFor(['network'], { hosts: ['registry.npmjs.org'] }, place);
    assert.equal(
      explainRefusal('Error: Request was cancelled.', hosts, { ...context, violations }),
      'Refused by the OS sandbox:\n- connecting to example.com:443: the tool may reach only the hosts it declares (registry.npmjs.org); add it to its "sandbox" "hosts" list to allow it.',
    );
    assert.equal(explainRefusal('Error: connect ECONNREFUSED 127.0.0.1:1', policyFor(['network'], undefined, place), context), undefined, 'an open network refuses nothing');
  });

  test('a failure that is not the sandbox\'s is left alone', () => {
    assert.equal(explainRefusal('error TS2322: Type string is not assignable to type number', policyFor(['read'], undefined, place), context), undefined);
  });
});

describe('the sandbox status in words', () => {
  const linux = platformNamed('linux');

  test('what to do: the packages that are missing, the sysctl for user namespaces, WSL 1, Windows', () => {
    assert.match(howToFix('Sandbox dependencies not available: bubblewrap (bwrap) not executable at /x', linux), /^install bubblewrap: sudo apt-get install bubblewrap \(Debian, Ubuntu\) or sudo dnf install bubblewrap \(Fedora\)/);
    assert.match(howToFix('Sandbox dependencies not available: socat not found', linux), /install socat/);
    assert.match(howToFix('ripgrep (rg) not found', linux), /install ripgrep/);
    assert.match(howToFix('a sandboxed "true" failed (exit 1): bwrap: setting up uid map: Permission denied', linux), /kernel\.apparmor_restrict_unprivileged_userns=0/);
    assert.match(howToFix('bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)', linux), /user namespaces/);
    assert.match(howToFix('this platform is not one the sandbox runtime supports (WSL 1 ...)', linux), /WSL 2/);
    assert.match(howToFix('anything', platformNamed('win32')), /Windows sandbox .* alpha/);
    assert.match(howToFix("the sandbox runtime's seccomp filter is missing (seccomp not available - unix socket access not restricted)", linux), /reinstall Workspace Tools/);
  });

  test('the mark of a tool that runs without it, and the one notice', () => {
    const unavailable = { state: 'unavailable' as const, reason: 'bwrap missing', howToFix: 'install bubblewrap' };
    assert.equal(sandboxMark({ state: 'available' }), undefined);
    assert.equal(sandboxMark({ state: 'checking' }), undefined);
    assert.equal(sandboxMark(unavailable), 'not sandboxed: bwrap missing');
    assert.equal(sandboxMark(unavailable, 'required'), 'not served: the OS sandbox is required and unavailable: bwrap missing');
    assert.equal(sandboxMark({ state: 'off' }), 'not sandboxed: the sandbox is off (workspaceTools.sandbox, --sandbox)');
    assert.match(unavailableNotice(unavailable, 'preferred'), /^The OS sandbox is unavailable: bwrap missing\nShell and imported tools run NOT sandboxed.*\nTo fix: install bubblewrap$/);
    assert.match(unavailableNotice(unavailable, 'required'), /Shell and imported tools are not served/);
  });
});
