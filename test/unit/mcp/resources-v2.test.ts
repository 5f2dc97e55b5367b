/**
 * Plugin resources for the official v2 client over real stdio, on both protocol revisions: the
 * same list, templates and contents on 2025-11-25 (`initialize`) and 2026-07-28 (stateless), not
 * found as -32602 with `data.uri` on both, and updates of a changed file: through
 * `resources/subscribe` on 2025-11-25 and through a `subscriptions/listen` stream that names the
 * URI on 2026-07-28: a single file, one file of a glob and a template's URI alike, until the
 * stream is closed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { Client, ClientOptions } from '@modelcontextprotocol/client';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { connectV2Client } from '../helpers/mcp-client-v2';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63f8cf000003010100c9fe92ef0000000049454e44ae426082', 'hex');

const PLUGIN = JSON.stringify({
  resources: [
    { name: 'guide', description: 'How we work', uri: 'docs://guide', file: 'docs/guide.md' },
    { name: 'logo', uri: 'img://logo', file: 'img/logo.png' },
    { name: 'ticket', uriTemplate: 'tickets://{id}', file: 'tickets/{{id}}.md' },
    { name: 'notes', files: 'notes/*.md' },
  ],
});

let workspace: TempDir;
let configHome: string;
before(() => {
  workspace = makeTempDir('wt-res-v2-');
  workspace.write('.vscode/tools/docs.json', PLUGIN);
  workspace.write('docs/guide.md', '# Guide\n');
  workspace.write('tickets/7.md', 'ticket seven');
  workspace.write('tickets/8.md', 'ticket eight');
  workspace.write('notes/a.md', 'note a');
  workspace.write('notes/b.md', 'note b');
  workspace.write('img/.keep', '');
  writeFileSync(path.join(workspace.path, 'img/logo.png'), PNG);
  configHome = mkdtempSync(path.join(tmpdir(), 'wt-res-v2-config-'));
});
after(() => {
  workspace.cleanup();
  rmSync(configHome, { recursive: true, force: true });
});

function connect(options: ClientOptions = {}): Promise<Client> {
  return connectV2Client({ ...options, configHome, args: ['--workspace', workspace.path, '--approve-existing', '--no-builtins', '--no-history'] });
}

/** Resolves with the URI of the next notifications/resources/updated, or rejects after `ms`. */
function nextUpdate(client: Client, ms = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no resources/updated within ${ms} ms`)), ms);
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      clearTimeout(timer);
      resolve(notification.params.uri);
    });
  });
}

/** The URI of one file of the `notes/*.md` glob (the default URI of a workspace file). */
function noteUri(name: string): string {
  return `workspace-tools://file/${path.basename(workspace.path)}/notes/${name}.md`;
}

/** Every notifications/resources/updated URI the client gets from now on, in order. */
function collectUpdates(client: Client): string[] {
  const uris: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => void uris.push(notification.params.uri));
  return uris;
}

/** Resolves once `uris` holds `count` entries, or rejects after `ms`. */
async function untilCount(uris: readonly string[], count: number, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (uris.length < count) {
    if (Date.now() > deadline) {
      throw new Error(`expected ${count} resources/updated within ${ms} ms, got ${JSON.stringify(uris)}`);
    }
    await delay(25);
  }
}

/** Long enough for a change nobody listens to to have arrived (the watch debounce is 100 ms). */
const QUIET_MS = 1000;

const MODERN: ClientOptions = { versionNegotiation: { mode: { pin: '2026-07-28' } } };

const REVISIONS: readonly (readonly [string, ClientOptions, string])[] = [
  ['2025-11-25 (initialize)', {}, '2025-11-25'],
  ['2026-07-28 (a client pinned to it)', { versionNegotiation: { mode: { pin: '2026-07-28' } } }, '2026-07-28'],
];

