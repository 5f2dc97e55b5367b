/**
 * The user's shell start-up files never run around a sandboxed call: the runtime's inner bash
 * would source ~/.bashrc (it takes the socket on its stdin for sshd's) at a shell level below 2,
 * and this machine's ~/.bashrc printed pyenv's "cannot rehash" into a tool's output when the
 * server was started with SHLVL=0. The home is under /var/tmp: the sandbox gives each call a
 * /tmp of its own, where a home would be out of sight.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { shellLevelFor } from '../../../src/core/sandbox/sandbox-service';
import { runServerScript } from '../helpers/cli';
import { makeTempDir } from '../helpers/git-repo';
import { serverEnv } from '../security/sandbox-server';
import { needsSandbox, pluginFile, scriptTool } from './sandbox-world';

const MARKER = 'BASHRC-RAN-5d1c';
const home = realpathSync(mkdtempSync('/var/tmp/wt-sbx-home-'));
const workspace = makeTempDir('wt-sbx-startup-');

after(() => {
  rmSync(home, { recursive: true, force: true });
  workspace.cleanup();
});

describe('the user\'s shell start-up files around a sandboxed call', () => {
  test('a server started with SHLVL=0: ~/.bashrc does not run, the output is the tool\'s alone', async () => {
    await needsSandbox();
    writeFileSync(path.join(home, '.bashrc'), `echo ${MARKER} >&2\necho ${MARKER}\n`);
    workspace.write('.vscode/tools/hello.json', pluginFile([scriptTool('hello', ['read'], 'printf hello')]));
    const run = await runServerScript(['call', 'hello', '--workspace', workspace.path, '--no-builtins', '--approve-existing', '--sandbox', 'required'], {
      cwd: workspace.path,
      env: { ...serverEnv(home), SHLVL: '0' },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.stdout.trim(), 'hello', run.stdout);
    assert.doesNotMatch(run.stdout + run.stderr, new RegExp(MARKER));
  });

  test('the inner shell\'s level: an inherited level of 1 or more is kept, anything else is 1', () => {
    assert.deepEqual(['3', '1', undefined, '0', '', '-2', 'x', '1.5'].map(shellLevelFor), ['3', '1', '1', '1', '1', '1', '1', '1']);
  });
});
