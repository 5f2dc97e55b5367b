import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitGone } from '../helpers/processes';
import { ShellFixture } from './shell-fixture';

let fixture: ShellFixture;
beforeEach(() => {
  fixture = new ShellFixture();
});
afterEach(() => {
  fixture.dispose();
});

describe('shell handler: script mode', () => {
  test('values arrive as INPUT_ variables and $1.., never as script text; $0 is the tool', async () => {
    const result = await fixture.run(
      {
        script: 'printf "%s|" "$0" "$INPUT_VALUE" "$INPUT_COUNT" "$INPUT_ITEMS" "$INPUT_ODD_NAME_X" "${INPUT_OTHER-unset}" "$1" "$2"',
        args: ['{{value}}', '--n={{count}}'],
      },
      { value: '$(id); `id`', count: 7, items: ['a', 'b'], 'odd-name.x': 'odd' },
    );
    assert.equal(result.isError, false, result.text);
    assert.equal(result.text, 'my-tool|$(id); `id`|7|["a","b"]|odd|unset|$(id); `id`|--n=7|');
  });

  test('pipes and || work in a script', async () => {
    const result = await fixture.run({ script: 'printf "b\\na\\n" | sort | tr "\\n" " "; false || echo fallback' }, {});
    assert.equal(result.text, 'a b fallback\n');
  });

  test('args follow the same value checks as command tokens', async () => {
    const result = await fixture.run({ script: 'echo "$1"', args: ['{{value}}'] }, { value: '-e' });
    assert.equal(result.isError, true);
    assert.match(result.text, /argument injection/);
  });

  test('a platform override replaces command with script on this platform', async () => {
    const key = process.platform === 'darwin' ? 'osx' : 'linux';
    const result = await fixture.run(
      { command: ['false'], [key]: { script: 'echo "override $INPUT_VALUE"' } },
      { value: 'v' },
    );
    assert.equal(result.text, 'override v\n');
  });
});

describe('shell handler: process settings', () => {
  test('cwd is relative to the folder, env merges over the context and stdin is a template', async () => {
    mkdirSync(join(fixture.folder, 'sub'));
    const result = await fixture.run(
      {
        command: ['sh', '-c', 'pwd; echo "$GREETING|$HOST_SECRET|$FROM_HOST|$ABSENT."; cat'],
        cwd: 'sub',
        env: {
          GREETING: 'hi {{value}}',
          FROM_HOST: '${env:HOST_SECRET}!',
          ABSENT: 'x{{other}}',
        },
        stdin: 'in: {{value}} ${env:HOST_SECRET}',
      },
      { value: '${env:HOST_SECRET}' },
    );
    assert.equal(result.isError, false, result.text);
    assert.equal(
      result.text,
      `${join(fixture.folder, 'sub')}\nhi \${env:HOST_SECRET}|host-value|host-value!|.\nin: \${env:HOST_SECRET} \${env:HOST_SECRET}`,
    );
  });

  test('the default cwd is the folder; a missing cwd is a clear error', async () => {
    assert.equal((await fixture.run({ command: ['pwd'] }, {})).text, `${fixture.folder}\n`);
    const missing = await fixture.run({ command: ['pwd'], cwd: 'nope' }, {});
    assert.equal(missing.isError, true);
    assert.match(missing.text, /working directory ".*nope" does not exist/);
  });

  test('exit codes: only accepted ones succeed, the code is named, stderr is shown', async () => {
    const failed = await fixture.run({ command: ['sh', '-c', 'echo out; echo bad >&2; exit 1'] }, {});
    assert.equal(failed.isError, true);
    assert.equal(failed.text, 'The command failed with exit code 1 (accepted: 0).\n\nout\nstderr:\nbad\n');
    const accepted = await fixture.run({ command: ['sh', '-c', 'echo none; exit 1'], exitCodes: [0, 1] }, {});
    // The exit code and stdout alone travel with the result, for steps and tests.
    // With what ran, for the call history.
    assert.deepEqual(accepted, { text: 'none\n', isError: false, details: { exitCode: 1, stdout: 'none\n', ran: "sh -c 'echo none; exit 1'" } });
    const quiet = await fixture.run({ command: ['true'] }, {});
    assert.deepEqual(quiet, { text: '(no output)', isError: false, details: { exitCode: 0, stdout: '', ran: 'true' } });
    assert.deepEqual(failed.details, { exitCode: 1, stdout: 'out\n', ran: "sh -c 'echo out; echo bad >&2; exit 1'" });
  });

  test('a program that does not exist is named in the error', async () => {
    const result = await fixture.run({ command: 'wt-no-such-program --flag' }, {});
    assert.equal(result.isError, true);
    assert.match(result.text, /Could not start "wt-no-such-program": the program was not found \(ENOENT\)/);
  });
});

describe('shell handler: limits', () => {
  test('a timeout kills the whole tree and says so', async () => {
    const result = await fixture.run({ script: 'sleep 100 & echo $!; sleep 100', timeout: 400 }, {});
    assert.equal(result.isError, true);
    assert.match(result.text, /^The command timed out after 400 ms; the process tree was killed\.\n\n\d+\n$/);
    const grandchild = Number(/(\d+)\n$/.exec(result.text)?.[1]);
    assert.ok(grandchild > 0);
    assert.equal(await waitGone(grandchild), true, 'the background sleep outlived the timeout');
  });

  test('the default timeout comes from the context limits', async () => {
    const result = await fixture.run({ command: ['sleep', '100'] }, {}, fixture.context({}, { timeoutMs: 300 }));
    assert.match(result.text, /timed out after 300 ms/);
  });

  test('200 MB of output is cut at the cap with a visible note, memory stays bounded', async () => {
    const before = process.memoryUsage().rss;
    const result = await fixture.run(
      { command: ['head', '-c', '209715200', '/dev/zero'], maxOutputBytes: 4096 },
      {},
    );
    const grown = process.memoryUsage().rss - before;
    assert.equal(result.isError, false);
    assert.ok(result.text.endsWith('\n[output truncated: 209711104 more bytes were not captured (cap 4096 bytes)]'));
    assert.ok(result.text.length < 5000);
    // Under half of what streamed through: reading the pipe costs the runtime a fixed high-water
    // mark of freed chunks (about 35 MB on Node 22, 55 MB on Node 24), keeping the output would
    // cost all 200 MB.
    assert.ok(grown < 100 * 1024 * 1024, `RSS grew by ${grown} bytes`);
    const fromLimits = await fixture.run({ script: 'head -c 5000 /dev/zero >&2' }, {}, fixture.context({}, { maxOutputBytes: 1000 }));
    assert.match(fromLimits.text, /stderr:\n\0{1000}\n\[output truncated: 4000 more bytes/);
  });

  test('cancellation kills the child and says so', async () => {
    const controller = new AbortController();
    const pending = fixture.run(
      { script: 'echo $$ > pid; exec sleep 100' },
      {},
      fixture.context({ signal: controller.signal }),
    );
    const pidFile = join(fixture.folder, 'pid');
    let pid = 0;
    for (let i = 0; i < 400 && !(pid > 0); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      try {
        pid = Number(readFileSync(pidFile, 'utf8').trim());
      } catch {
        // not written yet
      }
    }
    assert.ok(pid > 0, 'the script never started');
    controller.abort();
    const result = await pending;
    assert.equal(result.isError, true);
    assert.match(result.text, /^The command was cancelled; the process tree was killed\./);
    assert.equal(await waitGone(pid), true);
  });
});
