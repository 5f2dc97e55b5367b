/**
 * A plugin file's problems arrive together, each once, each underlining the text that is wrong:
 * fixing one must not reveal the next.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { extentInString } from '../../../src/core/plugins/locate';
import type { PluginDiagnostic } from '../../../src/core/types';

const FOLDER = { name: 'ws', path: '/ws' };
const load = (text: string): readonly PluginDiagnostic[] => loadPluginFile('/ws/.vscode/tools/p.json', text, FOLDER).diagnostics;

/** The text a diagnostic underlines (single-line ranges). */
function underlined(text: string, diagnostic: PluginDiagnostic): string {
  const line = text.split('\n')[diagnostic.line - 1] ?? '';
  assert.equal(diagnostic.endLine, diagnostic.line, 'one line');
  return line.slice(diagnostic.column - 1, (diagnostic.endColumn ?? diagnostic.column) - 1);
}

describe('every problem of a file at once', () => {
  const text = [
    '{',
    '  "tools": [',
    '    {',
    '      "name": "count",',
    '      "descripton": "Count matches",',
    '      "handler": { "type": "shell", "comand": "grep -c {{ pattern }} src | wc -l" }',
    '    },',
    '    { "name": "typed", "description": "x", "handler": { "type": "shel", "command": ["ls"] } }',
    '  ]',
    '}',
  ].join('\n');

  test('two misspelt keys, a shell operator, an undeclared placeholder and a wrong value: five problems in one pass', () => {
    const diagnostics = load(text);
    assert.deepEqual(
      diagnostics.map((d) => [d.tool, underlined(text, d), d.rule ?? 'check']),
      [
        ['count', '"descripton"', 'additionalProperties'],
        ['count', '"comand"', 'additionalProperties'],
        ['count', '{{ pattern }}', 'check'],
        ['count', '|', 'check'],
        ['typed', '"shel"', 'enum'],
      ],
    );
    // each misspelt key once, with what it most likely meant
    assert.equal(diagnostics.filter((d) => /comand/.test(d.message)).length, 1);
    assert.match(diagnostics[1]?.message ?? '', /did you mean "command"/);
  });

  test('a misplaced property does not hide the handler\'s own problems', () => {
    const file = '{"tools":[{"name":"a","description":"x","defaults":{"p":1},"handler":{"type":"shell","command":["echo","{{nope}}"]}}]}';
    const messages = load(file).map((d) => d.message);
    assert.equal(messages.length, 2, messages.join('\n'));
    assert.match(messages.join('\n'), /"defaults" belongs to an alias/);
    assert.match(messages.join('\n'), /Placeholder \{\{nope\}\} names no property/);
  });

  test('a tool with a wrong type is not built: its other checks would only repeat the type', () => {
    const file = '{"tools":[{"name":"a","description":"x","handler":{"type":"shell","command":42}}]}';
    assert.equal(load(file).length, 1);
  });

  test('an undeclared placeholder in a script says to declare it; a declared one says to read $INPUT_', () => {
    const undeclared = '{"tools":[{"name":"a","description":"x","handler":{"type":"shell","script":"grep {{p}} src"}}]}';
    assert.match(load(undeclared)[0]?.message ?? '', /\{\{p\}\} in "script" names no property .*declare it, then read it as "\$INPUT_P"/);
    const declared = '{"tools":[{"name":"a","description":"x","inputSchema":{"type":"object","properties":{"p":{"type":"string"}}},"handler":{"type":"shell","script":"grep {{p}} src"}}]}';
    assert.match(load(declared)[0]?.message ?? '', /input values never enter the script text/);
  });

  test('a placeholder in a step\'s "with" is placed on its value', () => {
    const file = '{"tools":[{"name":"a","description":"x","steps":[{"name":"s","tool":"git-status","with":{"path":"{{where}}"}}]}]}';
    const [diagnostic] = load(file);
    assert.equal(diagnostic === undefined ? '' : underlined(file, diagnostic), '{{where}}');
  });
});

describe('extentInString: value offsets to file offsets through escapes', () => {
  test('plain, escaped and \\u-escaped characters', () => {
    // the value is  a"b|c  spelled "a\"b\u007cc": the "|" is value offset 3, raw offsets 5 to 11
    const text = '"a\\"b\\u007cc"';
    assert.deepEqual(extentInString(text, 0, 3, 1), { start: 5, end: 11 });
    assert.deepEqual(extentInString(text, 0, 0, 1), { start: 1, end: 2 });
    assert.equal(extentInString(text, 0, 4, 3), undefined);
  });
});
