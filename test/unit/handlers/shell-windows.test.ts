/**
 * What the shell handler decides for Windows that can be checked on any platform: the override it
 * runs, and %INPUT_X% in a script cmd.exe runs (a load error wherever the file is written).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { effectiveProgram } from '../../../src/core/handlers/shell/platform';
import { platformNamed } from '../../../src/core/platform/platform';
import { FOLDER } from '../plugins/fixtures';

function load(handler: Record<string, unknown>): ReturnType<typeof loadPluginFile> {
  const tool = { name: 't', description: 'd', inputSchema: { type: 'object', properties: { value: { type: 'string' } } }, handler: { type: 'shell', ...handler } };
  return loadPluginFile('/ws/.vscode/tools/t.json', JSON.stringify({ tools: [tool] }, null, 2), FOLDER);
}

describe('the shell handler for Windows', () => {
  test('each platform runs its override, or the base program', () => {
    const programs = { handler: { command: ['make'] }, windows: { script: 'nmake' }, osx: { command: ['gmake'] } };
    assert.deepEqual(effectiveProgram(programs, platformNamed('win32')), { script: 'nmake' });
    assert.deepEqual(effectiveProgram(programs, platformNamed('darwin')), { command: ['gmake'] });
    assert.deepEqual(effectiveProgram(programs, platformNamed('linux')), { command: ['make'] });
    assert.deepEqual(effectiveProgram(programs, platformNamed('posix')), { command: ['make'] });
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['a script cmd.exe runs on Windows (no shell, no windows override)', { script: 'echo %INPUT_VALUE%' }, 'handler.script'],
    ['a windows override script', { command: ['echo', 'x'], windows: { script: 'echo %input_value:~0,3%' } }, 'handler.windows.script'],
    ['any script when shell is cmd', { script: 'echo %INPUT_VALUE%', shell: 'C:\\Windows\\System32\\CMD.EXE', windows: { script: 'echo !INPUT_VALUE!' } }, 'handler.script'],
  ];
  for (const [name, handler, where] of refused) {
    test(`%INPUT_X% in ${name} is a load error that says to write !INPUT_X!`, () => {
      const loaded = load(handler);
      assert.deepEqual(loaded.tools, []);
      assert.match(loaded.diagnostics[0]?.message ?? '', /cmd\.exe expands "%INPUT_VALUE(:~0,3)?%" before it parses the line.*"!INPUT_VALUE!"/i);
      assert.ok(where.length > 0);
    });
  }

  test('%INPUT_X% where cmd.exe does not run it, and !INPUT_X! where it does, load', () => {
    for (const handler of [{ script: 'echo "$INPUT_VALUE" %INPUT_VALUE%', shell: 'bash' }, { script: 'echo "$INPUT_VALUE"', windows: { script: 'echo !INPUT_VALUE!' } }, { script: 'echo 100%', windows: { command: ['cmd', '/c', 'ver'] } }]) {
      const loaded = load(handler);
      assert.deepEqual(loaded.diagnostics, [], JSON.stringify(handler));
      assert.equal(loaded.tools.length, 1);
    }
  });
});
