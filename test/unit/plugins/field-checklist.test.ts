/**
 * ARCHITECTURE.md's checklist for a plugin-file field, as a test: every property a tool may have
 * in schemas/tool-plugin.schema.json has a variant here, and each variant changes what the built
 * tool gives its consumers (what is listed, approved, or run). A field added to the schema and
 * the types but never carried to identityOf, the compiled handler or the run fails here, instead
 * of being read and silently dropped.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import type { Logger, ToolDefinition, ToolRunContext } from '../../../src/core/types';
import { DEFAULT_LIMITS } from '../../../src/core/types';

const ROOT = path.resolve(__dirname, '../../../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SCHEMA = require(path.join(ROOT, 'schemas/tool-plugin.schema.json')) as { definitions: { tool: { properties: Record<string, unknown> } } };
const folderPath = mkdtempSync(path.join(tmpdir(), 'wt-field-checklist-'));
after(() => rmSync(folderPath, { recursive: true, force: true }));

type Tool = Record<string, unknown>;
const echo = { type: 'shell', command: ['echo', 'hi'] };
const base: Tool = { name: 't', description: 'Says hi.', handler: echo };
const steps: Tool = { name: 't', description: 'Waits.', steps: [{ name: 'wait', handler: { type: 'shell', command: ['sleep', '0.5'] } }] };
const baseTool: Tool = { name: 'base', description: 'Echoes a word.', handler: { type: 'shell', command: ['echo', '{{word}}'] }, inputSchema: { type: 'object', properties: { word: { type: 'string' } } } };

/** For each tool property: two files of tools that differ only in it (the tool under test is the last one). */
const VARIANTS: Record<string, readonly [readonly Tool[], readonly Tool[]]> = {
  name: [[base], [{ ...base, name: 'u' }]],
  title: [[base], [{ ...base, title: 'A title' }]],
  description: [[base], [{ ...base, description: 'Says hello.' }]],
  inputSchema: [[base], [{ ...base, inputSchema: { type: 'object', properties: { word: { type: 'string' } } } }]],
  tags: [[base], [{ ...base, tags: ['read'] }]],
  output: [[base], [{ ...base, output: { format: 'json' } }]],
  confirm: [[base], [{ ...base, confirm: { message: 'Say hi?' } }]],
  sandbox: [[base], [{ ...base, sandbox: { write: ['dist'] } }]],
  handler: [[base], [{ ...base, handler: { type: 'shell', command: ['echo', 'bye'] } }]],
  steps: [[base], [steps]],
  timeout: [[steps], [{ ...steps, timeout: 100 }]],
  task: [[base], [{ ...base, task: { support: 'preferred', timeout: 600000 } }]],
  alias: [[baseTool, { name: 't', description: 'An alias.', alias: 'base' }], [{ ...baseTool, name: 'other' }, { name: 't', description: 'An alias.', alias: 'other' }]],
  defaults: [[baseTool, { name: 't', description: 'An alias.', alias: 'base' }], [baseTool, { name: 't', description: 'An alias.', alias: 'base', defaults: { word: 'hi' } }]],
  tests: [[base], [{ ...base, tests: [{ name: 'says hi', input: {}, expect: { outputContains: 'hi' } }] }]],
};

const logger: Logger = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function built(tools: readonly Tool[]): ToolDefinition {
  const loaded = loadPluginFile(path.join(folderPath, '.vscode/tools/t.json'), JSON.stringify({ tools }), { name: 'ws', path: folderPath });
  assert.deepEqual(loaded.diagnostics, [], JSON.stringify(tools));
  const tool = loaded.tools.find((one) => one.name === (tools.at(-1)?.['name'] as string));
  assert.ok(tool !== undefined, JSON.stringify(tools));
  return tool;
}

/** What consumers see of a tool: its listing and approval text, and how a call with no input ends. */
async function observed(tool: ToolDefinition): Promise<string> {
  const listed = JSON.stringify(tool, (_key, value: unknown) => (typeof value === 'function' ? undefined : value));
  const context: ToolRunContext = {
    folders: [{ name: 'ws', path: folderPath }],
    signal: new AbortController().signal,
    limits: DEFAULT_LIMITS,
    logger,
    env: process.env,
    ask: () => Promise.reject(new Error('asked')),
  };
  const outcome = await tool.run({}, context).then(
    (result) => JSON.stringify(result),
    (error: unknown) => String(error),
  );
  return `${listed}\n${outcome}`;
}

describe('every plugin tool field reaches a consumer', () => {
  test('each property of a tool in the schema has a variant here', () => {
    assert.deepEqual(Object.keys(SCHEMA.definitions.tool.properties).filter((key) => VARIANTS[key] === undefined), []);
  });

  for (const [field, [before, changed]] of Object.entries(VARIANTS)) {
    test(`"${field}" changes what the built tool gives`, async () => {
      assert.notEqual(await observed(built(changed)), await observed(built(before)));
    });
  }
});
