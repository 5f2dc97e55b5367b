import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { LM_TOOLS, LM_TOOL_PREFIX, LM_TOOL_PRESENTATION, lmToolManifestEntry, lmToolName } from '../../../src/extension/lm-tool-names';
import { HISTORY_SHOWS_TEST_RUNS, PROJECT_SERVER_SERVES_BUILTINS, TESTS_AWAITING_APPROVAL, WALKTHROUGH_EVENTS, WALKTHROUGH_ID } from '../../../src/extension/context-keys';
import { PLUGIN_FILES_CONTEXT_KEY, PLUGIN_FILES_VIEW_ID, TOOLS_COMMANDS } from '../../../src/extension/tree/nodes';

interface Manifest {
  activationEvents?: string[];
  contributes: {
    languageModelTools?: { name: string; inputSchema?: unknown; [key: string]: unknown }[];
    mcpServerDefinitionProviders?: { id: string; label: string }[];
    commands?: { command: string; title?: string; category?: string }[];
  };
}

const ROOT = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
const lmTools = manifest.contributes.languageModelTools ?? [];
const SYNC_HINT = 'run `node scripts/sync-manifest.mjs` to rewrite contributes.languageModelTools';

describe('package.json contributes.languageModelTools', () => {
  test('has exactly one entry per built-in and editor tool, and no other', () => {
    const expected = LM_TOOLS.map((tool) => lmToolName(tool.name)).sort();
    assert.deepEqual(lmTools.map((entry) => entry.name).sort(), expected, SYNC_HINT);
  });

  test("each entry's inputSchema is the engine's schema", () => {
    for (const tool of LM_TOOLS) {
      const entry = lmTools.find((candidate) => candidate.name === lmToolName(tool.name));
      assert.deepEqual(entry?.inputSchema, JSON.parse(JSON.stringify(tool.inputSchema)), `${tool.name}: ${SYNC_HINT}`);
    }
  });

  test('each entry is the one generated from the engine definition (descriptions, tags, icon)', () => {
    for (const tool of LM_TOOLS) {
      const entry = lmTools.find((candidate) => candidate.name === lmToolName(tool.name));
      assert.deepEqual(entry, JSON.parse(JSON.stringify(lmToolManifestEntry(tool))), `${tool.name}: ${SYNC_HINT}`);
    }
  });

  test('names are prefixed, {verb}_{noun} shaped, keep the engine name, and references are unique', () => {
    for (const tool of LM_TOOLS) {
      const name = lmToolName(tool.name);
      assert.match(name, /^workspaceTools_[a-z]+(_[a-z]+)+$/, name);
      assert.ok(name.startsWith(LM_TOOL_PREFIX));
      assert.ok(name.endsWith(tool.name.replace(/-/g, '_')), name);
    }
    const references = lmTools.map((entry) => entry['toolReferenceName']);
    assert.equal(new Set(references).size, references.length);
  });

  test('every presentation entry belongs to a built-in or an editor tool', () => {
    const builtins = new Set(LM_TOOLS.map((tool) => tool.name));
    assert.deepEqual(Object.keys(LM_TOOL_PRESENTATION).filter((name) => !builtins.has(name)), []);
  });
});

