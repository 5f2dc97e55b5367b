// The one settings table: held to package.json, to --help and to the server's flags, and what is
// derived from it. That each row reaches the server is settings-reach.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parseLiveSettings } from '../../../src/core/settings/live-settings';
import { SERVER_CONFIG_OPTIONS, serverConfigToArgv } from '../../../src/core/settings/server-config';
import { settingsManifest } from '../../../src/core/settings/settings-manifest';
import { FLAGGED_FIELDS, SETTING_FIELDS, flagOf, rowOf } from '../../../src/core/settings/settings-table';
import type { ToolSettings, WindowServerPaths } from '../../../src/core/settings/tool-settings';
import { LIVE_KEYS, RESTART_KEYS, limitsOf, liveSettingsOf, readToolSettings, windowServerConfig } from '../../../src/core/settings/tool-settings';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import { commandUsage } from '../../../src/mcp/usage';

const ROOT = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: unknown } };

const PATHS: WindowServerPaths = { folders: ['/ws/app'], approvalsFile: '/u/approvals.json', settingsFile: '/s/live.json', registeredToolsDirectory: '/s/registered', historyFile: '/s/history.jsonl', runningFile: '/s/mcp-running.json' };
const DEFAULTS = readToolSettings(() => undefined);

describe('the settings table', () => {
  test("is package.json's contributes.configuration: keys in order, type, default, minimum, enum, scope, description (fix: node scripts/sync-manifest.mjs)", () => {
    const declared = manifest.contributes.configuration as { properties: Record<string, unknown> };
    const expected = settingsManifest();
    assert.deepEqual(Object.keys(declared.properties), Object.keys(expected.properties), 'the same settings in the same order; run node scripts/sync-manifest.mjs');
    assert.deepEqual(declared, JSON.parse(JSON.stringify(expected)), 'package.json says what the table says; run node scripts/sync-manifest.mjs');
  });

  test("the sandbox settings are the user's alone: a workspace's own settings cannot turn it off", () => {
    for (const field of ['sandbox', 'sandboxDenyRead'] as const) {
      assert.equal(rowOf(field).scope, 'machine', field);
    }
  });

  test('one key per setting; every example is a value of its kind that is not the default', () => {
    assert.equal(new Set(SETTING_FIELDS.map((field) => rowOf(field).key)).size, SETTING_FIELDS.length);
    for (const field of SETTING_FIELDS) {
      const row = rowOf(field);
      assert.ok(!row.kind.same(row.example, row.default), `${field}: the example is the default`);
      assert.deepEqual(row.kind.fromEditor(row.example), row.example, `${field}: the example is not a value of its kind`);
    }
  });

  test("every flag is one the server reads, once, and is in --help with its value's name", () => {
    const names = FLAGGED_FIELDS.map((field) => flagOf(field).name);
    assert.equal(new Set(names).size, names.length, 'no two settings share a flag');
    const help = commandUsage('serve');
    for (const field of FLAGGED_FIELDS) {
      const flag = flagOf(field);
      assert.ok(flag.name.slice(2) in SERVER_CONFIG_OPTIONS, `${field}: ${flag.name} is not an option of the server`);
      assert.match(help, new RegExp(`^  ${flag.name}${flag.valueName === undefined ? '' : ` ${flag.valueName}`} `, 'm'), `${field}: ${flag.name} in --help`);
      assert.ok(flag.help.every((line) => help.includes(line)), `${field}: its help text in --help`);
    }
  });

  test('every setting is live, restart or the host\'s alone (with no flag); the live ones are the example of --settings in --help', () => {
    const hostOnly = SETTING_FIELDS.filter((field) => rowOf(field).reach === 'host');
    assert.deepEqual([...LIVE_KEYS, ...RESTART_KEYS, ...hostOnly.map((field) => rowOf(field).key)].sort(), SETTING_FIELDS.map((field) => rowOf(field).key).sort());
    assert.deepEqual(hostOnly.filter((field) => 'flag' in rowOf(field)), [], 'no server sees a host setting: it has no flag');
    assert.deepEqual(RESTART_KEYS, ['builtins.enabled', 'pluginDirectories', 'mcp.enabled', 'mcp.includeBuiltins', 'sandbox', 'sandboxDenyRead']);
    const help = commandUsage('serve');
    for (const key of LIVE_KEYS) {
      const field = SETTING_FIELDS.find((candidate) => rowOf(candidate).key === key) ?? '';
      assert.ok(help.includes(`"${field}": `), `--settings shows ${field}`);
    }
  });
});

describe('derived from the table', () => {
  test('unset settings, or values that are not one, read as the defaults; limits follow the settings', () => {
    assert.deepEqual(limitsOf(DEFAULTS), DEFAULT_LIMITS);
    const odd: Record<string, unknown> = { 'shell.defaultTimeout': -5, 'output.maxBytes': 'big', 'nestedCalls.concurrency': 0.5, disabledTools: [1], 'builtins.enabled': 'no', sandbox: 'maybe', sandboxDenyRead: '~/.x', 'mcp.enabled': null };
    assert.deepEqual(readToolSettings((key) => odd[key]), DEFAULTS);
    assert.equal(limitsOf({ ...DEFAULTS, timeoutMs: 500 }).timeoutMs, 500);
  });

  test('a fraction in the settings editor is a whole number everywhere (the live settings file takes only whole numbers)', () => {
    const fractions: Record<string, unknown> = { 'shell.defaultTimeout': 1500.5, 'output.maxBytes': 4096.9, 'nestedCalls.concurrency': 2.7 };
    const read = readToolSettings((key) => fractions[key]);
    assert.deepEqual([read.timeoutMs, read.maxOutputBytes, read.nestedConcurrency], [1500, 4096, 2]);
    const parsed = parseLiveSettings('/s/live.json', JSON.stringify(liveSettingsOf(read)));
    assert.notEqual(typeof parsed, 'string', `the server takes the file: ${JSON.stringify(parsed)}`);
  });

  test("a live setting never changes the server's command line; it reaches the live settings file", () => {
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
