import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import * as path from 'node:path';
import { CLIENT_IDS, clientTarget, userFilePath } from '../../../src/core/client-config/clients';
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

  test('each agent\'s file and entry, as it documents them: .mcp.json for Claude Code, VS Code and Copilot CLI; Cursor names the open folder', () => {
    const launcher = { kind: 'npx', version: '1.2.3' } as const;
    const npx = ['-y', 'workspace-tools-mcp@1.2.3', '--workspace', '.'];
    const files = Object.fromEntries(CLIENT_IDS.map((id) => [id, clientTarget(id).project.file]));
    assert.deepEqual(files, { claude: '.mcp.json', vscode: '.mcp.json', copilot: '.mcp.json', cursor: '.cursor/mcp.json', codex: '.codex/config.toml', gemini: '.gemini/settings.json', zed: '.zed/settings.json' });
    assert.deepEqual(clientTarget('vscode').entry(launcher), { type: 'stdio', command: 'npx', args: npx });
    assert.deepEqual(clientTarget('cursor').entry(launcher), { command: 'npx', args: ['-y', 'workspace-tools-mcp@1.2.3', '--workspace', '${workspaceFolder}'] });
    for (const id of ['codex', 'gemini', 'zed'] as const) {
      assert.deepEqual(clientTarget(id).entry(launcher), { command: 'npx', args: npx }, id);
    }
    const zed = clientTarget('zed').project.merge(undefined, MCP_SERVER_NAME, launcher);
    assert.ok(zed.ok);
    assert.deepEqual(JSON.parse(zed.text), { context_servers: { 'workspace-tools': { command: 'npx', args: npx } } });
    const copilot = clientTarget('copilot').user?.merge(undefined, MCP_SERVER_NAME, launcher);
    assert.ok(copilot?.ok);
    assert.deepEqual(JSON.parse(copilot.text), { mcpServers: { 'workspace-tools': { type: 'local', command: 'npx', args: npx, tools: ['*'] } } });
    assert.equal(clientTarget('copilot').user?.file, '.copilot/mcp-config.json');
    assert.deepEqual(CLIENT_IDS.filter((id) => clientTarget(id).user !== undefined), ['copilot'], 'only Copilot CLI needs a user-level file');
  });

  test('Copilot CLI\'s folder is $COPILOT_HOME when set, else ~/.copilot', () => {
    const file = clientTarget('copilot').user;
    assert.ok(file !== undefined);
    assert.equal(userFilePath(file, '/home/u', {}), path.join('/home/u', '.copilot', 'mcp-config.json'));
    assert.equal(userFilePath(file, '/home/u', { COPILOT_HOME: '/c' }), path.join('/c', 'mcp-config.json'));
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

  test('VS Code\'s older file: our entry goes under "servers", its other servers and inputs stay', () => {
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
