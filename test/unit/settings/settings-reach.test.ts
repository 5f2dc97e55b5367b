// Every row of the settings table reaches what the server runs with, both ways a value can come:
// its flag (the command line a user or a client writes), and its VS Code value (through the
// window's server definition for a restart setting, through the live settings file for a live
// one). The path is the real one: parseCli, setUp (the registry, limits and sandbox every
// subcommand builds), the live settings file's parser and applyLiveSettings, as `serve` runs them.
// A row that is read and then dropped (a limit left out of the server's limits, a flag parsed
// into nothing) leaves the server as it was, and fails here.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import type { LiveSettings } from '../../../src/core/settings/live-settings';
import { parseLiveSettings } from '../../../src/core/settings/live-settings';
import type { ServerConfig } from '../../../src/core/settings/server-config';
import { serverConfigToArgv } from '../../../src/core/settings/server-config';
import type { SettingField } from '../../../src/core/settings/settings-table';
import { FLAGGED_FIELDS, SETTING_FIELDS, flagOf, rowOf } from '../../../src/core/settings/settings-table';
import type { ToolSettings } from '../../../src/core/settings/tool-settings';
import { liveSettingsOf, readToolSettings, windowServerConfig } from '../../../src/core/settings/tool-settings';
import type { Logger } from '../../../src/core/types';
import { pluginDirectoriesFor } from '../../../src/core/workspace-registry';
import { parseCli } from '../../../src/mcp/cli';
import { setUp } from '../../../src/mcp/commands/setup';

const quiet: Logger = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const home = mkdtempSync(path.join(tmpdir(), 'wt-settings-reach-'));
after(() => rmSync(home, { recursive: true, force: true }));

const WORKSPACE = path.join(home, 'app');
/** The server's own state stays in the temp folder: never the user's approval store or history. */
const OWN_FLAGS = ['--workspace', WORKSPACE, '--approvals', path.join(home, 'approvals.json'), '--history', path.join(home, 'history.jsonl')];

/**
 * Whether the window serves a server at all is the extension's (mcp-provider.ts, the e2e settings
 * checks): no server process sees it.
 */
const DECIDED_BY_THE_WINDOW: readonly SettingField[] = ['mcpEnabled'];

/** What a server runs with, as `serve` builds it from its command line and its live settings. */
function serverState(options: ServerConfig, live?: LiveSettings): unknown {
  const setup = setUp(options, quiet);
  if (live !== undefined) {
    setup.applyLiveSettings(live);
  }
  const state = {
    limits: setup.limits(),
    tools: setup.registry.all().map((tool) => `${tool.definition.name}: ${tool.state}`),
    sandbox: setup.sandbox.setting,
    hidden: setup.sandbox.user,
    pluginDirectories: pluginDirectoriesFor(setup.folders, options.pluginDirectories).map((directory) => directory.path),
  };
  setup.registry.dispose();
  setup.sandbox.dispose();
  return state;
}

function parsed(argv: readonly string[]): ServerConfig {
  const outcome = parseCli(argv, home);
  assert.equal(outcome.kind, 'run', `${argv.join(' ')}: ${outcome.kind === 'error' ? outcome.message : outcome.kind}`);
  return outcome.kind === 'run' ? outcome.options : (undefined as never);
}

describe('each setting reaches the server from its flag', () => {
  const base = serverState(parsed(OWN_FLAGS));
  for (const field of FLAGGED_FIELDS) {
    const row = rowOf(field);
    const flag = flagOf(field);
    test(`${flag.name} (${field})`, () => {
      const args = row.kind.toFlag(row.example, { flag: flag.name, cwd: home });
      const options = parsed([...OWN_FLAGS, ...args]);
      assert.deepEqual(options[field], row.example, `${args.join(' ')} is read back as the example`);
      assert.notDeepEqual(serverState(options), base, `${args.join(' ')} changes nothing the server runs with: is the row's value used (its limit, its place in setUp)?`);
    });
  }
});

describe('each setting reaches the server from its VS Code value', () => {
  const defaults = readToolSettings(() => undefined);
  const paths = { folders: [WORKSPACE], approvalsFile: path.join(home, 'approvals.json'), settingsFile: path.join(home, 'live.json'), registeredToolsDirectory: path.join(home, 'registered'), historyFile: path.join(home, 'history.jsonl'), runningFile: path.join(home, 'mcp-running.json') };
  /** What the window's server runs with under `settings`: its command line, then its live settings file. */
  const windowState = (settings: ToolSettings): unknown => {
    const options = parsed(serverConfigToArgv(windowServerConfig(settings, paths)));
    const live = parseLiveSettings(paths.settingsFile, JSON.stringify(liveSettingsOf(settings)));
    assert.notEqual(typeof live, 'string', `the live settings file is refused: ${JSON.stringify(live)}`);
    return serverState(options, live as LiveSettings);
  };
  // The window's server serves the built-ins only with mcp.includeBuiltins on, so a setting about
  // a built-in (switching one off, all of them) shows there.
  const bases: readonly ToolSettings[] = [defaults, { ...defaults, mcpIncludeBuiltins: true }];
  const baseStates = bases.map(windowState);

  // A `host` row is the extension host's alone: no server sees it, by its definition.
  for (const field of SETTING_FIELDS.filter((candidate) => !DECIDED_BY_THE_WINDOW.includes(candidate) && rowOf(candidate).reach !== 'host')) {
    const row = rowOf(field);
    test(`workspaceTools.${row.key} (${field}, ${row.reach})`, () => {
      const reached = bases.some((base, index) => {
        assert.deepEqual(base[field], row.default);
        const state = windowState({ ...base, [field]: row.example });
        return JSON.stringify(state) !== JSON.stringify(baseStates[index]);
      });
      assert.ok(reached, `workspaceTools.${row.key} = ${JSON.stringify(row.example)} changes nothing the window's server runs with`);
    });
  }

  test('the settings no server sees are the window\'s, with the reason in their row', () => {
    for (const field of DECIDED_BY_THE_WINDOW) {
      const row = rowOf(field);
      assert.ok('noFlag' in row, `${field} has no flag`);
    }
  });
});