describe('package.json other contributions', () => {
  test('declares the MCP server definition provider the extension registers', () => {
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [{ id: 'workspaceTools.mcpServers', label: 'Workspace Tools' }]);
  });

  test('every command has a title and the Workspace Tools category', () => {
    for (const command of manifest.contributes.commands ?? []) {
      assert.match(command.command, /^workspaceTools\.[a-z][A-Za-z]+$/, command.command);
      assert.ok(command.title !== undefined && command.title.length > 0, command.command);
      assert.equal(command.category, 'Workspace Tools', command.command);
    }
  });

  test('the client configuration commands are contributed', () => {
    const ids = (manifest.contributes.commands ?? []).map((command) => command.command);
    assert.ok(ids.includes('workspaceTools.writeMcpJson'));
    assert.ok(ids.includes('workspaceTools.copyServerCommand'));
  });

  test('every command the tools view registers is contributed', () => {
    const ids = (manifest.contributes.commands ?? []).map((command) => command.command);
    for (const id of Object.values(TOOLS_COMMANDS)) {
      assert.ok(ids.includes(id), `${id} is registered but not in contributes.commands`);
    }
  });

  test('the Plugin Files view shows welcome content for each state the extension sets, and only then', () => {
    const contributes = manifest.contributes as unknown as {
      views: Record<string, { id: string; when?: string }[]>;
      viewsWelcome: { view: string; contents: string; when: string }[];
    };
    const view = contributes.views['workspaceTools']?.find((candidate) => candidate.id === PLUGIN_FILES_VIEW_ID);
    const welcome = contributes.viewsWelcome.filter((entry) => entry.view === PLUGIN_FILES_VIEW_ID);
    const states = welcome.map((entry) => /^workspaceTools\.pluginFiles == (\w+)$/.exec(entry.when)?.[1]).sort();
    assert.deepEqual(states, ['noFiles', 'pending', 'restricted']);
    for (const state of states) {
      assert.ok(view?.when?.includes(`${PLUGIN_FILES_CONTEXT_KEY} == ${state}`), `the view is not shown for ${state}`);
    }
    const commands = new Set([...(manifest.contributes.commands ?? []).map((command) => command.command), 'workbench.trust.manage']);
    for (const entry of welcome) {
      for (const [, command] of entry.contents.matchAll(/\]\(command:([\w.]+)/g)) {
        assert.ok(commands.has(command ?? ''), `unknown command ${command}`);
      }
    }
  });

  test('the walkthrough: at least 4 steps, each with Markdown that exists, a button and a completion event the extension raises', () => {
    const contributes = manifest.contributes as unknown as {
      walkthroughs: { id: string; steps: { id: string; description: string; media: { markdown?: string }; completionEvents: string[] }[] }[];
    };
    const [walkthrough] = contributes.walkthroughs;
    assert.equal(walkthrough?.id, WALKTHROUGH_ID);
    const steps = walkthrough?.steps ?? [];
    assert.ok(steps.length >= 4);
    const setByUs = new Set<string>(Object.values(WALKTHROUGH_EVENTS));
    const commands = new Set((manifest.contributes.commands ?? []).map((command) => command.command));
    for (const step of steps) {
      assert.ok(step.media.markdown !== undefined && existsSync(path.join(ROOT, step.media.markdown)), `${step.id}: no Markdown`);
      assert.match(step.description, /\]\(command:/, `${step.id}: no button`);
      assert.ok(step.completionEvents.length > 0, `${step.id}: never completes`);
      for (const event of step.completionEvents) {
        // a key that stays true would never complete a step: only the event keys, alone
        const context = /^onContext:([\w.]+)$/.exec(event)?.[1];
        const command = /^onCommand:([\w.]+)$/.exec(event)?.[1];
        assert.ok((context !== undefined && setByUs.has(context)) || (command !== undefined && commands.has(command)), `${step.id}: ${event} is not raised by the extension`);
      }
    }
  });

  test('every "when" clause names context keys that exist: VS Code\'s or the extension\'s', () => {
    // VS Code's keys these clauses use; a misspelt one ("workspaceTrusted") is simply never true.
    const known = new Set([
      'view', 'viewItem', 'workbenchState', 'isWorkspaceTrusted', 'workspaceFolderCount', 'controllerId', 'testId',
      PLUGIN_FILES_CONTEXT_KEY, TESTS_AWAITING_APPROVAL, HISTORY_SHOWS_TEST_RUNS, PROJECT_SERVER_SERVES_BUILTINS,
    ]);
    const clauses: string[] = [];
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) {
        value.forEach(collect);
      } else if (typeof value === 'object' && value !== null) {
        for (const [key, entry] of Object.entries(value)) {
          if ((key === 'when' || key === 'enablement') && typeof entry === 'string') {
            clauses.push(entry);
          } else {
            collect(entry);
          }
        }
      }
    };
    collect(manifest.contributes);
    assert.ok(clauses.length > 10);
    for (const clause of clauses) {
      // the keys: identifiers not inside quotes or a /regex/, not a value after ==
      const keys = clause
        .replace(/\/(\\.|[^/])*\//g, '')
        .replace(/'[^']*'/g, '')
        .split(/\|\||&&|!|\(|\)| in /)
        .map((part) => part.trim().split(/\s*(?:==|!=|=~|>|<|>=|<=)\s*/)[0] ?? '')
        .filter((key) => key !== '' && key !== 'true' && key !== 'false');
      for (const key of keys) {
        assert.ok(known.has(key), `"${clause}" names the unknown context key "${key}"`);
      }
    }
  });

  test('commands a person may look for in the Command Palette are not hidden from it', () => {
    const palette = (manifest.contributes as unknown as { menus: { commandPalette: { command: string; when: string }[] } }).menus.commandPalette;
    const hidden = palette.filter((entry) => entry.when === 'false').map((entry) => entry.command);
    assert.ok(!hidden.includes('workspaceTools.openHistoryRecord'), 'Open the Latest Call Record must be in the palette');
    assert.equal(palette.find((entry) => entry.command === 'workspaceTools.runTests')?.when, 'isWorkspaceTrusted');
  });

  test('activates on startup', () => {
    assert.ok(manifest.activationEvents?.includes('onStartupFinished'));
  });
});
