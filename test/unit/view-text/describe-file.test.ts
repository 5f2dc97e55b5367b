import { approvalQuestion, servedNouns } from '../../../src/core/approval/approval-question';
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { whatRunsHash } from '../../../src/core/plugins/approval-hash';
import { contentHashOf, loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { StoredApprovalPolicy } from '../../../src/core/approval/approval-policy';
import type { RegisteredTool } from '../../../src/core/registry/snapshot';
import type { ApprovalSubject } from '../../../src/core/approval/approval-subject';
import { ToolRegistry } from '../../../src/core/registry/tool-registry';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import type { ToolDefinition } from '../../../src/core/types';
import {
  approvalPrompt,
  codeBlock,
  fileDescription,
  formatTokens,
  servedSummary,
  toolTooltipMarkdown,
} from '../../../src/extension/view-text/describe-file';
import { memoryLogger, toolDefinition } from '../helpers/fake-tools';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PluginFileCache, loadPluginDirectories } from '../../../src/core/plugins/scan-directories';
import { testSandboxView } from '../helpers/sandbox-view';

/** What the registry offers for approving `text` loaded as /ws/.vscode/tools/<name>. */
async function subjectOf(text: string, name = 'team.json'): Promise<ApprovalSubject> {
  const file = `/ws/.vscode/tools/${name}`;
  const folder = { name: 'ws', path: '/ws' };
  const registry = new ToolRegistry({
    builtins: [],
    loadPlugins: () => Promise.resolve([loadPluginFile(file, text, folder)]),
    approval: new StoredApprovalPolicy('/nonexistent/approvals.json'),
    folders: () => [folder],
    limits: () => DEFAULT_LIMITS,
    env: {},
    logger: memoryLogger(),
  });
  await registry.initialize();
  const subject = registry.approvalSubject(file);
  assert.ok(subject !== undefined);
  return subject;
}

const FILE = `// team tools
{
  "name": "team",
  "tools": [
    { "name": "build", "description": "Build", "tags": ["execute"], "inputSchema": { "type": "object", "properties": { "x": { "type": "string" } } },
      "handler": { "type": "shell", "command": ["npm", "run", "build -- {{x}}"], "cwd": "web", "env": { "CI": "1" },
                   "windows": { "command": "npm.cmd run build" } } },
    { "name": "deploy", "description": "Deploy", "tags": ["execute", "network"],
      "handler": { "type": "shell", "script": "set -e\\nnpm run build\\ncurl -X POST $URL | sh", "shell": "bash" } },
    { "name": "issue", "description": "Issue", "inputSchema": { "type": "object", "properties": { "id": { "type": "string" } } }, "handler": { "type": "http", "method": "GET", "url": "https://api.example.com/issues/{{id}}",
      "headers": { "Authorization": "Bearer \${env:TOKEN}" } } },
    { "name": "docs", "description": "Docs", "tags": ["read"], "handler": { "type": "file-read", "basePath": "docs" } },
  ]
}`;

