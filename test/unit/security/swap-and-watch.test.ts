/**
 * Issue 33, attacks 1 and 9, against the real server over stdio with the official v2 client and a
 * private HOME:
 * - a symlink swap: a helper process renames a folder and a symbolic link to an outside folder back
 *   and forth while resources/read, prompts/get (an embedded file) and file-reader read through
 *   it many times. Asserted is the invariant, not that a race happened: every answer is the
 *   inside text or an error, and no outside byte ever appears.
 * - subscribing to a URI whose file is (or lies behind) a link to an outside file: changes to the
 *   outside file are never announced, on resources/subscribe (2025-11-25) and on a
 *   subscriptions/listen stream (2026-07-28), while an inside file subscribed beside it is.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import type { ClientOptions } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { connectPrivate } from '../helpers/private-server';

const POSIX = process.platform !== 'win32';
const INSIDE = 'inside page\n';
const SECRET = 'OUTSIDE-SECRET-7f3a';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((cleanup) => cleanup()));

function tempDir(prefix: string): TempDir {
  const dir = makeTempDir(prefix);
  cleanups.push(() => dir.cleanup());
  return dir;
}

/**
 * The swapping helper, a separate process so the swaps run truly alongside the server: renames
 * `docs` away and the link into its place, then back, until `stop` exists, `count` rounds or
 * `ms` milliseconds (whichever first); it always stops with the real folder back in place.
 */
const SWAPPER = `
const fs = require('node:fs');
const [docs, link, stop, count, ms] = process.argv.slice(1);
const end = Date.now() + Number(ms);
let rounds = 0;
while (rounds < Number(count) && Date.now() < end && (rounds % 32 !== 0 || !fs.existsSync(stop))) {
  fs.renameSync(docs, docs + '.real');
  fs.renameSync(link, docs);
  fs.renameSync(docs, link);
  fs.renameSync(docs + '.real', docs);
  rounds += 1;
}
process.stdout.write(String(rounds));
`;

function startSwapper(docs: string, link: string, stop: string): Promise<number> {
  const child = spawn(process.execPath, ['-e', SWAPPER, docs, link, stop, '200000', '20000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`the swapper ended with ${String(code)}`))));
  });
}

/** What one request answered, as text (an error's message too): what must never hold the secret. */
async function answerOf(request: () => Promise<unknown>): Promise<{ ok: boolean; text: string }> {
  try {
    return { ok: true, text: JSON.stringify(await request()) };
  } catch (error) {
    return { ok: false, text: error instanceof Error ? error.message : String(error) };
  }
}

describe('a symlink swap never serves an outside byte (issue 33, attack 1)', () => {
  test('resources/read, prompts/get and file-reader, each read 150 times while a folder and a link to outside swap places', { skip: !POSIX, timeout: 120_000 }, async () => {
    const workspace = tempDir('wt-swap-ws-');
    const outside = tempDir('wt-swap-out-');
    outside.write('page.md', `${SECRET}\n`);
    workspace.write('docs/page.md', INSIDE);
    workspace.write('.vscode/tools/docs.json', JSON.stringify({
      resources: [{ name: 'page', uri: 'docs://page', file: 'docs/page.md' }],
      prompts: [{ name: 'page', messages: [{ role: 'user', text: 'Read this.' }, { role: 'user', file: 'docs/page.md' }] }],
    }));
    const docs = path.join(workspace.path, 'docs');
    const link = path.join(workspace.path, 'swap-link');
    symlinkSync(outside.path, link);
    const stop = path.join(tempDir('wt-swap-stop-').path, 'stop');
    const server = await connectPrivate(workspace.path);
    const { client } = server;
    try {
      const reads: Array<() => Promise<unknown>> = [
        () => client.readResource({ uri: 'docs://page' }),
        () => client.getPrompt({ name: 'page' }),
        () => client.callTool({ name: 'file-reader', arguments: { path: 'docs/page.md' } }),
      ];
      // Each door works before the swapping starts (so the answers below are not all refusals by construction).
      for (const read of reads) {
        const answer = await answerOf(read);
        assert.ok(answer.ok && answer.text.includes('inside page'), answer.text);
      }
      const swapper = startSwapper(docs, link, stop);
      const answers: Array<{ ok: boolean; text: string }> = [];
      for (let round = 0; round < 150; round += 1) {
        answers.push(...(await Promise.all(reads.map((read) => answerOf(read)))));
      }
      writeFileSync(stop, '');
      const rounds = await swapper;
      const leaked = answers.filter((answer) => answer.text.includes(SECRET));
      assert.deepEqual(leaked, [], `outside content served (${leaked.length} of ${answers.length} answers, ${rounds} swap rounds)`);
      for (const answer of answers.filter((one) => one.ok)) {
        // A success is the inside text (file-reader may report an error as a result: no secret either, checked above).
        assert.ok(answer.text.includes('inside page') || answer.text.includes('"isError":true'), answer.text.slice(0, 300));
      }
    } finally {
      writeFileSync(stop, '');
      await server.close();
    }
  });
});

