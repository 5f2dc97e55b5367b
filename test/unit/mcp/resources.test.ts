/**
 * Plugin resources over real stdio with the real SDK client: listed beside the kept outputs,
 * templates, text and blob contents, not found for what is not served (a waiting file's resources
 * too), subscriptions that report a changed file until unsubscribed, and list_changed only when
 * the listed resources changed.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { EmptyResultSchema, McpError, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { connectServer } from '../helpers/mcp-client';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63f8cf000003010100c9fe92ef0000000049454e44ae426082', 'hex');

const RESOURCES = {
  resources: [
    { name: 'guide', title: 'The guide', description: 'How we work', file: 'docs/guide.md' },
    { name: 'logo', uri: 'img://logo', file: 'img/logo.png' },
    { name: 'notes', files: 'notes/*.txt' },
    { name: 'greeting', uriTemplate: 'greet://{who}', command: ['node', '-e', 'process.stdout.write("hello " + process.argv[1])', '{{who}}'], variables: { who: { description: 'whom to greet' } } },
  ],
};

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((cleanup) => cleanup()));

function workspaceWith(plugin: object = RESOURCES): TempDir {
  const workspace = makeTempDir('wt-mcp-res-');
  cleanups.push(() => workspace.cleanup());
  workspace.write('.vscode/tools/docs.json', JSON.stringify(plugin));
  workspace.write('docs/guide.md', '# Guide\n');
  workspace.write('notes/a.txt', 'note a');
  workspace.write('notes/b.txt', 'note b');
  workspace.write('img/.keep', '');
  writeFileSync(path.join(workspace.path, 'img/logo.png'), PNG);
  return workspace;
}

/** Collects notifications of one kind; `next` waits for the next one (or fails after `ms`). */
function collect(client: Client, schema: typeof ResourceUpdatedNotificationSchema | typeof ResourceListChangedNotificationSchema) {
  const seen: unknown[] = [];
  let waiter: (() => void) | undefined;
  client.setNotificationHandler(schema as typeof ResourceUpdatedNotificationSchema, (notification) => {
    seen.push(notification.params);
    waiter?.();
  });
  return {
    seen,
    next: (ms = 5000) =>
      new Promise<void>((resolve, reject) => {
        const count = seen.length;
        const timer = setTimeout(() => reject(new Error(`no ${String(schema.shape.method.value)} within ${ms} ms`)), ms);
        waiter = () => {
          if (seen.length > count) {
            clearTimeout(timer);
            waiter = undefined;
            resolve();
          }
        };
      }),
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function rejectsWithCode(promise: Promise<unknown>, code: number, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof McpError && error.code === code && (message === undefined || message.test(error.message)));
}

/** Resource not found: -32602 with `data.uri` on both revisions (2026-07-28 requires it; SDK v2 sends it on 2025-11-25 too). */
async function rejectsNotFound(promise: Promise<unknown>, uri: string, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof McpError && error.code === -32602 && (error.data as { uri?: unknown } | undefined)?.uri === uri && (message === undefined || message.test(error.message)));
}

