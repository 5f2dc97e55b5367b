/**
 * The editor tools are a family of their own (not built-ins: the built-in checklist's tests leave
 * them out); ARCHITECTURE.md's "The editor bridge" checklist, as tests.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { BUILTIN_TOOLS } from '../../../src/core/builtins';
import { EDITOR_TOOL_NAMES } from '../../../src/core/editor-bridge/editor-tool-specs';
import { LM_TOOLS, lmToolName } from '../../../src/extension/lm-tool-names';

const ROOT = path.resolve(__dirname, '../../../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

describe('every editor tool is everywhere the checklist names', () => {
  test('not a built-in (no name shared)', () => {
    assert.deepEqual(BUILTIN_TOOLS.filter((tool) => EDITOR_TOOL_NAMES.includes(tool.name)), []);
  });

  test('in the table of docs/editor-bridge.md', () => {
    const page = read('docs/editor-bridge.md');
    assert.deepEqual(EDITOR_TOOL_NAMES.filter((name) => !page.includes(`| \`${name}\` |`)), []);
  });

  test('an lm tool of the manifest, shown whatever server the project starts (no `when`)', () => {
    const manifest = JSON.parse(read('package.json')) as { contributes: { languageModelTools: Array<{ name: string; when?: string; tags: string[] }> } };
    for (const name of EDITOR_TOOL_NAMES) {
      assert.ok(LM_TOOLS.some((tool) => tool.name === name), name);
      const entry = manifest.contributes.languageModelTools.find((candidate) => candidate.name === lmToolName(name));
      assert.ok(entry, `${name}: run node scripts/sync-manifest.mjs`);
      assert.equal(entry.when, undefined, name);
      assert.ok(entry.tags.includes('read'), name);
    }
  });

  test('linked from the README', () => {
    assert.match(read('README.md'), /\(docs\/editor-bridge\.md\)/);
  });
});
