import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { formatDiagnostic } from '../../../src/core/types';
import { FOLDER } from './fixtures';

/** A one-tool file with `handler` (JSON text) on line 3, so positions are easy to state. */
function withHandler(handler: string, extra = ''): string {
  return `{ "tools": [\n  { "name": "t", "description": "d",${extra}\n    "handler": ${handler} }\n] }\n`;
}

function messages(text: string): string[] {
  return loadPluginFile('/plugins/p.json', text, FOLDER).diagnostics.map(formatDiagnostic);
}

describe('schema errors: one readable message per problem', () => {
  const cases: [string, string, string[]][] = [
    [
      'neither command nor script',
      withHandler('{ "type": "shell" }'),
      ['/plugins/p.json:3:16: tool "t": handler needs "command" or "script"'],
    ],
    [
      'both command and script',
      withHandler('{ "type": "shell", "command": "a", "script": "b" }'),
      ['/plugins/p.json:3:16: tool "t": handler must not have both "command" and "script"; use only one'],
    ],
    [
      'a prompt message with two of text, file and image (and, beside it, one with none)',
      '{ "prompts": [{ "name": "x", "messages": [\n  { "role": "user", "text": "a", "file": "b.md" },\n  { "role": "user" },\n  { "role": "user", "text": "ok" }] }] }\n',
      [
        '/plugins/p.json:2:3: prompt "x": prompts[0].messages[0] must have only one of "text", "file", "image"',
        '/plugins/p.json:3:3: prompt "x": prompts[0].messages[1] needs "text" or "file" or "image"',
      ],
    ],
    [
      'command of the wrong type',
      withHandler('{ "type": "shell", "command": 5 }'),
      ['/plugins/p.json:3:46: tool "t": handler.command must be string or array'],
    ],
    [
      'a non-string argv element',
      withHandler('{ "type": "shell", "command": ["ls", 1] }'),
      ['/plugins/p.json:3:53: tool "t": handler.command[1] must be string'],
    ],
    [
      'an http handler without url',
      withHandler('{ "type": "http", "method": "GET" }'),
      ['/plugins/p.json:3:16: tool "t": missing required property "url" in handler'],
    ],
    [
      'an unknown method',
      withHandler('{ "type": "http", "url": "https://x", "method": "FETCH" }'),
      ['/plugins/p.json:3:64: tool "t": handler.method must be one of GET, POST, PUT, PATCH, DELETE, HEAD'],
    ],
    [
      'inputSchema that is not an object schema',
      withHandler('{ "type": "shell", "command": "ls" }', ' "inputSchema": { "type": "array" },'),
      ['/plugins/p.json:2:63: tool "t": inputSchema.type must be "object"'],
    ],
    [
      'an unknown tag',
      withHandler('{ "type": "shell", "command": "ls" }', ' "tags": ["read", "delete"],'),
      ['/plugins/p.json:2:55: tool "t": tags[1] must be one of read, write, execute, network'],
    ],
    [
      'a misspelt handler key explains the missing handler',
      '{ "tools": [ { "name": "t", "description": "d", "hanlder": { "type": "file-read" } } ] }',
      ['/plugins/p.json:1:49: tool "t": unknown property "hanlder" in tool (did you mean "handler"?); allowed: name, title, description, inputSchema, tags, output, confirm, sandbox, handler, steps, timeout, task, alias, defaults, tests'],
    ],
    [
      'a misspelt key does not hide an unrelated missing property',
      '{ "tools": [ { "name": "t", "titel": "x", "handler": { "type": "file-read" } } ] }',
      [
        '/plugins/p.json:1:14: tool "t": missing required property "description" in tool',
        '/plugins/p.json:1:29: tool "t": unknown property "titel" in tool (did you mean "title"?); allowed: name, title, description, inputSchema, tags, output, confirm, sandbox, handler, steps, timeout, task, alias, defaults, tests',
      ],
    ],
    // A file just created is not written yet: no tool and nothing to report.
    ['an empty file', '', []],
    ['a file with only comments', '// tools for the team\n/* soon */\n', []],
    ['an unterminated comment is not empty', '/* soon', ['/plugins/p.json:1:1: JSON syntax error: unterminated comment (missing */)']],
    ['an empty tool list', '{ "tools": [] }', ['/plugins/p.json:1:12: tools must have at least 1 item']],
  ];
  for (const [name, text, expected] of cases) {
    test(name, () => {
      assert.deepEqual(messages(text), expected);
    });
  }
});
