import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { quoteArg, serverCommandLine, shellFlavorFor } from '../../../src/core/client-config/command-line';

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

describe('serverCommandLine', () => {
  test('node, the quoted server path, one --workspace per folder', () => {
    assert.equal(
      serverCommandLine('/ext/dist/mcp-server.js', ['/ws/my app', '/ws/lib'], 'posix'),
      'node "/ext/dist/mcp-server.js" --workspace "/ws/my app" --workspace "/ws/lib"',
    );
  });

  test('no folder: the server uses the directory it starts in', () => {
    assert.equal(serverCommandLine('/ext/mcp.js', [], 'posix'), 'node "/ext/mcp.js"');
  });

  test('the POSIX line splits back into the exact words', () => {
    const line = serverCommandLine('/ext dir/"q"/mcp-server.js', ["/ws/it's $HOME"], 'posix');
    assert.deepEqual(shellWords(line), ['/ext dir/"q"/mcp-server.js', '--workspace', "/ws/it's $HOME"]);
  });
});
