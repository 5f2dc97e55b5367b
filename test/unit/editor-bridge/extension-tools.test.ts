import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { selectExtensionTools } from '../../../src/core/editor-bridge/extension-tools';

const TOOLS = [
  { name: 'acme_status', description: 'Acme status', inputSchema: { type: 'object', properties: { env: { type: 'string' } } }, extension: 'acme.tools' },
  { name: 'acme_deploy', description: 'Acme deploy', extension: 'acme.tools' },
  { name: 'copilot_readFile', description: 'Read a file', inputSchema: { type: 'object' }, extension: 'GitHub.copilot-chat' },
  { name: 'workspaceTools_get_git_status', description: 'ours', extension: 'workspace-tools.workspace-tools' },
  { name: 'loose_tool', description: 'no extension known' },
];

describe('which other extensions\' tools the bridge serves', () => {
  test('none by default', () => {
    assert.deepEqual(selectExtensionTools(TOOLS, [], 'workspace-tools.workspace-tools'), []);
  });

  test('by tool name or by extension id (any letter case), never this extension\'s own', () => {
    const names = (listed: string[]): string[] => selectExtensionTools(TOOLS, listed, 'workspace-tools.workspace-tools').map((tool) => tool.name);
    assert.deepEqual(names(['acme_status']), ['acme_status']);
    assert.deepEqual(names(['ACME.tools']), ['acme_status', 'acme_deploy']);
    assert.deepEqual(names(['github.copilot-chat', 'loose_tool']), ['copilot_readFile', 'loose_tool']);
    assert.deepEqual(names(['workspace-tools.workspace-tools', 'workspaceTools_get_git_status']), []);
  });

  test('each is described as an extension tool that is not read-only, with its schema or any object', () => {
    const [status, deploy] = selectExtensionTools(TOOLS, ['acme.tools'], 'workspace-tools.workspace-tools');
    assert.deepEqual(status, {
      name: 'acme_status',
      description: 'Acme status',
      inputSchema: { type: 'object', properties: { env: { type: 'string' } } },
      tags: [],
      kind: 'extension',
      extension: 'acme.tools',
      handlerSummary: 'vscode.lm.invokeTool("acme_status") of the extension acme.tools',
    });
    assert.deepEqual(deploy?.inputSchema, { type: 'object' });
  });

  test('the setting is the user\'s alone: a workspace cannot list tools', () => {
    const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { scope?: string; default?: unknown }> } } };
    const setting = manifest.contributes.configuration.properties['workspaceTools.bridge.extensionTools'];
    assert.equal(setting?.scope, 'machine');
    assert.deepEqual(setting?.default, []);
  });
});
