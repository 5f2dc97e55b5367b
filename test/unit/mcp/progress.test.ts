// Progress notifications over real stdio: a shell tool that prints fast reports its latest line
// at most 4 times a second, and nothing arrives after the result.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { connectServer, resultText } from '../helpers/mcp-client';

/** ~1,000 lines a second for `seconds`, each "line N". */
function chattyPlugin(seconds: number): string {
  const script = `let n = 0; const end = Date.now() + ${seconds * 1000}; const t = setInterval(() => { for (let i = 0; i < 10; i++) console.log('line ' + (++n)); if (Date.now() > end) { clearInterval(t); console.log('done'); } }, 10);`;
  return JSON.stringify({
    tools: [{ name: 'chatty', description: 'prints a lot', tags: ['read'], handler: { type: 'shell', command: ['node', '-e', script], timeout: 30000 } }],
  });
}

let workspace: TempDir;
beforeEach(() => {
  workspace = makeTempDir('wt-progress-');
});
afterEach(() => workspace.cleanup());

describe('MCP progress notifications', () => {
  test('at most ~4 a second with the latest line, increasing, none after the result', async () => {
    const seconds = 3;
    workspace.write('.vscode/tools/chatty.json', chattyPlugin(seconds));
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins']);
    const lateErrors: string[] = [];
    server.client.onerror = (error) => lateErrors.push(String(error));
    try {
      const received: { at: number; progress: number; message?: string }[] = [];
      const started = performance.now();
      const result = await server.client.callTool({ name: 'chatty', arguments: {} }, undefined, {
        onprogress: (progress) => received.push({ at: performance.now() - started, progress: progress.progress, ...(progress.message === undefined ? {} : { message: progress.message }) }),
        timeout: 30_000,
      });
      const finishedAt = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 600));
      assert.equal(result.isError, false, resultText(result));
      assert.ok(received.length >= seconds * 2, `only ${received.length} progress notifications in ${seconds} s`);
      assert.ok(received.length <= seconds * 4 + 2, `${received.length} progress notifications in ${seconds} s`);
      for (let i = 1; i < received.length; i++) {
        const gap = (received[i]?.at ?? 0) - (received[i - 1]?.at ?? 0);
        assert.ok(gap >= 200, `two notifications ${gap.toFixed(0)} ms apart`);
        assert.ok((received[i]?.progress ?? 0) > (received[i - 1]?.progress ?? 0), 'progress must increase');
      }
      assert.ok(received.every((one) => /^line \d+$|^done$/.test(one.message ?? '')), JSON.stringify(received.slice(0, 3)));
      assert.ok(received.every((one) => one.at <= finishedAt), 'a notification arrived after the result');
      assert.deepEqual(lateErrors.filter((error) => /progress/i.test(error)), [], 'a progress notification came after the result');
    } finally {
      await server.close();
    }
  });

  test('a call without a progress token gets no notifications', async () => {
    workspace.write('.vscode/tools/chatty.json', chattyPlugin(1));
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins']);
    const errors: string[] = [];
    server.client.onerror = (error) => errors.push(String(error));
    try {
      const result = await server.client.callTool({ name: 'chatty', arguments: {} });
      assert.match(resultText(result), /done/);
      assert.deepEqual(errors, []);
    } finally {
      await server.close();
    }
  });
});
