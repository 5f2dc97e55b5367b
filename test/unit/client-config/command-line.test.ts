import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { commandLineOf, quoteArg, shellFlavorFor } from '../../../src/core/client-config/command-line';
import { launchCommand, launcherForScript } from '../../../src/core/client-config/launch';

/** What a real POSIX shell makes of a quoted word. */
function shellWords(line: string): string[] {
  const out = execFileSync('/bin/sh', ['-c', `${line.replace(/^node /, 'printf "%s\\n" ')}`], { encoding: 'utf8' });
  return out.split('\n').slice(0, -1);
}

describe('quoteArg', () => {
  test('leaves plain words bare unless asked', () => {
    assert.equal(quoteArg('--workspace', 'posix'), '--workspace');
    assert.equal(quoteArg('/a/b.js', 'posix'), '/a/b.js');
    assert.equal(quoteArg('/a/b.js', 'posix', true), '"/a/b.js"');
    assert.equal(quoteArg('', 'posix'), '""');
  });

  test('POSIX: spaces, quotes, $ and backquotes survive a real shell literally', () => {
    for (const value of ['/my dir/x.js', 'it\'s "quoted"', '$HOME/`id`/a\\b', '/tmp/$(rm -rf x)']) {
      const line = `node ${quoteArg(value, 'posix')}`;
      assert.deepEqual(shellWords(line), [value], line);
    }
  });

  test('Windows: double quotes, embedded quotes doubled', () => {
    assert.equal(quoteArg('C:\\Program Files\\x.js', 'windows'), '"C:\\Program Files\\x.js"');
    assert.equal(quoteArg('a"b', 'windows'), '"a""b"');
  });

  test('flavor from the platform', () => {
    assert.equal(shellFlavorFor('win32'), 'windows');
    assert.equal(shellFlavorFor('linux'), 'posix');
    assert.equal(shellFlavorFor('darwin'), 'posix');
  });
});

describe('commandLineOf', () => {
  test('npx of this version, one --workspace per folder, folders quoted', () => {
    assert.equal(
      commandLineOf(launchCommand({ kind: 'npx', version: '0.4.0' }, ['--workspace', '/ws/my app', '--workspace', '/ws/lib']), 'posix'),
      'npx -y workspace-tools-mcp@0.4.0 --workspace "/ws/my app" --workspace "/ws/lib"',
    );
  });

  test('the local form: node and the quoted server path', () => {
    assert.equal(commandLineOf(launchCommand({ kind: 'local', serverPath: '/ext/mcp.js' }, []), 'posix'), 'node "/ext/mcp.js"');
  });

  test('no Node flag and no NODE_OPTIONS: a Node below the floor must reach the server, which names the Node it needs', () => {
    const local = launchCommand({ kind: 'local', serverPath: '/ext/mcp.js' }, ['--workspace', '.']);
    assert.deepEqual(local, { command: 'node', args: ['/ext/mcp.js', '--workspace', '.'] });
    const npx = launchCommand({ kind: 'npx', version: '1.0.0' }, ['--workspace', '.']);
    assert.deepEqual(npx, { command: 'npx', args: ['-y', 'workspace-tools-mcp@1.0.0', '--workspace', '.'] });
    assert.equal(commandLineOf(npx, 'posix'), 'npx -y workspace-tools-mcp@1.0.0 --workspace .');
    assert.equal(commandLineOf(npx, 'windows'), 'npx -y workspace-tools-mcp@1.0.0 --workspace .');
  });

  test('the POSIX line splits back into the exact words', () => {
    const line = commandLineOf(launchCommand({ kind: 'local', serverPath: '/ext dir/"q"/mcp-server.js' }, ['--workspace', "/ws/it's $HOME"]), 'posix');
    assert.deepEqual(shellWords(line), ['/ext dir/"q"/mcp-server.js', '--workspace', "/ws/it's $HOME"]);
  });
});

describe('launcherForScript', () => {
  test('a script in npm\'s npx cache was started by npx; any other is run by its path', () => {
    assert.deepEqual(launcherForScript('/home/me/.npm/_npx/1f2e/node_modules/workspace-tools-mcp/dist/mcp-server.js', '0.4.0'), { kind: 'npx', version: '0.4.0' });
    assert.deepEqual(launcherForScript('/src/wt/dist/mcp-server.js', '0.4.0'), { kind: 'local', serverPath: '/src/wt/dist/mcp-server.js' });
  });
});
