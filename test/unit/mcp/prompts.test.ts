// Prompts and completions over real stdio with the SDK client (protocol 2025-11-25).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpError, PromptListChangedNotificationSchema, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { makeGitRepo } from '../helpers/git-repo';
import type { TempGitRepo } from '../helpers/git-repo';
import type { ConnectedServer } from '../helpers/mcp-client';
import { connectServer } from '../helpers/mcp-client';

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const TEAM = {
  prompts: [
    {
      name: 'review-change',
      title: 'Review a change',
      description: 'Review a file the way this team does',
      arguments: [
        { name: 'file', description: 'File to review', required: true, complete: { files: 'src/**/*.ts' } },
        { name: 'focus', description: 'What to look at', enum: ['security', 'style'] },
        { name: 'branch', complete: { command: ['git', 'branch', '--format=%(refname:short)'] } },
      ],
      messages: [
        { role: 'user', text: 'Review {{file}} on {{branch}} with a focus on {{focus}}.' },
        { role: 'user', file: '{{file}}' },
        { role: 'user', image: 'docs/diagram.png' },
      ],
    },
  ],
};

async function protocolError(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof McpError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a JSON-RPC error');
}

describe('stdio server: prompts from plugin files', () => {
  let repo: TempGitRepo;
  let server: ConnectedServer;
  let promptListChanges = 0;
  let waiters: Array<() => void> = [];
  const nextPromptListChanged = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no prompts/list_changed within 5 s')), 5000);
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  before(async () => {
    repo = makeGitRepo('wt-prompts-');
    repo.commit('first', { 'src/app.ts': 'export const app = 1;\n', 'src/feature.ts': 'export const f = 2;\n', '.gitignore': 'src/generated.ts\n' });
    repo.git('branch', 'feature/login');
    repo.write('src/generated.ts', 'ignored\n');
    repo.write('.vscode/tools/team.json', JSON.stringify(TEAM, null, 2));
    repo.write('docs/readme.md', 'docs\n');
    writeFileSync(path.join(repo.path, 'docs/diagram.png'), PNG);
    server = await connectServer(['--workspace', repo.path, '--approve-existing']);
    server.client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      promptListChanges += 1;
      const current = waiters;
      waiters = [];
      current.forEach((resolve) => resolve());
    });
  });
  after(async () => {
    await server.close();
    repo.cleanup();
  });

  test('the server declares prompts (with list_changed) and completions', () => {
    const capabilities = server.client.getServerCapabilities();
    assert.deepEqual(capabilities?.prompts, { listChanged: true });
    assert.deepEqual(capabilities?.completions, {});
  });

  test('prompts/list lists the prompt with its arguments', async () => {
    const { prompts } = await server.client.listPrompts();
    assert.deepEqual(prompts, [
      {
        name: 'review-change',
        title: 'Review a change',
        description: 'Review a file the way this team does',
        arguments: [
          { name: 'file', description: 'File to review', required: true },
          { name: 'focus', description: 'What to look at', required: false },
          { name: 'branch', required: false },
        ],
      },
    ]);
  });

  test('prompts/get renders text, the file as an embedded resource and the image', async () => {
    const result = await server.client.getPrompt({ name: 'review-change', arguments: { file: 'src/app.ts', focus: 'security', branch: 'main' } });
    assert.equal(result.description, 'Review a file the way this team does');
    assert.deepEqual(result.messages, [
      { role: 'user', content: { type: 'text', text: 'Review src/app.ts on main with a focus on security.' } },
      { role: 'user', content: { type: 'resource', resource: { uri: `workspace-tools://file/${encodeURIComponent(path.basename(repo.path))}/src/app.ts`, mimeType: 'text/x-typescript', text: 'export const app = 1;\n' } } },
      { role: 'user', content: { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' } },
    ]);
  });

  test('an unknown prompt, a missing required argument and a path out of the workspace are -32602 with what was wrong', async () => {
    const unknown = await protocolError(server.client.getPrompt({ name: 'nope' }));
    assert.equal(unknown.code, -32602);
    assert.match(unknown.message, /Unknown prompt: nope\. Available prompts: review-change/);
    const missing = await protocolError(server.client.getPrompt({ name: 'review-change', arguments: {} }));
    assert.equal(missing.code, -32602);
    assert.match(missing.message, /Prompt "review-change" needs the argument "file"/);
    const escape = await protocolError(server.client.getPrompt({ name: 'review-change', arguments: { file: '../../etc/passwd' } }));
    assert.equal(escape.code, -32602);
    assert.match(escape.message, /contains "\.\."/);
    const badValue = await protocolError(server.client.getPrompt({ name: 'review-change', arguments: { file: 'src/app.ts', focus: 'speed' } }));
    assert.match(badValue.message, /"speed" is not a value of "focus"/);
  });

  test('a malformed prompts/get is -32602 Invalid params, not an internal error', async () => {
    const bad = await protocolError(server.client.request({ method: 'prompts/get', params: { arguments: {} } }, ResultSchema));
    assert.equal(bad.code, -32602);
    assert.match(bad.message, /Invalid params for prompts\/get: params\.name/);
  });

  test('completion/complete: enum values, git-aware file paths, and the lines of the declared command', async () => {
    const complete = async (argument: string, value: string): Promise<{ values: string[]; total?: number; hasMore?: boolean }> =>
      (await server.client.complete({ ref: { type: 'ref/prompt', name: 'review-change' }, argument: { name: argument, value } })).completion;
    assert.deepEqual(await complete('focus', 'se'), { values: ['security'], total: 1, hasMore: false });
    assert.deepEqual(await complete('file', 'src/'), { values: ['src/app.ts', 'src/feature.ts'], total: 2, hasMore: false });
    assert.deepEqual(await complete('branch', 'feat'), { values: ['feature/login'], total: 1, hasMore: false });
    const unknown = await protocolError(server.client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } }));
    assert.equal(unknown.code, -32602);
  });

  test('prompts/list_changed comes when the prompts change, and not for a reload that changes no prompt', async () => {
    const before = promptListChanges;
    // A tool file beside it: the tool list changes, the prompt list does not.
    const toolsChanged = server.nextListChanged();
    repo.write('.vscode/tools/other.json', JSON.stringify({ tools: [{ name: 'say', description: 'says', handler: { type: 'shell', command: ['echo', 'hi'] } }] }));
    await toolsChanged;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(promptListChanges, before, 'a tools-only change sent prompts/list_changed');
    // A new prompt file waits for approval (only the files there at start were approved): the served list is the same.
    repo.write('.vscode/tools/more.json', JSON.stringify({ prompts: [{ name: 'standup', description: 'Write the standup', messages: [{ role: 'user', text: 'Write my standup.' }] }] }));
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(promptListChanges, before, 'a prompt waiting for approval sent prompts/list_changed');
    assert.deepEqual((await server.client.listPrompts()).prompts.map((prompt) => prompt.name), ['review-change']);
    const waiting = await protocolError(server.client.getPrompt({ name: 'standup' }));
    assert.equal(waiting.code, -32602);
    assert.match(waiting.message, /Prompt standup is not served: its plugin file .*more\.json is waiting for approval/);
    // A new description keeps the approval (descriptions are words, not what runs) and changes the list.
    const changed = nextPromptListChanged();
    repo.write('.vscode/tools/team.json', JSON.stringify({ prompts: [{ ...TEAM.prompts[0], description: 'Review it our way' }] }, null, 2));
    await changed;
    assert.equal(promptListChanges, before + 1);
    assert.deepEqual((await server.client.listPrompts()).prompts.map((prompt) => prompt.description), ['Review it our way']);
  });
});

describe('stdio server: no prompts where plugin files are off', () => {
  test('--no-plugins declares neither prompts nor completions, and prompts/list is method-not-found', async () => {
    const repo = makeGitRepo('wt-noprompts-');
    const server = await connectServer(['--workspace', repo.path, '--no-plugins']);
    try {
      const capabilities = server.client.getServerCapabilities();
      assert.equal(capabilities?.prompts, undefined);
      assert.equal(capabilities?.completions, undefined);
      const error = await protocolError(server.client.request({ method: 'prompts/list', params: {} }, ResultSchema));
      assert.equal(error.code, -32601);
    } finally {
      await server.close();
      repo.cleanup();
    }
  });
});