const MODERN: ClientOptions = { versionNegotiation: { mode: { pin: '2026-07-28' } } };
/** Long enough for a change to have been announced (the watch debounce is 100 ms). */
const QUIET_MS = 1000;

/** A workspace whose docs/linked.md is a link to an outside file and whose ext/ is a link to an outside folder. */
function linkedWorkspace(): { workspace: TempDir; outside: TempDir } {
  const workspace = tempDir('wt-watch-ws-');
  const outside = tempDir('wt-watch-out-');
  outside.write('secret.md', 'secret v1\n');
  outside.write('folder/note.md', 'note v1\n');
  workspace.write('docs/guide.md', '# Guide\n');
  symlinkSync(path.join(outside.path, 'secret.md'), path.join(workspace.path, 'docs', 'linked.md'));
  symlinkSync(path.join(outside.path, 'folder'), path.join(workspace.path, 'ext'));
  workspace.write('.vscode/tools/docs.json', JSON.stringify({
    resources: [
      { name: 'guide', uri: 'docs://guide', file: 'docs/guide.md' },
      { name: 'linked', uri: 'docs://linked', file: 'docs/linked.md' },
      { name: 'ext', uri: 'docs://ext', file: 'ext/note.md' },
    ],
  }));
  return { workspace, outside };
}

function collectUpdates(client: Client): string[] {
  const uris: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => void uris.push(notification.params.uri));
  return uris;
}

async function untilSeen(uris: readonly string[], uri: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!uris.includes(uri)) {
    assert.ok(Date.now() < deadline, `no resources/updated for ${uri} within ${ms} ms (got ${JSON.stringify(uris)})`);
    await delay(25);
  }
}

/** Changes the outside files behind the links, then the inside guide; only the guide's update may come. */
async function changeAndExpectOnlyTheGuide(workspace: TempDir, outside: TempDir, updates: string[]): Promise<void> {
  await delay(200);
  outside.write('secret.md', 'secret v2\n');
  outside.write('folder/note.md', 'note v2\n');
  await delay(QUIET_MS);
  workspace.write('docs/guide.md', '# Guide, edited\n');
  await untilSeen(updates, 'docs://guide');
  await delay(QUIET_MS);
  assert.deepEqual(updates, ['docs://guide'], 'a change of an outside file was announced');
}

describe('a subscription never watches an outside file (issue 33, attack 9)', () => {
  test('2025-11-25 resources/subscribe: the links are refused at read, and their outside files are never watched', { skip: !POSIX, timeout: 30_000 }, async () => {
    const { workspace, outside } = linkedWorkspace();
    const server = await connectPrivate(workspace.path, {}, ['--no-builtins']);
    const { client } = server;
    try {
      for (const uri of ['docs://linked', 'docs://ext']) {
        await assert.rejects(client.readResource({ uri }), /outside the allowed directory/, uri);
      }
      const updates = collectUpdates(client);
      for (const uri of ['docs://guide', 'docs://linked', 'docs://ext']) {
        await client.subscribeResource({ uri });
      }
      await changeAndExpectOnlyTheGuide(workspace, outside, updates);
    } finally {
      await server.close();
    }
  });

  test('2026-07-28 subscriptions/listen: the same, for a stream naming the linked URIs', { skip: !POSIX, timeout: 30_000 }, async () => {
    const { workspace, outside } = linkedWorkspace();
    const server = await connectPrivate(workspace.path, MODERN, ['--no-builtins']);
    const { client } = server;
    try {
      assert.equal((await client.listResources()).resources.length, 3);
      const updates = collectUpdates(client);
      const stream = await client.listen({ resourceSubscriptions: ['docs://guide', 'docs://linked', 'docs://ext'] });
      await changeAndExpectOnlyTheGuide(workspace, outside, updates);
      await stream.close();
    } finally {
      await server.close();
    }
  });

  test('a link replaced by an inside file is watched from then on (the watch stays on the folder, not on what the link pointed to)', { skip: !POSIX, timeout: 30_000 }, async () => {
    const { workspace, outside } = linkedWorkspace();
    const server = await connectPrivate(workspace.path, {}, ['--no-builtins']);
    const { client } = server;
    try {
      const updates = collectUpdates(client);
      await client.subscribeResource({ uri: 'docs://linked' });
      await delay(200);
      rmSync(path.join(workspace.path, 'docs', 'linked.md'));
      writeFileSync(path.join(workspace.path, 'docs', 'linked.md'), 'now an inside file\n');
      await delay(QUIET_MS);
      updates.length = 0;
      outside.write('secret.md', 'secret v3\n');
      await delay(QUIET_MS);
      assert.deepEqual(updates, [], 'the outside file is still watched');
      writeFileSync(path.join(workspace.path, 'docs', 'linked.md'), 'edited inside\n');
      await untilSeen(updates, 'docs://linked');
      assert.deepEqual((await client.readResource({ uri: 'docs://linked' })).contents, [{ uri: 'docs://linked', mimeType: 'text/markdown', text: 'edited inside\n' }]);
    } finally {
      await server.close();
    }
  });
});