describe('plugin resources over MCP (protocol 2025-11-25)', () => {
  test('declared, listed, templated and read: text, blob, a glob, a command template; not found (-32602, data.uri) for an unknown URI', async () => {
    const workspace = workspaceWith();
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins', '--no-history']);
    try {
      assert.deepEqual(server.client.getServerCapabilities()?.resources, { subscribe: true, listChanged: true });
      const { resources } = await server.client.listResources();
      assert.deepEqual(resources, [
        { uri: `workspace-tools://file/${path.basename(workspace.path)}/docs/guide.md`, name: 'guide', title: 'The guide', description: 'How we work', mimeType: 'text/markdown' },
        { uri: 'img://logo', name: 'logo', mimeType: 'image/png' },
        { uri: `workspace-tools://file/${path.basename(workspace.path)}/notes/a.txt`, name: 'notes/a.txt', mimeType: 'text/plain' },
        { uri: `workspace-tools://file/${path.basename(workspace.path)}/notes/b.txt`, name: 'notes/b.txt', mimeType: 'text/plain' },
      ]);
      assert.deepEqual((await server.client.listResourceTemplates()).resourceTemplates, [{ uriTemplate: 'greet://{who}', name: 'greeting' }]);

      const guide = resources[0]?.uri ?? '';
      assert.deepEqual((await server.client.readResource({ uri: guide })).contents, [{ uri: guide, mimeType: 'text/markdown', text: '# Guide\n' }]);
      assert.deepEqual((await server.client.readResource({ uri: 'img://logo' })).contents, [{ uri: 'img://logo', mimeType: 'image/png', blob: PNG.toString('base64') }]);
      assert.deepEqual((await server.client.readResource({ uri: resources[3]?.uri ?? '' })).contents, [{ uri: resources[3]?.uri, mimeType: 'text/plain', text: 'note b' }]);
      assert.deepEqual((await server.client.readResource({ uri: 'greet://world' })).contents, [{ uri: 'greet://world', mimeType: 'text/plain', text: 'hello world' }]);

      await rejectsNotFound(server.client.readResource({ uri: 'img://nothing' }), 'img://nothing', /Unknown resource img:\/\/nothing/);
      await rejectsWithCode(server.client.readResource({ uri: 'greet://-rf' }), -32602, /start an argument with "-"/);
      await rejectsNotFound(server.client.subscribeResource({ uri: 'img://nothing' }), 'img://nothing');
      // Invalid params are -32602 before the SDK sees them.
      await rejectsWithCode(server.client.request({ method: 'resources/subscribe', params: {} }, EmptyResultSchema), -32602);
    } finally {
      await server.close();
    }
  });

  test('the kept large outputs are listed after the plugin resources, and read and subscribed to as before', async () => {
    const workspace = workspaceWith();
    workspace.write('.vscode/tools/flood.json', JSON.stringify({ tools: [{ name: 'flood', description: 'prints 5000 bytes', tags: ['read'], handler: { type: 'shell', command: ['node', '-e', 'process.stdout.write("z".repeat(5000))'] } }] }));
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins', '--no-history', '--large-output', '1000']);
    try {
      const result = await server.client.callTool({ name: 'flood', arguments: {} });
      const link = (result.content as { type: string; uri?: string }[]).find((part) => part.type === 'resource_link');
      assert.match(link?.uri ?? '', /^workspace-tools:\/\/output\//);
      const { resources } = await server.client.listResources();
      assert.deepEqual(resources.map((resource) => resource.uri).slice(4), [link?.uri]);
      assert.deepEqual(resources[4], { uri: link?.uri, name: 'flood output', mimeType: 'text/plain', size: 5000 });
      assert.deepEqual((await server.client.readResource({ uri: link?.uri ?? '' })).contents, [{ uri: link?.uri, mimeType: 'text/plain', text: 'z'.repeat(5000) }]);
      assert.deepEqual(await server.client.subscribeResource({ uri: link?.uri ?? '' }), {});
      await rejectsNotFound(server.client.subscribeResource({ uri: 'workspace-tools://output/nope' }), 'workspace-tools://output/nope');
    } finally {
      await server.close();
    }
  });

  test('a file waiting for approval serves no resource', async () => {
    const workspace = workspaceWith();
    const server = await connectServer(['--workspace', workspace.path, '--no-builtins', '--no-history']);
    try {
      assert.deepEqual((await server.client.listResources()).resources, []);
      assert.deepEqual((await server.client.listResourceTemplates()).resourceTemplates, []);
      await rejectsNotFound(server.client.readResource({ uri: 'img://logo' }), 'img://logo', /waits for approval/);
    } finally {
      await server.close();
    }
  });

  test('a subscribed file that changes is reported until unsubscribed; an unsubscribed one never', async () => {
    const workspace = workspaceWith();
    const server = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins', '--no-history']);
    try {
      const updated = collect(server.client, ResourceUpdatedNotificationSchema);
      const guide = `workspace-tools://file/${path.basename(workspace.path)}/docs/guide.md`;
      await server.client.subscribeResource({ uri: guide });
      const next = updated.next();
      workspace.write('docs/guide.md', '# Guide, edited\n');
      await next;
      assert.deepEqual(updated.seen, [{ uri: guide }]);
      assert.deepEqual((await server.client.readResource({ uri: guide })).contents, [{ uri: guide, mimeType: 'text/markdown', text: '# Guide, edited\n' }]);

      // A file nobody subscribed to changes: nothing is sent.
      workspace.write('notes/a.txt', 'note a, edited');
      await server.client.unsubscribeResource({ uri: guide });
      workspace.write('docs/guide.md', '# Guide, edited again\n');
      await sleep(1000);
      assert.deepEqual(updated.seen, [{ uri: guide }]);
    } finally {
      await server.close();
    }
  });

  test('list_changed when the listed resources change, not for an edit that leaves them as they were', async () => {
    const workspace = workspaceWith();
    workspace.write('.vscode/tools/other.json', JSON.stringify({ tools: [{ name: 'hi', description: 'says hi', tags: ['read'], handler: { type: 'shell', command: ['echo', 'hi'] } }] }));
    const server = await connectServer(['--workspace', workspace.path, '--approve-changes', '--no-builtins', '--no-history']);
    try {
      const changed = collect(server.client, ResourceListChangedNotificationSchema);
      assert.equal((await server.client.listResources()).resources.length, 4);
      // Another file's tool changes: the tools list changed, the resources did not.
      const toolsChanged = server.nextListChanged();
      workspace.write('.vscode/tools/other.json', JSON.stringify({ tools: [{ name: 'hello', description: 'says hi', tags: ['read'], handler: { type: 'shell', command: ['echo', 'hi'] } }] }));
      await toolsChanged;
      await sleep(300);
      assert.equal(changed.seen.length, 0);

      const next = changed.next();
      workspace.write('.vscode/tools/docs.json', JSON.stringify({ resources: [...RESOURCES.resources, { name: 'readme', uri: 'docs://readme', file: 'docs/guide.md' }] }));
      await next;
      assert.equal(changed.seen.length, 1);
      assert.ok((await server.client.listResources()).resources.some((resource) => resource.uri === 'docs://readme'));
    } finally {
      await server.close();
    }
  });
});
