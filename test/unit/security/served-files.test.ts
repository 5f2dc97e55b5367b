/**
 * Issue 33's weak spots for files served by resources and prompts, over real stdio with a private
 * HOME: `.git/` is never served (a `**\/*` glob resource, a template, a link to .git/config, a
 * `file` naming it: refused, the token in the remote URL never sent), and a file with a second
 * hard link (whose other name may be outside the workspace) is neither a resource nor a prompt's
 * embedded file.
 */
import assert from 'node:assert/strict';
import { linkSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import type { TempDir } from '../helpers/git-repo';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo';
import { connectPrivate } from '../helpers/private-server';

const POSIX = process.platform !== 'win32';
const TOKEN = 'ghp_SECRETTOKEN123';
const SECRET = 'OUTSIDE-SECRET-hardlink';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((cleanup) => cleanup()));

function track<T extends TempDir>(dir: T): T {
  cleanups.push(() => dir.cleanup());
  return dir;
}

/** Every answer as text (an error's message too), to look for what must never be sent. */
async function answerOf(request: Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify(await request);
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

describe('.git is never served by resources or globs', () => {
  test('a **/* glob, a template and a link into .git serve nothing of it; the token in the remote URL is never sent', { skip: !POSIX, timeout: 30_000 }, async () => {
    const repo = track(makeGitRepo('wt-git-served-'));
    repo.commit('docs', { 'docs/readme.md': '# Readme\n' });
    repo.git('remote', 'add', 'origin', `https://ada:${TOKEN}@example.com/team/repo.git`);
    symlinkSync('../.git/config', path.join(repo.path, 'docs', 'config-link'));
    // A submodule's or a worktree's .git is a file naming the real git directory.
    repo.write('vendor/lib/.git', 'gitdir: ../../.git/modules/lib\n');
    repo.write('.vscode/tools/all.json', JSON.stringify({
      resources: [
        { name: 'all', files: '**/*' },
        { name: 'any', uriTemplate: 'git://{dir}/config', file: '{{dir}}/config' },
      ],
    }));
    const folder = path.basename(repo.path);
    const fileUri = (relative: string): string => `workspace-tools://file/${folder}/${relative}`;
    const server = await connectPrivate(repo.path, {}, ['--no-builtins']);
    try {
      const { resources } = await server.client.listResources();
      const uris = resources.map((resource) => resource.uri);
      assert.ok(uris.includes(fileUri('docs/readme.md')), JSON.stringify(uris));
      assert.deepEqual(uris.filter((uri) => /\/\.git(\/|$)/i.test(uri)), []);
      const answers: string[] = [];
      for (const uri of [fileUri('vendor/lib/.git'), fileUri('.git/config'), fileUri('.GIT/config'), fileUri('docs/../.git/config'), fileUri('docs/config-link'), 'git://.git/config']) {
        const answer = await answerOf(server.client.readResource({ uri }));
        answers.push(answer);
        assert.match(answer, /^error: .*(never served|Unknown resource)/, uri);
      }
      assert.match(answers[0] ?? '', /\.git and what lies inside it are never served/);
      assert.match(answers[1] ?? '', /\.git and what lies inside it are never served/);
      assert.match(answers[4] ?? '', /is or lies inside \.git, which is never served/, 'the link is refused by the real path it leads to');
      assert.deepEqual(answers.filter((answer) => answer.includes(TOKEN)), []);
      assert.match(await answerOf(server.client.readResource({ uri: fileUri('docs/readme.md') })), /# Readme/);
    } finally {
      await server.close();
    }
  });

  test('a resource whose "file" is in .git is a problem at its line:column, not served', () => {
    const text = ['{', '  "resources": [', '    { "name": "cfg", "file": ".git/config" },', '    { "name": "deep", "file": "sub/.git/HEAD" }', '  ]', '}'].join('\n');
    const file = loadPluginFile('/tmp/ws/.vscode/tools/r.json', text, { name: 'ws', path: '/tmp/ws' });
    assert.deepEqual(file.resources ?? [], []);
    const problems = file.diagnostics.map((diagnostic) => `${diagnostic.line}:${diagnostic.column} ${diagnostic.message}`);
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0] ?? '', /^3:\d+ .*"\.git\/config" is or lies inside \.git, which is never served/);
    assert.match(problems[1] ?? '', /^4:\d+ .*"sub\/\.git\/HEAD" is or lies inside \.git/);
  });
});

describe('a file with a second hard link is not served by resources or prompts (its other name may be outside)', () => {
  test('resources/read and an embedded prompt file refuse it, naming the link count; a plain file beside it is served', { skip: !POSIX, timeout: 30_000 }, async () => {
    const workspace = track(makeTempDir('wt-hardlink-ws-'));
    const outside = track(makeTempDir('wt-hardlink-out-'));
    outside.write('secret.md', `${SECRET}\n`);
    workspace.write('docs/plain.md', 'plain page\n');
    linkSync(path.join(outside.path, 'secret.md'), path.join(workspace.path, 'docs', 'hard.md'));
    workspace.write('.vscode/tools/docs.json', JSON.stringify({
      resources: [
        { name: 'hard', uri: 'docs://hard', file: 'docs/hard.md' },
        { name: 'plain', uri: 'docs://plain', file: 'docs/plain.md' },
      ],
      prompts: [{ name: 'embed', arguments: [{ name: 'file', required: true }], messages: [{ role: 'user', file: '{{file}}' }] }],
    }));
    const server = await connectPrivate(workspace.path, {}, ['--no-builtins']);
    try {
      const resource = await answerOf(server.client.readResource({ uri: 'docs://hard' }));
      const prompt = await answerOf(server.client.getPrompt({ name: 'embed', arguments: { file: 'docs/hard.md' } }));
      for (const answer of [resource, prompt]) {
        assert.match(answer, /^error: .*has 2 hard links; a file with more than one is not served here/);
        assert.doesNotMatch(answer, new RegExp(SECRET));
      }
      assert.match(await answerOf(server.client.readResource({ uri: 'docs://plain' })), /plain page/);
      assert.match(await answerOf(server.client.getPrompt({ name: 'embed', arguments: { file: 'docs/plain.md' } })), /plain page/);
    } finally {
      await server.close();
    }
  });
});
