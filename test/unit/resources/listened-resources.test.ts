// What the open 2026-07-28 listen streams of a connection name, and a real ResourceService kept
// subscribed to exactly that: a URI stays until the last stream naming it ends, the service's cap
// and its unknown-URI rule apply, and a stream that ends before its subscription is made leaves
// nothing behind.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import type { ListenedChange } from '../../../src/core/resources/listened-resources';
import { ListenedResources, subscribeToListened } from '../../../src/core/resources/listened-resources';
import { MAX_SUBSCRIPTIONS, ResourceService } from '../../../src/core/resources/resource-service';
import type { Disposable } from '../../../src/core/types';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

function recorder(listened: ListenedResources): ListenedChange[] {
  const changes: ListenedChange[] = [];
  listened.onDidChange((change) => void changes.push(change));
  return changes;
}

describe('the URIs the listen streams name', () => {
  test('a URI is added by its first stream and removed with its last', () => {
    const listened = new ListenedResources();
    const changes = recorder(listened);
    void listened.open('listen:0', ['tickets://7', 'docs://guide', 'tickets://7']);
    void listened.open(1, ['tickets://7']);
    listened.close('listen:0');
    assert.deepEqual(listened.uris(), ['tickets://7']);
    listened.close(1);
    assert.deepEqual(changes, [
      { added: ['tickets://7', 'docs://guide'], removed: [] },
      { added: [], removed: ['docs://guide'] },
      { added: [], removed: ['tickets://7'] },
    ]);
    assert.deepEqual(listened.uris(), []);
  });

  test('ids keep their type (1 and "1" are two streams); closing an unknown id twice changes nothing', () => {
    const listened = new ListenedResources();
    void listened.open(1, ['a://x']);
    void listened.open('1', ['b://y']);
    const changes = recorder(listened);
    listened.close('2');
    listened.close(1);
    listened.close(1);
    assert.deepEqual(changes, [{ added: [], removed: ['a://x'] }]);
    assert.ok(listened.has('1'));
    assert.ok(!listened.has(1));
  });

  test('opening an id again replaces what it named; clear ends every stream', () => {
    const listened = new ListenedResources();
    void listened.open('s', ['a://x', 'b://y']);
    const changes = recorder(listened);
    void listened.open('s', ['b://y', 'c://z']);
    void listened.open('t', ['c://z']);
    listened.clear();
    assert.deepEqual(changes, [
      { added: ['c://z'], removed: ['a://x'] },
      { added: [], removed: ['b://y'] },
      { added: [], removed: ['c://z'] },
    ]);
  });
});

