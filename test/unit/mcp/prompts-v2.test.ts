/**
 * Prompts and completions for the official v2 client over real stdio, on both protocol
 * revisions: the same prompt list, rendered messages (text, an embedded workspace file, an
 * image), completions of a prompt argument and of a resource-template variable, `-32602` for a
 * prompt or argument that does not exist, and `notifications/prompts/list_changed` after an
 * edit (on 2026-07-28 through a `subscriptions/listen` stream).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { Client, ClientOptions } from '@modelcontextprotocol/client';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { connectV2Client } from '../helpers/mcp-client-v2';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63f8cf000003010100c9fe92ef0000000049454e44ae426082', 'hex');

const PLUGIN = {
  prompts: [
    {
      name: 'review',
      title: 'Review a file',
      arguments: [
        { name: 'file', required: true, complete: { files: 'src/*.ts' } },
        { name: 'focus', enum: ['security', 'style'] },
      ],
      messages: [
        { role: 'user', text: 'Review {{file}} for {{focus}}.' },
        { role: 'user', file: '{{file}}' },
        { role: 'user', image: 'docs/diagram.png' },
      ],
    },
  ],
  resources: [{ name: 'ticket', uriTemplate: 'tickets://{id}', variables: { id: { complete: { command: ['node', '-e', "console.log('7\\n12\\n70')"] } } }, file: 'tickets/{{id}}.md' }],
};

let workspace: TempDir;
let configHome: string;
before(() => {
  workspace = makeTempDir('wt-prompts-v2-');
  workspace.write('.vscode/tools/team.json', JSON.stringify(PLUGIN));
  workspace.write('src/app.ts', 'export const app = 1;\n');
  workspace.write('src/api.ts', 'export const api = 2;\n');
  workspace.write('docs/.keep', '');
  writeFileSync(path.join(workspace.path, 'docs/diagram.png'), PNG);
  workspace.write('tickets/7.md', 'ticket seven');
  configHome = mkdtempSync(path.join(tmpdir(), 'wt-prompts-v2-config-'));
});
after(() => {
  workspace.cleanup();
  rmSync(configHome, { recursive: true, force: true });
});

function connect(options: ClientOptions = {}): Promise<Client> {
  return connectV2Client({ ...options, configHome, args: ['--workspace', workspace.path, '--approve-existing', '--no-builtins', '--no-history'] });
}

async function invalidParams(promise: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ProtocolError, `not a protocol error: ${String(error)}`);
    assert.equal(error.code, -32602, error.message);
    assert.match(error.message, message);
    return true;
  });
}

const REVISIONS: readonly (readonly [string, ClientOptions, string])[] = [
  ['2025-11-25 (initialize)', {}, '2025-11-25'],
  ['2026-07-28 (a client pinned to it)', { versionNegotiation: { mode: { pin: '2026-07-28' } } }, '2026-07-28'],
];

describe('prompts and completions for the official v2 client, on both revisions', () => {
  for (const [label, options, version] of REVISIONS) {
    test(`${label}: the same prompts, messages and completions; unknown names are -32602`, async () => {
      const client = await connect(options);
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), version);
        const capabilities = client.getServerCapabilities();
        assert.deepEqual(capabilities?.prompts, { listChanged: true });
        assert.deepEqual(capabilities?.completions, {});

        const { prompts } = await client.listPrompts();
        assert.deepEqual(prompts, [
          { name: 'review', title: 'Review a file', arguments: [{ name: 'file', required: true }, { name: 'focus', required: false }] },
        ]);

        const rendered = await client.getPrompt({ name: 'review', arguments: { file: 'src/app.ts', focus: 'security' } });
        const folder = encodeURIComponent(path.basename(workspace.path));
        assert.deepEqual(rendered.messages, [
          { role: 'user', content: { type: 'text', text: 'Review src/app.ts for security.' } },
          { role: 'user', content: { type: 'resource', resource: { uri: `workspace-tools://file/${folder}/src/app.ts`, mimeType: 'text/x-typescript', text: 'export const app = 1;\n' } } },
          { role: 'user', content: { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' } },
        ]);

        const files = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'file', value: 'src/ap' } });
        assert.deepEqual(files.completion.values, ['src/api.ts', 'src/app.ts']);
        const focus = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'focus', value: 's' } });
        assert.deepEqual(focus.completion.values, ['security', 'style']);
        const ids = await client.complete({ ref: { type: 'ref/resource', uri: 'tickets://{id}' }, argument: { name: 'id', value: '7' } });
        assert.deepEqual(ids.completion.values, ['7', '70']);

        await invalidParams(client.getPrompt({ name: 'nothing' }), /Unknown prompt: nothing\. Available prompts: review/);
        await invalidParams(client.getPrompt({ name: 'review', arguments: { focus: 'speed', file: 'src/app.ts' } }), /"speed" is not a value of "focus"/);
        await invalidParams(client.getPrompt({ name: 'review', arguments: { file: '../outside.ts' } }), /review/);
        await invalidParams(client.complete({ ref: { type: 'ref/resource', uri: 'tickets://{id}' }, argument: { name: 'other', value: '' } }), /has no variable "other"/);
      } finally {
        await client.close();
      }
    });
  }

  test('2026-07-28: an edit that changes the prompts reaches a subscriptions/listen stream as prompts/list_changed', async () => {
    const client = await connect({ versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      const changed = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no prompts/list_changed within 8 s')), 8000);
        client.setNotificationHandler('notifications/prompts/list_changed', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      await client.listPrompts();
      const listening = await client.listen({ promptsListChanged: true });
      try {
        // The approval is --approve-existing: a file whose messages changed waits, so its prompts leave the list.
        workspace.write('.vscode/tools/team.json', JSON.stringify({ ...PLUGIN, prompts: [{ ...PLUGIN.prompts[0], messages: [{ role: 'user', text: 'Changed words for {{file}}.' }] }] }));
        await changed;
        assert.deepEqual((await client.listPrompts()).prompts, []);
      } finally {
        await listening.close();
      }
    } finally {
      await client.close();
      workspace.write('.vscode/tools/team.json', JSON.stringify(PLUGIN));
    }
  });
});
