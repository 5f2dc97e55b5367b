// The one settings model: the table against package.json, and what is derived from it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parseLiveSettings } from '../../../src/core/settings/live-settings';
import { SERVER_CONFIG_OPTIONS, serverConfigToArgv } from '../../../src/core/settings/server-config';
import type { ToolSettings, WindowServerPaths } from '../../../src/core/settings/tool-settings';
import { LIVE_KEYS, RESTART_KEYS, SETTINGS_SECTION, SETTINGS_TABLE, limitsOf, liveSettingsOf, readToolSettings, windowServerConfig } from '../../../src/core/settings/tool-settings';
import { DEFAULT_LIMITS } from '../../../src/core/types';

interface Declared {
  readonly type: string;
  readonly default: unknown;
  readonly minimum?: number;
  readonly enum?: readonly string[];
  readonly scope?: string;
}

const ROOT = path.resolve(__dirname, '../../../..');
const configuration = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, Declared> } | { properties: Record<string, Declared> }[] } }).contributes.configuration;
const declared = new Map((Array.isArray(configuration) ? configuration : [configuration]).flatMap((section) => Object.entries(section.properties)));

const PATHS: WindowServerPaths = { folders: ['/ws/app'], approvalsFile: '/u/approvals.json', settingsFile: '/s/live.json', registeredToolsDirectory: '/s/registered', historyFile: '/s/history.jsonl' };
const DEFAULTS = readToolSettings(() => undefined);

describe('the settings table', () => {
  test('has one row for each setting package.json declares, and none it does not', () => {
    const keys = SETTINGS_TABLE.map((row) => `${SETTINGS_SECTION}.${row.key}`);
    assert.deepEqual(keys, [...declared.keys()], 'same keys in the same order');
    assert.equal(new Set(SETTINGS_TABLE.map((row) => row.field)).size, SETTINGS_TABLE.length, 'one field per setting');
  });

  test('each row has package.json\'s type, default and minimum', () => {
    for (const row of SETTINGS_TABLE) {
      const property = declared.get(`${SETTINGS_SECTION}.${row.key}`);
      const type = Array.isArray(row.fallback) ? 'array' : typeof row.fallback;
      assert.equal(property?.type, type, row.key);
      assert.deepEqual(property?.default, row.fallback, `${row.key}: default`);
      assert.equal(property?.minimum, row.minimum, `${row.key}: minimum`);
      assert.deepEqual(property?.enum, row.options, `${row.key}: enum`);
    }
  });

  test('the sandbox settings are the user\'s alone: a workspace\'s own settings cannot turn it off', () => {
    for (const key of ['sandbox', 'sandboxDenyRead']) {
      assert.equal(declared.get(`${SETTINGS_SECTION}.${key}`)?.scope, 'machine', key);
    }
  });

  test('every flag is one the server reads, and every setting is either live or restart', () => {
    for (const row of SETTINGS_TABLE) {
      if (row.flag !== undefined) {
        assert.ok(row.flag.slice(2) in SERVER_CONFIG_OPTIONS, `${row.key}: ${row.flag}`);
      }
    }
    assert.deepEqual([...LIVE_KEYS, ...RESTART_KEYS].sort(), SETTINGS_TABLE.map((row) => row.key).sort());
    assert.deepEqual(RESTART_KEYS, ['builtins.enabled', 'pluginDirectories', 'mcp.enabled', 'mcp.includeBuiltins', 'sandbox', 'sandboxDenyRead']);
  });
});

describe('derived from the table', () => {
  test('unset or out-of-range settings read as the defaults; limits follow the settings', () => {
    assert.deepEqual(limitsOf(DEFAULTS), DEFAULT_LIMITS);
    const odd: Record<string, unknown> = { 'shell.defaultTimeout': -5, 'output.maxBytes': 'big', 'nestedCalls.concurrency': 2.7, disabledTools: [1], 'builtins.enabled': 'no', sandbox: 'maybe', sandboxDenyRead: '~/.x' };
    const read = readToolSettings((key) => odd[key]);
    assert.deepEqual(read, { ...DEFAULTS, nestedConcurrency: 2 });
    assert.equal(limitsOf({ ...DEFAULTS, timeoutMs: 500 }).timeoutMs, 500);
  });

  test('a live setting never changes the server\'s command line; it reaches the live settings file', () => {
    const changed: ToolSettings = { ...DEFAULTS, disabledTools: ['deploy'], timeoutMs: 1234, maxOutputBytes: 4096, nestedConcurrency: 2 };
    assert.deepEqual(serverConfigToArgv(windowServerConfig(changed, PATHS)), serverConfigToArgv(windowServerConfig(DEFAULTS, PATHS)));
    const file = JSON.stringify(liveSettingsOf(changed));
    assert.deepEqual(parseLiveSettings('/s/live.json', file), { disabledTools: ['deploy'], timeoutMs: 1234, maxOutputBytes: 4096, nestedConcurrency: 2 });
  });

  test('a restart setting that has a flag changes the command line', () => {
    const base = serverConfigToArgv(windowServerConfig({ ...DEFAULTS, mcpIncludeBuiltins: true }, PATHS));
    const variants: ToolSettings[] = [
      { ...DEFAULTS, mcpIncludeBuiltins: true, builtinsEnabled: false },
      { ...DEFAULTS, mcpIncludeBuiltins: true, pluginDirectories: ['/team/tools'] },
      { ...DEFAULTS, mcpIncludeBuiltins: false },
      { ...DEFAULTS, mcpIncludeBuiltins: true, sandbox: 'required' },
      { ...DEFAULTS, mcpIncludeBuiltins: true, sandbox: 'off' },
      { ...DEFAULTS, mcpIncludeBuiltins: true, sandboxDenyRead: ['~/.config/secrets'] },
    ];
    for (const variant of variants) {
      assert.notDeepEqual(serverConfigToArgv(windowServerConfig(variant, PATHS)), base);
    }
    assert.ok(base.includes('--settings') && base.includes('/s/live.json'), 'the server is told where the live settings are');
  });
});