describe('a resource service following the listen streams', () => {
  const warnings: string[] = [];
  const logger = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: (message: string) => void warnings.push(message), error: () => undefined };
  let workspace: TempDir;
  let service: ResourceService;
  let following: Disposable | undefined;
  beforeEach(() => {
    warnings.length = 0;
    workspace = makeTempDir('wt-listened-');
    const folder = { name: 'ws', path: workspace.path };
    const loaded = loadPluginFile(`${workspace.path}/.vscode/tools/r.json`, JSON.stringify({ resources: [{ name: 'ticket', uriTemplate: 'tickets://{id}', file: 'tickets/{{id}}.md' }] }), folder);
    const files = [{ file: loaded.file, approved: true, loaded }];
    service = new ResourceService({
      source: { files: () => files, initialize: () => Promise.resolve(), onDidChange: () => ({ dispose: () => undefined }) },
      env: process.env,
      limits: () => DEFAULT_LIMITS,
      logger,
      onUpdated: () => undefined,
      onListChanged: () => undefined,
    });
  });
  afterEach(() => {
    following?.dispose();
    service.dispose();
    workspace.cleanup();
  });

  /** Lets the service's asynchronous subscribe calls settle. */
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

  /** How many more URIs the service takes before its cap (each probe is released again). */
  async function room(): Promise<number> {
    const probes: string[] = [];
    try {
      for (;;) {
        const uri = `tickets://probe-${probes.length}`;
        await service.subscribe(uri);
        probes.push(uri);
      }
    } catch {
      probes.forEach((uri) => service.unsubscribe(uri));
      return probes.length;
    }
  }

  test('subscribes to what the streams name (already open ones too) and releases it with the last stream', async () => {
    const listened = new ListenedResources();
    void listened.open('early', ['tickets://1']);
    following = subscribeToListened(service, listened, logger);
    void listened.open('late', ['tickets://1', 'tickets://2']);
    await settle();
    assert.equal(await room(), MAX_SUBSCRIPTIONS - 2);
    listened.close('early');
    await settle();
    assert.equal(await room(), MAX_SUBSCRIPTIONS - 2, 'tickets://1 is still named by the stream "late"');
    listened.close('late');
    assert.equal(await room(), MAX_SUBSCRIPTIONS);
  });

  test('a URI nothing serves is left out quietly; one over the cap is logged; a stream that ends at once leaves nothing', async () => {
    const listened = new ListenedResources();
    following = subscribeToListened(service, listened, logger);
    const many = Array.from({ length: MAX_SUBSCRIPTIONS + 1 }, (_, index) => `tickets://${index}`);
    void listened.open('big', ['nothing://here', ...many]);
    await settle();
    assert.deepEqual(warnings, [`[mcp] subscriptions/listen: cannot follow tickets://${MAX_SUBSCRIPTIONS}: Too many subscriptions: at most ${MAX_SUBSCRIPTIONS} resources at once; unsubscribe from some first.`]);
    listened.close('big');
    void listened.open('brief', ['tickets://brief']);
    listened.close('brief');
    await settle();
    assert.equal(await room(), MAX_SUBSCRIPTIONS);
  });

  test('a stream of 20,000 URIs over the cap is one short warning, not one per URI', async () => {
    const listened = new ListenedResources();
    following = subscribeToListened(service, listened, logger);
    const many = Array.from({ length: 20_000 }, (_, index) => `tickets://${index}`);
    void listened.open('huge', many);
    await settle();
    const over = 20_000 - MAX_SUBSCRIPTIONS;
    assert.deepEqual(warnings, [`[mcp] subscriptions/listen: cannot follow tickets://${MAX_SUBSCRIPTIONS}: Too many subscriptions: at most ${MAX_SUBSCRIPTIONS} resources at once; unsubscribe from some first. (and ${over - 1} more URIs, for the same reason)`]);
    assert.ok((warnings[0] ?? '').length < 300);
    listened.close('huge');
    await settle();
    assert.equal(await room(), MAX_SUBSCRIPTIONS);
  });

  test('a URI not served when its stream opened is followed once a reload serves it (a file approved since)', async () => {
    const folder = { name: 'ws', path: workspace.path };
    const loaded = loadPluginFile(`${workspace.path}/.vscode/tools/g.json`, JSON.stringify({ resources: [{ name: 'guide', uri: 'docs://guide', file: 'docs/guide.md' }] }), folder);
    const files: { file: string; approved: boolean; loaded: typeof loaded }[] = [];
    const reloadListeners = new Set<() => void>();
    const source = {
      files: () => files,
      initialize: () => Promise.resolve(),
      onDidChange: (listener: () => void): Disposable => {
        reloadListeners.add(listener);
        return { dispose: () => void reloadListeners.delete(listener) };
      },
    };
    const updated: string[] = [];
    const own = new ResourceService({ source, env: process.env, limits: () => DEFAULT_LIMITS, logger, onUpdated: (uri) => void updated.push(uri), onListChanged: () => undefined, debounceMs: 10 });
    const listened = new ListenedResources();
    const followed = subscribeToListened(own, listened, logger, source);
    try {
      workspace.write('docs/guide.md', '# Guide\n');
      await listened.open('early', ['docs://guide']);
      // Approved (served) only now: the reload makes the listened URI a subscription.
      files.push({ file: loaded.file, approved: true, loaded });
      reloadListeners.forEach((listener) => listener());
      await settle();
      workspace.write('docs/guide.md', '# Guide, edited after the approval\n');
      const deadline = Date.now() + 5000;
      while (!updated.includes('docs://guide') && Date.now() < deadline) {
        await settle();
      }
      assert.ok(updated.includes('docs://guide'), `updates: ${JSON.stringify(updated)}`);
      assert.deepEqual(warnings, []);
    } finally {
      followed.dispose();
      own.dispose();
    }
  });

  test('disposed (the instance closed): streams opened later subscribe to nothing', async () => {
    const listened = new ListenedResources();
    subscribeToListened(service, listened, logger).dispose();
    void listened.open('after', ['tickets://1']);
    await settle();
    assert.equal(await room(), MAX_SUBSCRIPTIONS);
  });
});
