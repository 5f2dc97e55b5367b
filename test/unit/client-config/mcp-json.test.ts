import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import { clientTarget } from '../../../src/core/client-config/clients';
import { MCP_SERVER_NAME, formattingOf, mergeMcpJson } from '../../../src/core/client-config/mcp-json';

const ENTRY = clientTarget('claude').entry({ kind: 'npx', version: '1.2.3' });

function merged(existing: string | undefined): string {
  const outcome = mergeMcpJson(existing, MCP_SERVER_NAME, ENTRY);
  assert.ok(outcome.ok, JSON.stringify(outcome));
  return outcome.text;
}

describe('the client entries', () => {
  test('Claude Code: npx of this version for the project it lives in, no path of this machine', () => {
    assert.deepEqual(ENTRY, { type: 'stdio', command: 'npx', args: ['-y', 'workspace-tools-mcp@1.2.3', '--workspace', '.'] });
  });

  test('Cursor and VS Code name the open folder with ${workspaceFolder}; VS Code lists servers under "servers"', () => {
    const launcher = { kind: 'npx', version: '1.2.3' } as const;
    const cursor = clientTarget('cursor');
    const vscode = clientTarget('vscode');
    assert.deepEqual([cursor.file, cursor.serversKey], ['.cursor/mcp.json', 'mcpServers']);
    assert.deepEqual(cursor.entry(launcher), { command: 'npx', args: ['-y', 'workspace-tools-mcp@1.2.3', '--workspace', '${workspaceFolder}'] });
    assert.deepEqual([vscode.file, vscode.serversKey], ['.vscode/mcp.json', 'servers']);
    assert.deepEqual(vscode.entry(launcher), { type: 'stdio', command: 'npx', args: ['-y', 'workspace-tools-mcp@1.2.3', '--workspace', '${workspaceFolder}'] });
  });

  test('--local keeps the path form: node and this copy of the server', () => {
    assert.deepEqual(clientTarget('claude').entry({ kind: 'local', serverPath: '/src/wt/dist/mcp-server.js' }), {
      type: 'stdio',
      command: 'node',
      args: ['/src/wt/dist/mcp-server.js', '--workspace', '.'],
    });
  });
});

describe('mergeMcpJson', () => {
  test('no file (or an empty one): a new file with only our server', () => {
    for (const existing of [undefined, '', '  \n']) {
      const text = merged(existing);
      assert.deepEqual(JSON.parse(text), { mcpServers: { 'workspace-tools': ENTRY } });
      assert.ok(text.endsWith('}\n'));
    }
  });

  test('keeps other servers, unknown keys, comments and indentation', () => {
    const existing = [
      '{',
      '    // project servers',
      '    "mcpServers": {',
      '        "other": { "command": "other-server", "args": [] } // keep me',
      '    },',
      '    "unknownKey": [1, 2, 3]',
      '}',
      '',
    ].join('\n');
    const text = merged(existing);
    assert.ok(text.includes('// project servers'));
    assert.ok(text.includes('// keep me'));
    assert.ok(text.includes('\n        "workspace-tools": {'), text);
    const value = parse(text) as Record<string, unknown>;
    assert.deepEqual(value['unknownKey'], [1, 2, 3]);
    assert.deepEqual(value['mcpServers'], { other: { command: 'other-server', args: [] }, 'workspace-tools': ENTRY });
  });

  test('adds mcpServers to a file that has none', () => {
    const value = parse(merged('{ "$schema": "x" }')) as Record<string, unknown>;
    assert.deepEqual(value, { $schema: 'x', mcpServers: { 'workspace-tools': ENTRY } });
  });

  test('updates our entry in place and keeps what the user added to it (env)', () => {
    const existing = JSON.stringify({ mcpServers: { 'workspace-tools': { command: 'node', args: ['/old/path.js'], env: { A: '1' } } } }, null, 2);
    const value = parse(merged(existing)) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(value.mcpServers['workspace-tools'], { ...ENTRY, env: { A: '1' } });
  });

  test('takes out the NODE_OPTIONS=--disable-sigusr1 earlier versions wrote (it stops npx on Node 20), keeping the user\'s env', () => {
    const written = (env: Record<string, string>) => JSON.stringify({ mcpServers: { 'workspace-tools': { ...ENTRY, env } } }, null, 2);
    const alone = parse(merged(written({ NODE_OPTIONS: '--disable-sigusr1' }))) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(alone.mcpServers['workspace-tools'], ENTRY);
    const beside = parse(merged(written({ NODE_OPTIONS: '--disable-sigusr1', A: '1' }))) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(beside.mcpServers['workspace-tools'], { ...ENTRY, env: { A: '1' } });
    const own = parse(merged(written({ NODE_OPTIONS: '--max-old-space-size=4096' }))) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(own.mcpServers['workspace-tools'], { ...ENTRY, env: { NODE_OPTIONS: '--max-old-space-size=4096' } }, 'a value the user chose stays');
  });

  test('an up-to-date file is reported unchanged, byte for byte', () => {
    const existing = merged(undefined);
    const outcome = mergeMcpJson(existing, MCP_SERVER_NAME, ENTRY);
    assert.deepEqual(outcome, { ok: true, text: existing, changed: false });
  });

  test('a broken file is refused with its 1-based line and column', () => {
    const existing = '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n';
    const outcome = mergeMcpJson(existing, MCP_SERVER_NAME, ENTRY);
    assert.equal(outcome.ok, false);
    if (!outcome.ok) {
      assert.deepEqual({ line: outcome.line, column: outcome.column }, { line: 4, column: 5 });
      assert.match(outcome.message, /','/);
    }
  });

  test('refuses a file whose top level or mcpServers is not an object', () => {
    assert.deepEqual(mergeMcpJson('[1]', MCP_SERVER_NAME, ENTRY), { ok: false, line: 1, column: 1, message: 'the file must hold a JSON object' });
    const outcome = mergeMcpJson('{\n  "mcpServers": []\n}', MCP_SERVER_NAME, ENTRY);
    assert.deepEqual(outcome, { ok: false, line: 2, column: 17, message: '"mcpServers" must be an object' });
  });

  test('VS Code\'s file: our entry goes under "servers", its other servers and inputs stay', () => {
    const entry = clientTarget('vscode').entry({ kind: 'npx', version: '1.2.3' });
    const existing = '{\n  "inputs": [],\n  "servers": { "other": { "command": "x" } }\n}\n';
    const outcome = mergeMcpJson(existing, MCP_SERVER_NAME, entry, 'servers');
    assert.ok(outcome.ok);
    assert.deepEqual(parse(outcome.text), { inputs: [], servers: { other: { command: 'x' }, 'workspace-tools': entry } });
    assert.deepEqual(mergeMcpJson('{ "servers": 1 }', MCP_SERVER_NAME, entry, 'servers'), { ok: false, line: 1, column: 14, message: '"servers" must be an object' });
  });

  test('keeps CRLF line ends', () => {
    const text = merged('{\r\n  "mcpServers": {}\r\n}\r\n');
    assert.ok(!/[^\r]\n/.test(text), JSON.stringify(text));
  });
});

describe('formattingOf', () => {
  test('reads tabs, spaces and line ends from the file', () => {
    assert.deepEqual(formattingOf('{\n\t"a": 1\n}'), { insertSpaces: false, tabSize: 1, eol: '\n' });
    assert.deepEqual(formattingOf('{\r\n    "a": 1\r\n}'), { insertSpaces: true, tabSize: 4, eol: '\r\n' });
    assert.deepEqual(formattingOf('{}'), { insertSpaces: true, tabSize: 2, eol: '\n' });
  });
});
