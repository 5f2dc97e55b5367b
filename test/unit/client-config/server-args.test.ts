import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { serverArgs, serverDefinitionVersion } from '../../../src/core/client-config/server-args';
import { parseCli } from '../../../src/mcp/cli';

const BASE = {
  serverPath: '/ext/dist/mcp-server.js',
  folders: ['/ws/app', '/ws/lib'],
  includeBuiltins: false,
  disabledTools: [],
  pluginDirectories: [],
};

describe('serverArgs', () => {
  test('script first, one --workspace per folder, --no-builtins by default', () => {
    assert.deepEqual(serverArgs(BASE), ['/ext/dist/mcp-server.js', '--workspace', '/ws/app', '--workspace', '/ws/lib', '--no-builtins']);
  });

  test('every option becomes the flag the server parses', () => {
    const args = serverArgs({
      ...BASE,
      approvalsFile: '/storage/approvals.json',
      includeBuiltins: true,
      disabledTools: ['b-tool', 'a-tool', 'b-tool'],
      timeoutMs: 5000,
      maxOutputBytes: 2048,
      pluginDirectories: ['/home/me/tools', 'shared/tools'],
    });
    const outcome = parseCli(args.slice(1), '/elsewhere');
    assert.equal(outcome.kind, 'run');
    if (outcome.kind !== 'run') {
      return;
    }
    assert.deepEqual(outcome.options.workspaces, ['/ws/app', '/ws/lib']);
    assert.deepEqual(outcome.options.pluginDirectories, ['/home/me/tools', path.resolve('/ws/app', 'shared/tools')]);
    assert.equal(outcome.options.approvalsFile, '/storage/approvals.json');
    assert.equal(outcome.options.builtins, true);
    assert.deepEqual(outcome.options.disabledTools, ['a-tool', 'b-tool']);
    assert.equal(outcome.options.timeoutMs, 5000);
    assert.equal(outcome.options.maxOutputBytes, 2048);
    assert.equal(outcome.options.approveChanges, false);
  });

  test('paths with spaces stay single arguments (no shell involved)', () => {
    const args = serverArgs({ ...BASE, folders: ['/my work/app "x"'] });
    assert.deepEqual(args.slice(1, 3), ['--workspace', '/my work/app "x"']);
  });
});

describe('serverDefinitionVersion', () => {
  test('is stable for the same line and changes with any argument', () => {
    const args = serverArgs(BASE);
    assert.equal(serverDefinitionVersion('node', args), serverDefinitionVersion('node', [...args]));
    assert.notEqual(serverDefinitionVersion('node', args), serverDefinitionVersion('node', [...args, '--disable', 'x']));
    assert.notEqual(serverDefinitionVersion('node', args), serverDefinitionVersion('/other/node', args));
  });

  test('disabled tools in another order give the same version', () => {
    const one = serverArgs({ ...BASE, disabledTools: ['a', 'b'] });
    const two = serverArgs({ ...BASE, disabledTools: ['b', 'a'] });
    assert.equal(serverDefinitionVersion('node', one), serverDefinitionVersion('node', two));
  });
});
