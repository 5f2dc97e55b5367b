/**
 * ARCHITECTURE.md's checklist for a built-in tool, as tests: a step that is skipped fails here
 * with the step named (the registry, the lm presentation and the structured-output check have
 * their own tests: index.test.ts, extension/manifest.test.ts, mcp/structured.test.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { BUILTIN_TOOLS } from '../../../src/core/builtins';

const ROOT = path.resolve(__dirname, '../../../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const names = BUILTIN_TOOLS.map((tool) => tool.name);

describe('every built-in is everywhere the checklist names', () => {
  test('the built-in table in docs/builtin-tools.md', () => {
    const page = read('docs/builtin-tools.md');
    assert.deepEqual(names.filter((name) => !page.includes(`\`${name}\``)), []);
  });

  test("the npm package's README", () => {
    const readme = read('packages/workspace-tools-mcp/README.md');
    assert.deepEqual(names.filter((name) => !readme.includes(`\`${name}\``)), []);
  });

  test("the workspaceTools.builtins.enabled setting's description", () => {
    const manifest = JSON.parse(read('package.json')) as { contributes: { configuration: { properties: Record<string, { description: string }> } } };
    const description = manifest.contributes.configuration.properties['workspaceTools.builtins.enabled']?.description ?? '';
    assert.deepEqual(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(description)), []);
  });

  test('the stdio server test lists them (BUILTINS)', () => {
    const source = read('test/unit/mcp/stdio-server.test.ts');
    assert.deepEqual(names.filter((name) => !source.includes(`'${name}'`)), []);
  });
});