describe('plugin resources for the official v2 client, on both revisions', () => {
  for (const [label, options, version] of REVISIONS) {
    test(`${label}: the same list, templates and contents; not found is -32602 with data.uri`, async () => {
      const client = await connect(options);
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), version);
        assert.deepEqual(client.getServerCapabilities()?.resources, { subscribe: true, listChanged: true });
        const { resources } = await client.listResources();
        assert.deepEqual(
          resources.map((resource) => [resource.uri, resource.name, resource.mimeType]),
          [
            ['docs://guide', 'guide', 'text/markdown'],
            ['img://logo', 'logo', 'image/png'],
            [noteUri('a'), 'notes/a.md', 'text/markdown'],
            [noteUri('b'), 'notes/b.md', 'text/markdown'],
          ],
        );
        assert.deepEqual((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate), ['tickets://{id}']);
        assert.deepEqual((await client.readResource({ uri: 'docs://guide' })).contents, [{ uri: 'docs://guide', mimeType: 'text/markdown', text: '# Guide\n' }]);
        assert.deepEqual((await client.readResource({ uri: 'img://logo' })).contents, [{ uri: 'img://logo', mimeType: 'image/png', blob: PNG.toString('base64') }]);
        assert.deepEqual((await client.readResource({ uri: 'tickets://7' })).contents, [{ uri: 'tickets://7', mimeType: 'text/markdown', text: 'ticket seven' }]);
        const error = await client.readResource({ uri: 'docs://nothing' }).then(
          () => assert.fail('read an unknown resource'),
          (caught: unknown) => caught,
        );
        assert.ok(error instanceof ProtocolError);
        assert.equal(error.code, -32602);
        assert.deepEqual(error.data, { uri: 'docs://nothing' });
      } finally {
        await client.close();
      }
    });
  }

  test('2025-11-25: resources/subscribe, then a change of the file is reported', async () => {
    const client = await connect();
    try {
      await client.subscribeResource({ uri: 'docs://guide' });
      const update = nextUpdate(client);
      workspace.write('docs/guide.md', '# Guide, edited on 2025-11-25\n');
      assert.equal(await update, 'docs://guide');
    } finally {
      await client.close();
    }
  });

  test('2026-07-28: no resources/subscribe; a subscriptions/listen stream naming the URI gets the change', async () => {
    const client = await connect({ versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      // The client learns the URI from the list (which also waits for the first load: the server
      // watches the served files from then on; the SDK serves subscriptions/listen itself).
      assert.ok((await client.listResources()).resources.some((resource) => resource.uri === 'docs://guide'));
      const subscription = await client.listen({ resourceSubscriptions: ['docs://guide'] });
      assert.deepEqual(subscription.honoredFilter, { resourceSubscriptions: ['docs://guide'] });
      const update = nextUpdate(client);
      workspace.write('docs/guide.md', '# Guide, edited on 2026-07-28\n');
      assert.equal(await update, 'docs://guide');
      await subscription.close();
    } finally {
      await client.close();
    }
  });
  test('2026-07-28: one file of a glob, named in a listen stream, reports its edits until the stream is closed', async () => {
    const client = await connect(MODERN);
    try {
      assert.ok((await client.listResources()).resources.some((resource) => resource.uri === noteUri('a')));
      const updates = collectUpdates(client);
      const subscription = await client.listen({ resourceSubscriptions: [noteUri('a')] });
      assert.deepEqual(subscription.honoredFilter, { resourceSubscriptions: [noteUri('a')] });
      workspace.write('notes/b.md', 'note b, edited: nobody listens to it');
      workspace.write('notes/a.md', 'note a, edited');
      await untilCount(updates, 1);
      await delay(QUIET_MS);
      assert.deepEqual(updates, [noteUri('a')]);
      await subscription.close();
      workspace.write('notes/a.md', 'note a, edited after the stream closed');
      await delay(QUIET_MS);
      assert.deepEqual(updates, [noteUri('a')]);
    } finally {
      await client.close();
    }
  });

  test("2026-07-28: a template's URI (tickets://7) in a listen stream reports edits of its file; a second stream keeps it after the first closes", async () => {
    const client = await connect(MODERN);
    try {
      assert.deepEqual((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate), ['tickets://{id}']);
      const updates = collectUpdates(client);
      // A URI nothing serves is honoured by the SDK's router and watched by nobody: no error, no update.
      const first = await client.listen({ resourceSubscriptions: ['tickets://7', 'docs://nothing'] });
      const second = await client.listen({ resourceSubscriptions: ['tickets://7'] });
      workspace.write('tickets/8.md', 'ticket eight, edited: nobody listens to it');
      workspace.write('tickets/7.md', 'ticket seven, edited');
      // One change, one update per stream that names the URI.
      await untilCount(updates, 2);
      await first.close();
      workspace.write('tickets/7.md', 'ticket seven, edited with one stream left');
      await untilCount(updates, 3);
      await delay(QUIET_MS);
      assert.deepEqual(updates, ['tickets://7', 'tickets://7', 'tickets://7']);
      await second.close();
      workspace.write('tickets/7.md', 'ticket seven, edited after both streams closed');
      await delay(QUIET_MS);
      assert.equal(updates.length, 3);
    } finally {
      await client.close();
    }
  });
});