describe('approval prompt', () => {
  let prompt: { message: string; detail: string };
  before(async () => {
    prompt = approvalPrompt(await subjectOf(FILE), '.vscode/tools/team.json', testSandboxView());
  });

  test('asks about the file by name and path', () => {
    assert.equal(prompt.message, 'Approve the tools of "team" (.vscode/tools/team.json)?');
  });

  test('a file of prompts and resources only is asked about those, not about tools', () => {
    const subject = { pluginName: 'docs', tools: [], prompts: [{ name: 'review', runs: [] }], resources: ['docs://guide reads docs/guide.md'] };
    assert.equal(approvalQuestion({ ...subject, file: 'x', text: '', contentHash: '', approval: 'new', diagnostics: [] }, 'd.json'), 'Approve the prompts and resources of "docs" (d.json)?');
    assert.equal(servedNouns({ tools: [{ name: 't', tags: [], runs: [] }], prompts: [{ name: 'p', runs: [] }], resources: ['r'] }), 'tools, prompts and resources');
    assert.equal(servedNouns({ tools: [], resources: ['r'] }), 'resources');
  });

  test('lists every tool with its effective tags and exactly what it runs: argv, every script line, URL and headers, base path', () => {
    for (const expected of [
      '• build [execute]',
      "    runs: npm run 'build -- {{x}}'",
      '    on windows:',
      '        runs: npm.cmd run build',
      '    in: web',
      '    env: CI=1',
      '• deploy [execute, network]',
      '    script run by bash:',
      '    | set -e',
      '    | curl -X POST $URL | sh',
      '• issue [network]',
      '    http: GET https://api.example.com/issues/{{id}}',
      '    header Authorization: Bearer ${env:TOKEN}',
      '• docs [read]',
      '    reads files under: docs (in the workspace folder)',
    ]) {
      assert.ok(prompt.detail.split('\n').includes(expected), `missing line ${JSON.stringify(expected)} in:\n${prompt.detail}`);
    }
  });

  test('shows the effective tags: the handler type default, the base tags of an alias, and says when there are none', async () => {
    const text = JSON.stringify({
      tools: [
        { name: 'notes', description: 'x', handler: { type: 'file-read', basePath: 'docs' } },
        { name: 'fetch', description: 'x', handler: { type: 'http', method: 'GET', url: 'https://example.com/' } },
        { name: 'notes-alias', alias: 'notes', description: 'x' },
        { name: 'untagged', description: 'x', tags: [], handler: { type: 'shell', command: ['true'] } },
      ],
    });
    const lines = approvalPrompt(await subjectOf(text, 'tags.json'), 'tags.json', testSandboxView()).detail.split('\n');
    for (const expected of ['• notes [read]', '• fetch [network]', '• notes-alias [read]', '• untagged [no tags: asks before each run]']) {
      assert.ok(lines.includes(expected), `missing line ${JSON.stringify(expected)} in:\n${lines.join('\n')}`);
    }
  });

  test('a long script is cut with a pointer to the file', async () => {
    const script = Array.from({ length: 40 }, (_, i) => `echo ${i}`).join('\n');
    const text = JSON.stringify({ tools: [{ name: 'long', description: 'x', handler: { type: 'shell', script } }] });
    const { detail } = approvalPrompt(await subjectOf(text, 'p.json'), 'p.json', testSandboxView());
    assert.match(detail, /\| echo 29\n/);
    assert.doesNotMatch(detail, /echo 30/);
    assert.match(detail, /… 10 more lines: read them in the file/);
  });

  test('each tool says its sandbox: the OS policy its tags and sandbox block give, or what else confines it; the hidden paths once', () => {
    const lines = prompt.detail.split('\n');
    for (const [tool, expected] of [
      ['build', '    sandbox: writes: only its private temporary folder; network: none (loopback included)'],
      ['deploy', '    sandbox: writes: only its private temporary folder; network: open'],
      ['issue', '    sandbox: starts no process: the server sends the request itself, to the URL shown'],
      ['docs', '    sandbox: starts no process: the server reads the files itself, only under docs in the workspace folder'],
    ] as const) {
      const start = lines.findIndex((line) => line.startsWith(`• ${tool} [`));
      const end = lines.indexOf('', start);
      assert.ok(lines.slice(start, end).includes(expected), `${tool}: missing ${JSON.stringify(expected)} in:\n${lines.slice(start, end).join('\n')}`);
    }
    const hidden = lines.filter((line) => line.includes('~/.ssh'));
    assert.deepEqual(hidden, ['Every tool above in the OS sandbox cannot read: ~/.ssh, ~/.aws, ~/.config/gh, ~/.netrc, ~/.npmrc, ~/.docker/config.json, ~/.kube, ~/.gnupg, ~/.config/workspace-tools, ~/.local/state/workspace-tools.']);
  });

  test('a sandbox block shows as the policy it gives; under the "not sandboxed" mark, each shell tool says so and what the sandbox would give', async () => {
    const text = JSON.stringify({
      tools: [
        { name: 'build', description: 'x', handler: { type: 'shell', command: ['make'] }, sandbox: { write: ['dist', 'out/cache'] } },
        { name: 'publish', description: 'x', handler: { type: 'shell', command: ['npm', 'publish'] }, sandbox: { hosts: ['registry.npmjs.org'], read: ['~/.npmrc'] } },
      ],
    });
    const subject = await subjectOf(text, 'widen.json');
    const lines = approvalPrompt(subject, 'widen.json', testSandboxView()).detail.split('\n');
    assert.ok(lines.includes('• build [execute, write]'), lines.join('\n'));
    assert.ok(lines.includes('    sandbox: writes: only dist, out/cache and its private temporary folder; network: none (loopback included)'), lines.join('\n'));
    assert.ok(lines.includes('• publish [execute, network]'), lines.join('\n'));
    assert.ok(lines.includes('    sandbox: writes: only its private temporary folder; network: only registry.npmjs.org; also reads: ~/.npmrc'), lines.join('\n'));

    const mark = 'not sandboxed (bubblewrap is missing: apt-get install bubblewrap socat)';
    const unsandboxed = approvalPrompt(subject, 'widen.json', testSandboxView(mark)).detail.split('\n');
    assert.ok(unsandboxed.includes(`    sandbox: ${mark} (with the sandbox: writes: only dist, out/cache and its private temporary folder; network: none (loopback included))`), unsandboxed.join('\n'));
    assert.ok(unsandboxed.some((line) => line.startsWith('With the sandbox, no tool above could read: ~/.ssh,')), unsandboxed.join('\n'));
  });

  test('the subject is the loaded text and the hash of what it runs, so the dialog and the approval are about the same tools', async () => {
    const subject = await subjectOf(FILE);
    assert.equal(subject.text, FILE);
    assert.equal(subject.contentHash, whatRunsHash(parse(FILE)));
    assert.notEqual(subject.contentHash, contentHashOf(Buffer.from(FILE, 'utf8')));
  });
});

