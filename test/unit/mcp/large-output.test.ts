// Large output over real stdio: 50 MB from a tool comes back as head and tail with a resource
// link, the whole output is readable through resources/read, and the server's memory stays small.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { OutputStore } from '../../../src/core/output/output-store';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { connectServer, resultText } from '../helpers/mcp-client';

const MB = 1024 * 1024;
const SIZE_MB = 50;

/** START, then 50 MB of 1 KB lines, then THE END. */
const PLUGIN = JSON.stringify({
  tools: [
    {
      name: 'flood',
      description: 'prints 50 MB',
      tags: ['read'],
      handler: {
        type: 'shell',
        command: ['node', '-e', `const line = 'x'.repeat(1023) + '\\n'; const block = line.repeat(1024); process.stdout.write('START\\n'); let n = 0; const next = () => { while (n < ${SIZE_MB}) { n++; if (!process.stdout.write(block)) { process.stdout.once('drain', next); return; } } process.stdout.write('THE END\\n'); }; next();`],
        timeout: 60000,
      },
    },
    { name: 'small', description: 'prints a little', tags: ['read'], handler: { type: 'shell', command: ['node', '-e', 'console.log("tiny")'] } },
  ],
});

/** Peak resident memory of a process (VmHWM), in MB. */
function peakMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

let workspace: TempDir;
beforeEach(() => {
  workspace = makeTempDir('wt-large-');
  workspace.write('.vscode/tools/flood.json', PLUGIN);
});
afterEach(() => workspace.cleanup());

describe('large output is kept, not lost', () => {
  test('50 MB: head and tail with a resource link; resources/read gives the whole; memory bounded', async () => {
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins']);
    try {
      const result = await server.client.callTool({ name: 'flood', arguments: {} }, undefined, { timeout: 60_000 });
      const text = resultText(result);
      assert.equal(result.isError, false, text.slice(0, 300));
      assert.ok(text.startsWith('START\n'), text.slice(0, 50));
      assert.ok(text.trimEnd().endsWith('THE END'), text.slice(-50));
      assert.match(text, /bytes not shown: the whole output \(\d+ bytes\) is in 7 resources, workspace-tools:\/\/output\/[0-9a-f-]+\/1 to .*\/7\]/);
      assert.ok(text.length < 200 * 1024, `the answer is ${text.length} characters`);
      // Parts of at most 8 MB: the SDK client refuses a message over 10 MB.
      const links = (result.content as { type: string; uri: string; size: number }[]).filter((part) => part.type === 'resource_link');
      assert.equal(links.length, 7);
      const total = 'START\n'.length + SIZE_MB * MB + 'THE END\n'.length;
      assert.equal(links.reduce((sum, link) => sum + link.size, 0), total);
      const pid = server.pid();
      if (process.platform === 'linux' && pid !== null) {
        assert.ok(peakMb(pid) < 150, `the server's peak memory reached ${peakMb(pid).toFixed(0)} MB`);
      }

      let whole = '';
      for (const link of links) {
        const read = await server.client.readResource({ uri: link.uri });
        whole += (read.contents[0] as { text?: string }).text ?? '';
      }
      assert.equal(whole.length, total);
      assert.ok(whole.startsWith('START\n') && whole.endsWith('THE END\n'));
      assert.equal(whole.replace(/x{1023}\n/g, ''), 'START\nTHE END\n');
      assert.deepEqual((await server.client.listResources()).resources.map((resource) => resource.uri), links.map((link) => link.uri));

      const small = await server.client.callTool({ name: 'small', arguments: {} });
      assert.deepEqual(small.content, [{ type: 'text', text: 'tiny\n' }]);
    } finally {
      await server.close();
    }
  });

  // Resource-not-found is -32602 with `data.uri` on every revision (protocol 2026-07-28 requires
  // it, and SDK v2 sends it so on 2025-11-25 too, where clients also accept the older -32002).
  test('resources/read of an unknown or foreign URI is a clear JSON-RPC error naming the URI', async () => {
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins']);
    try {
      for (const [uri, why] of [
        ['workspace-tools://output/00000000-0000-0000-0000-000000000000', /not one of the last 50 kept outputs/],
        // Not a kept output, and no plugin file's resource: unknown (plugin resources: resources.test.ts).
        ['file:///etc/passwd', /Unknown resource file:\/\/\/etc\/passwd: no approved plugin file serves it/],
      ] as const) {
        await assert.rejects(server.client.readResource({ uri }), (error: unknown) => {
          assert.ok(error instanceof McpError);
          assert.equal(error.code, -32602);
          assert.deepEqual(error.data, { uri });
          assert.match(error.message, why);
          return true;
        });
      }
    } finally {
      await server.close();
    }
  });
});

describe('OutputStore', () => {
  test('keeps the newest entries only; an expired one is an unknown resource and its file goes', async () => {
    const store = new OutputStore({ maxEntries: 1, maxAgeMs: 60_000 });
    try {
      const first = store.createSink('a');
      first.write(Buffer.from('first output'));
      const [kept] = await first.keep();
      assert.ok(kept !== undefined);
      assert.equal((await store.read(kept.uri)).text, 'first output');
      const second = store.createSink('b');
      second.write(Buffer.from('second'));
      const [newer] = await second.keep();
      assert.ok(newer !== undefined);
      await assert.rejects(store.read(kept.uri), /not one of the last 1 kept outputs/);
      assert.equal((await store.read(newer.uri)).text, 'second');
    } finally {
      store.dispose();
    }
  });

  test('entries older than the age limit expire', async () => {
    const store = new OutputStore({ maxEntries: 50, maxAgeMs: 50 });
    try {
      const sink = store.createSink('a');
      sink.write(Buffer.from('soon gone'));
      const [kept] = await sink.keep();
      assert.ok(kept !== undefined);
      await new Promise((resolve) => setTimeout(resolve, 80));
      await assert.rejects(store.read(kept.uri), /kept for/);
    } finally {
      store.dispose();
    }
  });
});
