import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { serverDefinitionVersion, serverNodeFlags } from '../../../src/core/client-config/server-args';
import type { ServerConfig, ServerSettings } from '../../../src/core/settings/server-config';
import { readToolSettings } from '../../../src/core/settings/tool-settings';
import { serverConfigToArgv } from '../../../src/core/settings/server-config';
import { parseCli } from '../../../src/mcp/cli';

const BASE: ServerConfig = {
  ...readServerSettings(),
  workspaces: ['/ws/app', '/ws/lib'],
  builtinsEnabled: false,
  plugins: true,
  approveExisting: false,
  approveChanges: false,
  logLevel: 'info',
  watch: true,
  history: true,
};

/** Every setting a server's command line carries, at its default. */
function readServerSettings(): ServerSettings {
  const { builtinsEnabled, disabledTools, pluginDirectories, timeoutMs, maxOutputBytes, nestedConcurrency, sandbox, sandboxDenyRead } = readToolSettings(() => undefined);
  return { builtinsEnabled, disabledTools, pluginDirectories, timeoutMs, maxOutputBytes, nestedConcurrency, sandbox, sandboxDenyRead };
}

/** What the server parses from the line the editor writes. */
function roundTrip(config: ServerConfig, cwd = '/elsewhere'): ServerConfig {
  const outcome = parseCli(serverConfigToArgv(config), cwd);
  assert.equal(outcome.kind, 'run');
  return outcome.kind === 'run' ? outcome.options : BASE;
}

describe('serverConfigToArgv and the server parser, side by side', () => {
  test('one --workspace per folder, defaults left out', () => {
    assert.deepEqual(serverConfigToArgv(BASE), ['--workspace', '/ws/app', '--workspace', '/ws/lib', '--no-builtins']);
  });

  test('every field survives the trip through the command line', () => {
    const config: ServerConfig = {
      ...BASE,
      builtinsEnabled: true,
      pluginDirectories: ['/home/me/tools', path.resolve('/ws/app', 'shared/tools')],
      approvalsFile: '/cfg/approvals.json',
      approveExisting: true,
      disabledTools: ['a-tool', 'b-tool'],
      timeoutMs: 5000,
      maxOutputBytes: 2048,
      nestedConcurrency: 3,
      settingsFile: '/storage/mcp-live-settings.json',
      runningFile: '/storage/mcp-running.json',
      logLevel: 'debug',
      watch: false,
      sandbox: 'required',
      sandboxDenyRead: ['~/.config/secrets', '/srv/keys'],
    };
    assert.deepEqual(roundTrip(config), config);
  });

  test('--sandbox takes required, preferred or off; --sandbox-deny-read an absolute or ~/ path', () => {
    assert.deepEqual(serverConfigToArgv({ ...BASE, sandbox: 'preferred' }), serverConfigToArgv(BASE), 'the default is left out');
    assert.equal(roundTrip({ ...BASE, sandbox: 'off' }).sandbox, 'off');
    const wrong = parseCli(['--sandbox', 'maybe'], '/elsewhere');
    assert.equal(wrong.kind === 'error' ? wrong.message : wrong.kind, '--sandbox must be one of preferred, required, off, got "maybe"');
    const relative = parseCli(['--sandbox-deny-read', 'secrets'], '/elsewhere');
    assert.equal(relative.kind === 'error' ? relative.message : relative.kind, '--sandbox-deny-read needs an absolute path or one starting with ~/, got "secrets"');
  });

  test('relative plugin directories resolve against the first folder, as in the editor', () => {
    const back = roundTrip({ ...BASE, pluginDirectories: ['shared/tools'] });
    assert.deepEqual(back.pluginDirectories, ['/ws/app/shared/tools']);
  });

  test('paths with spaces stay single arguments (no shell involved)', () => {
    const args = serverConfigToArgv({ ...BASE, workspaces: ['/my work/app "x"'] });
    assert.deepEqual(args.slice(0, 2), ['--workspace', '/my work/app "x"']);
  });
});

describe('serverDefinitionVersion', () => {
  const args = ['/ext/dist/mcp-server.js', ...serverConfigToArgv(BASE)];

  test('is stable for the same line and changes with any argument', () => {
    assert.equal(serverDefinitionVersion('node', args), serverDefinitionVersion('node', [...args]));
    assert.notEqual(serverDefinitionVersion('node', args), serverDefinitionVersion('node', [...args, '--no-plugins']));
    assert.notEqual(serverDefinitionVersion('node', args), serverDefinitionVersion('/other/node', args));
  });

  test('disabled tools in another order give the same line', () => {
    assert.deepEqual(serverConfigToArgv({ ...BASE, disabledTools: ['a', 'b'] }), serverConfigToArgv({ ...BASE, disabledTools: ['b', 'a', 'a'] }));
  });
});

describe('serverNodeFlags', () => {
  test('--disable-sigusr1 where the node that runs the server has it, nothing where it does not', () => {
    assert.deepEqual(serverNodeFlags(new Set(['--disable-sigusr1', '--max-old-space-size'])), ['--disable-sigusr1']);
    assert.deepEqual(serverNodeFlags(new Set(['--max-old-space-size'])), [], 'an older node would refuse the flag and not start');
    assert.deepEqual(serverNodeFlags(), process.allowedNodeEnvironmentFlags.has('--disable-sigusr1') ? ['--disable-sigusr1'] : [], 'by default: this node\'s flags');
  });
});