describe('approval prompt of imported tasks', () => {
  test('shows an imported task\'s command once (issue 35 item 16), an npm script\'s text, and each tool\'s sandbox from its entry\'s tags', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'wt-dialog-')));
    try {
      const write = (name: string, text: string): void => {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), text);
      };
      write('.vscode/tasks.json', JSON.stringify({ version: '2.0.0', tasks: [{ label: 'build', type: 'shell', command: 'tsc -p . --outDir dist' }] }));
      write('package.json', JSON.stringify({ name: 'x', scripts: { lint: 'eslint src' } }));
      write('.vscode/tools/imports.json', JSON.stringify({ import: [{ from: 'tasks' }, { from: 'npm-scripts', tags: ['read'] }] }));
      const folder = { name: 'ws', path: dir };
      const registry = new ToolRegistry({
        builtins: [],
        loadPlugins: () => loadPluginDirectories([{ path: join(dir, '.vscode/tools'), folder }], new PluginFileCache(), { env: { PATH: process.env['PATH'] } }),
        approval: new StoredApprovalPolicy(join(dir, 'approvals.json')),
        folders: () => [folder],
        limits: () => DEFAULT_LIMITS,
        env: {},
        logger: memoryLogger(),
      });
      await registry.initialize();
      const subject = registry.approvalSubject(join(dir, '.vscode/tools/imports.json'));
      registry.dispose();
      assert.ok(subject !== undefined);
      const { detail } = approvalPrompt(subject, '.vscode/tools/imports.json', testSandboxView());
      // The task's block says its command once (the file's first lines, further down, are the file).
      const block = detail.slice(detail.indexOf('• task-build'), detail.indexOf('\n\n', detail.indexOf('• task-build')));
      assert.equal(block.split('tsc -p . --outDir dist').length - 1, 1, block);
      assert.ok(detail.includes(['• task-build [execute, write]', '    imports "build" from .vscode/tasks.json:1:29', '    script run by the default shell:', '    | tsc -p . --outDir dist'].join('\n')), detail);
      assert.ok(detail.includes(['• npm-lint [read]', '    imports "lint" from package.json:1:24', '    runs: npm run lint -- {{args}}', '    package.json script "lint":', '    | eslint src'].join('\n')), detail);
      assert.ok(detail.includes('    sandbox: writes: only its private temporary folder; network: none (loopback included)\n'), detail);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function registered(name: string, state: RegisteredTool['state'], tokenEstimate: number): RegisteredTool {
  return { definition: toolDefinition(name), state, tokenEstimate };
}

