// Issue 35 item 3 and issue 34 items 1, 4 and 6, where a user meets them: the real CLI and the
// real server over stdio, with a private HOME and approval store. Approving an imported npm script
// or make target shows what it runs (the script's text, the recipe), not only `npm run lint` or
// `make build`; when package.json's script or the Makefile's recipe changes after approval, the
// refusal names that file (not "its plugin file") and approving again shows the new text. Each
// tool's sandbox, from its import entry's tags, is in the review and in `approve --list`.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import type { SandboxServer } from './sandbox-server';
import { cli, startSandboxServer, waitingRefusal } from './sandbox-server';

let server: SandboxServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});


const PACKAGE = (lint: string): string => `${JSON.stringify({ name: 'bodies', private: true, scripts: { lint, 'fetch-deps': 'echo fetching' } }, null, 2)}\n`;
const MAKEFILE = (recipe: string): string => `build: gen\n\t${recipe}\n\ngen:\n\t@echo generating\n`;
const IMPORTS = JSON.stringify({ import: [{ from: 'npm-scripts', taskTags: { 'fetch-deps': ['execute', 'write', 'network'] } }, { from: 'make' }] }, null, 2);

const SANDBOX_WORKSPACE_NO_NETWORK = '    sandbox: writes: the workspace folder and its private temporary folder; network: none (loopback included)';

describe('approving imported tasks shows what they run and their sandbox (issue 35 item 3, issue 34)', () => {
  test('the review shows the script and the recipe; edited after approval, the refusal names package.json or the Makefile, the new text never runs, and the review shows it', async () => {
    server = await startSandboxServer({
      files: { 'package.json': PACKAGE('echo lint-v1'), Makefile: MAKEFILE('@echo build-v1'), '.vscode/tools/imports.json': IMPORTS },
    });
    const sandbox = server;
    const review = await cli(sandbox, ['approve', '--yes', '.vscode/tools/imports.json']);
    assert.equal(review.code, 0, review.stderr);
    assert.match(review.stdout, /is already approved/);

    assert.match((await sandbox.call('npm-lint')).text, /lint-v1/);
    assert.match((await sandbox.call('make-build')).text, /build-v1/);

    sandbox.workspace.write('package.json', PACKAGE('echo pwned-lint > pwned-lint.txt'));
    sandbox.workspace.write('Makefile', MAKEFILE('@echo pwned-make > pwned-make.txt'));
    // Before and after the server reloads: refused, naming the file that changed.
    const first = await sandbox.call('npm-lint');
    assert.equal(first.isError, true, first.text);
    assert.match(first.text, /package\.json changed/);
    for (const [tool, file] of [['npm-lint', 'package\\.json'], ['make-build', 'Makefile']] as const) {
      const waiting = await waitingRefusal(sandbox, tool);
      assert.match(waiting, new RegExp(`not available: (?:[^ ]+, )*${file}(?:, [^ ]+)* changed \\(edited, created or deleted\\) since its plugin file was approved`), waiting);
      assert.doesNotMatch(waiting, /its plugin file changed/, waiting);
    }
    const called = await cli(sandbox, ['call', 'npm-lint']);
    assert.equal(called.code, 1, called.stdout);
    assert.match(called.stderr, /not available: (?:[^ ]+, )*package\.json(?:, [^ ]+)* changed/);
    assert.doesNotMatch(called.stderr, /its plugin file changed/);
    for (const marker of ['pwned-lint.txt', 'pwned-make.txt']) {
      assert.equal(existsSync(path.join(sandbox.workspace.path, marker)), false, `${marker}: the edited task ran`);
    }

    // What approving now approves: the new script and recipe, and each tool's sandbox.
    const shown = await cli(sandbox, ['approve', '--yes']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.ok(
      shown.stdout.includes(
        ['• npm-lint [execute, write]', '    imports "lint" from package.json:5:5', '    runs: npm run lint -- {{args}}', '    package.json script "lint":', '    | echo pwned-lint > pwned-lint.txt', SANDBOX_WORKSPACE_NO_NETWORK, ''].join('\n'),
      ),
      shown.stdout,
    );
    assert.ok(
      shown.stdout.includes(
        [
          '• make-build [execute, write]',
          '    imports "build" from Makefile:1:1',
          '    runs: make build',
          '    Makefile:1 recipe of "build" (needs gen):',
          '    | @echo pwned-make > pwned-make.txt',
          '    Makefile:4 recipe of "gen", which "build" needs:',
          '    | @echo generating',
        ].join('\n'),
      ),
      shown.stdout,
    );
    // An entry's taskTags gives one task the network; its sandbox says so.
    assert.ok(shown.stdout.includes('• npm-fetch-deps [execute, write, network]'), shown.stdout);
    assert.ok(shown.stdout.includes('    sandbox: writes: the workspace folder and its private temporary folder; network: open\n'), shown.stdout);
    assert.ok(shown.stdout.includes('Every tool above in the OS sandbox cannot read: ~/.ssh, ~/.aws, ~/.config/gh, ~/.netrc, ~/.npmrc, ~/.docker/config.json, ~/.kube, ~/.gnupg, '), shown.stdout);

    const listed = await cli(sandbox, ['approve', '--list']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^approved {2}\.vscode\/tools\/imports\.json \(4 tools\)$/m);
    assert.ok(listed.stdout.includes('    • npm-lint [execute, write] sandbox: writes: the workspace folder and its private temporary folder; network: none (loopback included)\n'), listed.stdout);
    assert.ok(listed.stdout.includes('    • npm-fetch-deps [execute, write, network] sandbox: writes: the workspace folder and its private temporary folder; network: open\n'), listed.stdout);
    assert.match(listed.stdout, /^Tools in the OS sandbox cannot read: ~\/\.ssh, /m);
  });
});
