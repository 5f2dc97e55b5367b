import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BridgeUnavailableError, bridgeAddressOf, connectBridge } from '../../../src/core/editor-bridge/bridge-client';
import { EDITOR_TOOL_NAMES } from '../../../src/core/editor-bridge/editor-tool-specs';
import type { WorkspaceFolder } from '../../../src/core/types';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import type { TestWindow } from './bridge-host';
import { openTestWindow } from './bridge-host';
import { range, scriptedEditor } from './scripted-editor';

const CALLER = { pid: 4242, program: 'bridge test' };

/** Sends raw lines and collects the answers until the socket closes or `count` arrive. */
async function exchange(address: string, lines: readonly string[], count: number): Promise<{ answers: Array<Record<string, unknown>>; closed: boolean }> {
  const socket = net.createConnection(address);
  const answers: Array<Record<string, unknown>> = [];
  let buffered = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${answers.length} answers: ${JSON.stringify(answers)}`)), 5000);
    socket.on('connect', () => lines.forEach((line) => socket.write(`${line}\n`)));
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      answers.push(...parts.filter((part) => part !== '').map((part) => JSON.parse(part) as Record<string, unknown>));
      if (answers.length >= count) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ answers, closed: false });
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answers, closed: true });
    });
    socket.on('error', reject);
  });
}

describe('the editor bridge (a real socket in a private folder)', () => {
  let workspace: TempDir;
  let folders: WorkspaceFolder[];
  let window: TestWindow;
  before(async () => {
    workspace = makeTempDir('wt-bridge-ws-');
    workspace.write('src/main.ts', 'const n = 1;\n');
    folders = [{ name: 'app', path: workspace.path }];
    const main = path.join(workspace.path, 'src/main.ts');
    window = await openTestWindow(
      scriptedEditor({ definition: [{ file: main, range: range(0, 6, 7) }, { file: '/opt/elsewhere/lib.d.ts', range: range(3, 0, 5) }], hover: ['const n: 1'] }),
      folders,
    );
  });
  after(async () => {
    await window.close();
    workspace.cleanup();
  });

  test('lives in a folder only its user can enter (a named pipe on Windows), and gives terminals its address and token', () => {
    if (process.platform === 'win32') {
      assert.match(window.bridge.address, /^\\\\\.\\pipe\\workspace-tools-bridge-[0-9a-f]{32}$/);
    } else {
      assert.equal(statSync(path.dirname(window.bridge.address)).mode & 0o777, 0o700);
      assert.equal(statSync(window.bridge.address).mode & 0o777, 0o600);
    }
    assert.ok(window.bridge.token.length >= 43, 'a 256-bit token');
    assert.deepEqual(bridgeAddressOf(window.bridge.environment), { address: window.bridge.address, token: window.bridge.token });
  });

  test('with its token: lists the editor tools and the listed extension tool, and runs them', async () => {
    const connection = await connectBridge(window.bridge.address, window.bridge.token, CALLER);
    try {
      assert.equal(connection.hello.window, 'app');
      assert.deepEqual(connection.hello.tools.map((tool) => tool.name), [...EDITOR_TOOL_NAMES, 'acme_status']);
      const hover = await connection.call('editor-hover', { path: 'src/main.ts', line: 1, column: 7 }, new AbortController().signal);
      assert.equal(hover.isError, false, hover.text);
      assert.equal(hover.structured?.['hover'], 'const n: 1');
      const acme = await connection.call('acme_status', { q: 1 }, new AbortController().signal);
      assert.equal(acme.text, 'acme ok {"q":1}');
      assert.deepEqual(window.calls.slice(-2), [
        { name: 'editor-hover', caller: CALLER },
        { name: 'acme_status', caller: CALLER },
      ]);
    } finally {
      connection.close();
    }
  });

  test('a definition outside the workspace does not cross the bridge', async () => {
    const connection = await connectBridge(window.bridge.address, window.bridge.token, CALLER);
    try {
      const result = await connection.call('editor-definition', { path: 'src/main.ts', line: 1, column: 7 }, new AbortController().signal);
      assert.deepEqual(result.structured?.['definitions'], [{ folder: 'app', path: 'src/main.ts', line: 1, column: 7, endLine: 1, endColumn: 8 }]);
      assert.equal(result.structured?.['outsideWorkspace'], 1);
      assert.doesNotMatch(JSON.stringify(result), /elsewhere/);
    } finally {
      connection.close();
    }
  });

  test('a wrong token is refused, says why, and the connection is closed', async () => {
    await assert.rejects(connectBridge(window.bridge.address, 'not-the-token', CALLER), (error: unknown) => {
      assert.ok(error instanceof BridgeUnavailableError);
      assert.match(error.message, /bridge at .* refused the token in WORKSPACE_TOOLS_BRIDGE_TOKEN: it belongs to another opening of the window\. Open a new integrated terminal/);
      return true;
    });
    const before = window.calls.length;
    const raw = await exchange(window.bridge.address, [JSON.stringify({ id: 1, token: 'wrong', method: 'call', params: { name: 'editor-hover', input: {} } }), JSON.stringify({ id: 2, token: window.bridge.token, method: 'hello', params: CALLER })], 5);
    assert.deepEqual(raw.answers, [{ id: 1, error: { code: 'token', message: "The bridge refused the token: it is not this VS Code window's (a new one is made each time the window opens)." } }]);
    assert.equal(raw.closed, true, 'closed after the refusal: the right token on the same connection gets nothing');
    assert.equal(window.calls.length, before, 'nothing ran');
  });

  test('a tool that is neither an editor tool nor a listed extension tool is refused; so is what is not a request', async () => {
    const connection = await connectBridge(window.bridge.address, window.bridge.token, CALLER);
    try {
      const before = window.calls.length;
      for (const name of ['git-status', 'run-shell', 'acme_other']) {
        await assert.rejects(connection.call(name, {}, new AbortController().signal), /The VS Code window does not serve ".*" to outside callers: it serves the editor tools and the other extensions' tools listed in the setting workspaceTools\.bridge\.extensionTools \(editor-diagnostics, .*acme_status\)/);
      }
      assert.equal(window.calls.length, before);
    } finally {
      connection.close();
    }
    const raw = await exchange(window.bridge.address, ['not json', JSON.stringify({ id: 'x', token: window.bridge.token, method: 'hello' }), JSON.stringify({ id: 3, token: window.bridge.token, method: 'exec' })], 3);
    assert.deepEqual(raw.answers.map((answer) => (answer['error'] as { message: string }).message), [
      'The bridge reads one JSON object a line; this line is not JSON.',
      'A bridge request needs an integer "id".',
      'Unknown bridge method "exec": use hello, call or cancel.',
    ]);
  });

  test('cancelling a call cancels it in the window', async () => {
    const connection = await connectBridge(window.bridge.address, window.bridge.token, CALLER);
    try {
      const controller = new AbortController();
      const answer = connection.call('acme_status', { wait: true }, controller.signal);
      setTimeout(() => controller.abort(), 50);
      assert.equal((await answer).text, 'cancelled');
    } finally {
      connection.close();
    }
  });
});

describe('a bridge that is gone', () => {
  test('a stale address (the window closed) is refused cleanly, and the private folder is removed', async () => {
    const workspace = makeTempDir('wt-bridge-ws-');
    try {
      const window = await openTestWindow(scriptedEditor(), [{ name: 'app', path: workspace.path }]);
      const { address, token } = window.bridge;
      const connection = await connectBridge(address, token, CALLER);
      await window.close();
      if (process.platform !== 'win32') {
        assert.equal(existsSync(path.dirname(address)), false);
      }
      // A connection open when the window closed: the call says so.
      await assert.rejects(connection.call('editor-open-files', {}, new AbortController().signal), /the VS Code window that served the editor tools has closed \(or reloaded\)/);
      // A new one, from a terminal that kept the old address.
      await assert.rejects(connectBridge(address, token, CALLER), (error: unknown) => {
        assert.ok(error instanceof BridgeUnavailableError);
        assert.match(error.message, /bridge at .* is gone \((ENOENT|ECONNREFUSED)\): the window that opened it has closed or reloaded/);
        return true;
      });
    } finally {
      workspace.cleanup();
    }
  });

  test('no address, or no token: why there is no bridge', () => {
    assert.match((bridgeAddressOf({}) as { none: string }).none, /no VS Code window: WORKSPACE_TOOLS_BRIDGE is not set/);
    assert.match((bridgeAddressOf({ WORKSPACE_TOOLS_BRIDGE: '/tmp/x.sock' }) as { none: string }).none, /WORKSPACE_TOOLS_BRIDGE_TOKEN is not/);
    assert.match((bridgeAddressOf({ WORKSPACE_TOOLS_BRIDGE_OFF: 'Restricted Mode' }) as { none: string }).none, /the VS Code window opened no bridge: Restricted Mode/);
  });
});