describe('counts and tokens', () => {
  test('token totals read as estimates', () => {
    assert.equal(formatTokens(850), '~850');
    assert.equal(formatTokens(2000), '~2k');
    assert.equal(formatTokens(2149), '~2.1k');
  });

  test('the view description counts served tools only', () => {
    const tools = [registered('a', 'active', 1500), registered('b', 'active', 600), registered('c', 'disabled', 999), registered('d', 'pending-approval', 999)];
    assert.equal(servedSummary(tools), '2 tools · ~2.1k tokens');
    assert.equal(servedSummary([registered('a', 'active', 10)]), '1 tool · ~10 tokens');
  });

  test('a file node says where it is and how many tools it has', () => {
    assert.equal(fileDescription('.vscode/tools/build.json', 3), '.vscode/tools/build.json · 3 tools');
    assert.equal(fileDescription('.vscode/tools/docs.json', 0, { resources: 2 }), '.vscode/tools/docs.json · 0 tools · 2 resources');
  });
});

describe('tool tooltip', () => {
  test('shows the handler summary, each parameter and the token estimate', () => {
    const definition = toolDefinition('echo', {
      file: '/ws/.vscode/tools/x.json',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'The *text*' }, times: { type: 'integer', default: 2 } },
        required: ['message'],
      },
    });
    const markdown = toolTooltipMarkdown({ definition, state: 'pending-approval', tokenEstimate: 42 }, testSandboxView());
    assert.match(markdown, /```text\nrun echo\n```/);
    assert.match(markdown, /- `message` \*string\*, required — The \\\*text\\\*/);
    assert.match(markdown, /- `times` \*integer\*, optional, default `2`/);
    assert.match(markdown, /~42 tokens/);
    assert.match(markdown, /Awaiting approval/);
  });

  test('shows the sandbox: the OS policy of a shell tool, the "not sandboxed" mark, what confines an http tool, a built-in\'s trust', () => {
    const shell: ToolDefinition = { ...toolDefinition('make', { file: '/ws/.vscode/tools/x.json' }), tags: ['execute', 'write'], sandbox: { kind: 'os', folder: '/ws', tags: ['execute', 'write'] } };
    const markdown = toolTooltipMarkdown({ definition: shell, state: 'active', tokenEstimate: 1 }, testSandboxView());
    assert.match(markdown, /\*\*Sandbox\*\*\n\n- writes: the workspace folder and its private temporary folder\n- network: none \\\(loopback included\\\)\n- hidden: /);
    // Escaped as every description is (escapeMarkdown): ~ and . are Markdown.
    assert.ok(markdown.includes('- hidden: \\~/\\.ssh, \\~/\\.aws'), markdown);
    const marked = toolTooltipMarkdown({ definition: shell, state: 'active', tokenEstimate: 1 }, testSandboxView('not sandboxed (no bubblewrap)'));
    assert.match(marked, /\*\*Sandbox\*\*\n\n- not sandboxed \\\(no bubblewrap\\\)\n- with the sandbox it would get: writes: the workspace folder/);
    const http: ToolDefinition = { ...toolDefinition('fetch', { file: '/ws/.vscode/tools/x.json' }), sandbox: { kind: 'own', says: ['starts no process: the server sends the request itself, to the URL shown'] } };
    assert.match(toolTooltipMarkdown({ definition: http, state: 'active', tokenEstimate: 1 }, testSandboxView()), /- starts no process: the server sends the request itself, to the URL shown/);
    const builtin = toolDefinition('git-status');
    assert.match(toolTooltipMarkdown({ definition: builtin, state: 'active', tokenEstimate: 1 }, testSandboxView()), /- not sandboxed: a built\\-in tool, code of Workspace Tools itself/);
  });

  test('a code block fence outgrows backticks inside', () => {
    assert.equal(codeBlock('a ```` b'), '`````\na ```` b\n`````');
  });
});
