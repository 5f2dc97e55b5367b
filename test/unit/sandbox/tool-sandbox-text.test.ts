// What every display says of a tool's sandbox (sandbox/tool-sandbox-text.ts): the OS policy of
// its tags and block in full, in one line and in a few words; the "not sandboxed" mark with the
// policy it would get; what confines a tool that starts no process in the sandbox; a built-in.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { policyTags } from '../../../src/core/sandbox/policy';
import { hiddenText, toolSandboxText } from '../../../src/core/sandbox/tool-sandbox-text';
import type { ToolDefinition } from '../../../src/core/types';
import { testSandboxView } from '../helpers/sandbox-view';

const plugin = { kind: 'plugin' } as const;
const shell = (tags: ToolDefinition['tags'], declared?: NonNullable<Extract<ToolDefinition['sandbox'], { kind: 'os' }>>['declared']): Pick<ToolDefinition, 'sandbox'> & { source: typeof plugin } => ({
  sandbox: { kind: 'os', folder: '/ws', tags: policyTags(tags, declared), ...(declared === undefined ? {} : { declared }) },
  source: plugin,
});

const HIDDEN = '~/.ssh, ~/.aws, ~/.config/gh, ~/.netrc, ~/.npmrc, ~/.docker/config.json, ~/.kube, ~/.gnupg, ~/.config/workspace-tools, ~/.local/state/workspace-tools';

describe('a tool\'s sandbox in words', () => {
  test('the OS policy of each row of the table: every rule, one line without the shared hidden paths, a few words', () => {
    const rows: [ToolDefinition['tags'], Parameters<typeof shell>[1], string, string][] = [
      [['read'], undefined, 'writes: only its private temporary folder; network: none (loopback included)', 'writes temp only, no network'],
      [['execute', 'write'], undefined, 'writes: the workspace folder and its private temporary folder; network: none (loopback included)', 'writes workspace, no network'],
      [['execute', 'network'], undefined, 'writes: only its private temporary folder; network: open', 'writes temp only, network'],
      [['write', 'network'], { write: ['dist'], hosts: ['registry.npmjs.org'], read: ['~/.npmrc'] }, 'writes: only dist and its private temporary folder; network: only registry.npmjs.org; also reads: ~/.npmrc', 'writes dist, network: registry.npmjs.org, reads ~/.npmrc'],
    ];
    for (const [tags, declared, short, compact] of rows) {
      const text = toolSandboxText(shell(tags, declared), testSandboxView());
      assert.equal(text.kind, 'os');
      assert.equal(text.short, short, tags.join());
      assert.equal(text.compact, compact, tags.join());
      assert.equal(text.lines.length, declared?.read === undefined ? 3 : 4);
      assert.equal(text.lines[2], `hidden: ${declared?.read === undefined ? HIDDEN : HIDDEN.replace('~/.npmrc, ', '')}`);
    }
  });

  test('under the "not sandboxed" mark: the mark first, then what the sandbox would give', () => {
    const text = toolSandboxText(shell(['execute', 'write']), testSandboxView('not sandboxed (bubblewrap is missing)'));
    assert.equal(text.kind, 'not-sandboxed');
    assert.equal(text.compact, 'NOT SANDBOXED');
    assert.deepEqual(text.lines.slice(0, 2), ['not sandboxed (bubblewrap is missing)', 'with the sandbox it would get: writes: the workspace folder and its private temporary folder']);
    assert.equal(text.short, 'not sandboxed (bubblewrap is missing) (with the sandbox: writes: the workspace folder and its private temporary folder; network: none (loopback included))');
  });

  test('what else confines a tool, and a built-in\'s trust', () => {
    const code = toolSandboxText({ sandbox: { kind: 'own', says: ["Node's permission model (a code tool; not the OS sandbox): reads the workspace folder only"] }, source: plugin }, testSandboxView());
    assert.deepEqual([code.kind, code.compact], ['other', "Node's permission model"]);
    const http = toolSandboxText({ sandbox: { kind: 'own', says: ['starts no process: the server sends the request itself, to the URL shown'] }, source: plugin }, testSandboxView('not sandboxed (off)'));
    assert.deepEqual([http.kind, http.compact, http.lines], ['other', 'starts no process', ['starts no process: the server sends the request itself, to the URL shown']]);
    const builtin = toolSandboxText({ source: { kind: 'builtin' } }, testSandboxView());
    assert.equal(builtin.kind, 'built-in');
    assert.match(builtin.lines[0] ?? '', /^not sandboxed: a built-in tool, code of Workspace Tools itself/);
  });

  test('the policy is built from the sandbox\'s own tags, not the tool\'s (a steps tool\'s code step may add network; its shell steps do not get it)', () => {
    const text = toolSandboxText({ sandbox: { kind: 'os', folder: '/ws', tags: ['execute'] }, source: plugin }, testSandboxView());
    assert.equal(text.compact, 'writes temp only, no network');
  });

  test('a steps tool\'s other steps are said after its policy', () => {
    const text = toolSandboxText({ sandbox: { kind: 'os', folder: '/ws', tags: ['execute'], also: ['step tell calls the tool report, which runs in its own sandbox'] }, source: plugin }, testSandboxView());
    assert.equal(text.short, 'writes: only its private temporary folder; network: none (loopback included); step tell calls the tool report, which runs in its own sandbox');
  });

  test('the hidden paths a listing says once are those of a tool that re-opens none', () => {
    const texts = [toolSandboxText(shell(['read'], { read: ['~/.npmrc'] }), testSandboxView()), toolSandboxText(shell(['read']), testSandboxView())];
    assert.equal(hiddenText(texts), HIDDEN);
    assert.equal(hiddenText([toolSandboxText({ source: { kind: 'builtin' } }, testSandboxView())]), undefined);
  });
});
