/**
 * Plugin files written on Windows: CRLF line endings (and the lone CR of old editors), with
 * comments, and every problem at the line:column the editor shows.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { LineIndex } from '../../../src/core/plugins/locate';
import { stripJsoncExtras } from '../../../src/core/plugins/parse-jsonc';
import { FOLDER } from './fixtures';

const BROKEN = '{\n  "tools": [\n    { "name": "broken", "description": "x",\n      "handler": 42 }\n  ]\n}\n';

describe('line endings', () => {
  for (const [name, ending] of [['LF', '\n'], ['CRLF', '\r\n'], ['CR', '\r']] as const) {
    test(`${name}: a schema problem is at its line:column`, () => {
      const loaded = loadPluginFile('/ws/.vscode/tools/broken.json', BROKEN.replace(/\n/g, ending), FOLDER);
      assert.ok(loaded.diagnostics.length > 0);
      assert.deepEqual([...new Set(loaded.diagnostics.map(({ line, column }) => `${line}:${column}`))], ['4:18']);
    });

    test(`${name}: a syntax error after a line comment is at its line:column, and the comment ends at the line's end`, () => {
      const text = ['{', '  // the tools of this file', '  "tools": [', '    { "name": "ok", "description": "d", "handler": { "type": "shell", "command": ["git", "status"] } },', '  ],', '  "name": "x" oops', '}', ''].join(ending);
      const loaded = loadPluginFile('/ws/.vscode/tools/syntax.json', text, FOLDER);
      assert.deepEqual(loaded.diagnostics.map(({ line, column }) => `${line}:${column}`), ['6:15']);
      const good = loadPluginFile('/ws/.vscode/tools/good.json', text.replace(' oops', ''), FOLDER);
      assert.deepEqual(good.diagnostics, []);
      assert.deepEqual(good.tools.map((tool) => tool.name), ['ok']);
    });
  }

  test('CR is never a column: the position after CRLF starts the next line', () => {
    const index = new LineIndex('ab\r\ncd\ref\ngh');
    assert.deepEqual([0, 2, 3, 4, 5, 7, 10].map((offset) => index.position(offset)), [
      { line: 1, column: 1 }, { line: 1, column: 3 }, { line: 1, column: 4 }, { line: 2, column: 1 }, { line: 2, column: 2 }, { line: 3, column: 1 }, { line: 4, column: 1 },
    ]);
  });

  test('a line comment ends at CR, so what follows on the next line is kept', () => {
    assert.equal(stripJsoncExtras('{ // c\r"a": 1 }'), '{     \r"a": 1 }');
  });
});
