import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { isInside, samePathName, specialPathProblem } from '../../../src/core/platform/path-rules';
import { platformNamed } from '../../../src/core/platform/platform';

const linux = platformNamed('linux');
const darwin = platformNamed('darwin');
const win32 = platformNamed('win32');

describe('isInside', () => {
  test('POSIX: by path segments, not string prefixes, and case-sensitive', () => {
    assert.equal(isInside('/base', '/base', linux), true);
    assert.equal(isInside('/base', '/base/a/b', linux), true);
    assert.equal(isInside('/base', '/base/..foo', linux), true);
    assert.equal(isInside('/base', '/base-evil', linux), false);
    assert.equal(isInside('/base', '/base-evil/secret', linux), false);
    assert.equal(isInside('/base', '/', linux), false);
    assert.equal(isInside('/base/a', '/base', linux), false);
    // Two directories on a case-sensitive file system: one is not inside the other.
    assert.equal(isInside('/ws/Repo', '/ws/repo/secret', linux), false);
  });

  test('Windows: drive letters in any case, / and \\, sibling prefixes, other drives and shares', () => {
    assert.equal(isInside('C:\\ws', 'c:\\WS\\a.txt', win32), true);
    assert.equal(isInside('C:\\ws', 'C:/ws/sub/a.txt', win32), true);
    assert.equal(isInside('c:\\ws', 'C:\\ws', win32), true);
    assert.equal(isInside('C:\\ws', 'C:\\ws-evil\\a.txt', win32), false);
    assert.equal(isInside('C:\\ws', 'C:\\windows\\win.ini', win32), false);
    assert.equal(isInside('C:\\ws', 'D:\\ws\\a.txt', win32), false);
    assert.equal(isInside('C:\\ws', '\\\\server\\share\\ws\\a.txt', win32), false);
    assert.equal(isInside('\\\\server\\share\\ws', '\\\\SERVER\\share\\ws\\a.txt', win32), true);
  });
});

describe('specialPathProblem on Windows', () => {
  const refused: [string, RegExp][] = [
    ['\\\\?\\C:\\windows\\win.ini', /namespace prefix/],
    ['\\\\.\\C:\\windows\\win.ini', /namespace prefix/],
    ['//?/C:/windows/win.ini', /namespace prefix/],
    ['//./PhysicalDrive0', /namespace prefix/],
    ['\\??\\C:\\windows\\win.ini', /namespace prefix/],
    ['\\\\localhost\\C$\\windows\\win.ini', /network share/],
    ['//server/share/a.txt', /network share/],
    ['C:windows\\win.ini', /relative to a drive's current directory/],
    ['a.txt:secret', /alternate data stream/],
    ['a.txt::$DATA', /alternate data stream/],
    ['sub\\a.txt:Zone.Identifier:$DATA', /alternate data stream/],
    ['C:\\ws\\a.txt:secret', /alternate data stream/],
    ['CON', /device CON/],
    ['nul', /device NUL/],
    ['COM1', /device COM1/],
    ['lpt9', /device LPT9/],
    ['COM\u00b9', /device COM/],
    ['con.txt', /device CON/],
    ['sub\\aux.tar.gz', /device AUX/],
    ['NUL .txt', /device NUL/],
    ['CONIN$', /device CONIN\$/],
    ['a.txt.', /ending in a dot or a space/],
    ['a.txt ', /ending in a dot or a space/],
    ['sub.\\a.txt', /ending in a dot or a space/],
    ['.. \\secret.txt', /ending in a dot or a space/],
    ['...\\secret.txt', /ending in a dot or a space/],
  ];
  for (const [requested, reason] of refused) {
    test(`refuses ${JSON.stringify(requested)}`, () => {
      const problem = specialPathProblem(requested, win32);
      assert.match(problem ?? '(accepted)', reason);
      assert.ok(problem?.includes(requested), 'the message names the path asked for');
    });
  }

  test('accepts plain names, including ones that only look special', () => {
    for (const requested of ['a.txt', 'sub\\deep.txt', 'sub/deep.txt', 'C:\\ws\\a.txt', 'c:/ws/a.txt', '..\\x', 'console.log', 'com10', 'CONFIG', 'nul-device.md', 'PROGRA~1\\x', '.vscode\\tools\\a.json', '.\\a']) {
      assert.equal(specialPathProblem(requested, win32), undefined, requested);
    }
  });

  test('on Linux and macOS these are ordinary names', () => {
    for (const platform of [linux, darwin]) {
      for (const requested of ['CON', 'con.txt', 'a.txt:secret', 'a.txt.', 'a.txt ', '\\\\?\\C:\\x']) {
        assert.equal(specialPathProblem(requested, platform), undefined, `${platform.name}: ${requested}`);
      }
    }
  });
});

describe('samePathName', () => {
  test('ignores case where the usual file systems do (Windows, macOS), not on Linux', () => {
    assert.equal(samePathName('C:\\ws\\.vscode\\tools\\a.json', 'c:\\WS\\.vscode\\tools\\A.json', win32), true);
    assert.equal(samePathName('C:/ws/a.json', 'C:\\ws\\a.json', win32), true);
    assert.equal(samePathName('/Users/ada/a.json', '/users/ada/A.json', darwin), true);
    assert.equal(samePathName('/home/ada/a.json', '/home/ada/A.json', linux), false);
    assert.equal(samePathName('/home/ada/./a.json', '/home/ada/a.json', linux), true);
  });
});
