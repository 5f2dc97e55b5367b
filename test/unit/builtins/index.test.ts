import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_TOOLS } from '../../../src/core/builtins';
import { FOLDER_PROPERTY } from '../../../src/core/builtins/folder';

describe('BUILTIN_TOOLS', () => {
  test('lists the built-in tools in display order', () => {
    assert.deepEqual(
      BUILTIN_TOOLS.map((tool) => tool.name),
      ['git-status', 'git-diff-summary', 'git-log', 'workspace-info', 'file-reader', 'list-files', 'search-text'],
    );
  });

  test('every built-in is a read-only builtin with a closed, documented schema and a folder', () => {
    for (const tool of BUILTIN_TOOLS) {
      assert.deepEqual(tool.source, { kind: 'builtin' }, tool.name);
      assert.deepEqual(tool.tags, ['read'], tool.name);
      assert.ok(tool.title !== undefined && tool.title.length > 0, tool.name);
      assert.ok(tool.description.length > 80, tool.name);
      assert.ok(tool.handlerSummary.length > 0, tool.name);
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
      const properties = tool.inputSchema.properties ?? {};
      assert.equal((properties['folder'] as { type?: string } | undefined)?.type, FOLDER_PROPERTY.type, tool.name);
      for (const [key, schema] of Object.entries(properties)) {
        const description = typeof schema === 'object' ? schema['description'] : undefined;
        assert.ok(typeof description === 'string' && description.length > 0, `${tool.name}.${key}`);
      }
    }
  });
});
