/**
 * resolveContained with Windows' rules, on Linux: path.win32 and a file system given as a table of
 * real paths (what GetFinalPathNameByHandle answers on Windows: long names, canonical case,
 * junctions followed). The real Windows file system is covered by npm run test:windows.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ContainmentDeps } from '../../../src/core/paths/containment';
import { resolveContained } from '../../../src/core/paths/containment';
import { platformNamed } from '../../../src/core/platform/platform';

/** A Windows file system: lower-cased lexical path → real path. */
function windowsFiles(entries: Record<string, string>): ContainmentDeps {
  const table = new Map(Object.entries(entries).map(([lexical, real]) => [lexical.toLowerCase(), real]));
  return {
    platform: platformNamed('win32'),
    realpath: async (file) => {
      const real = table.get(path.win32.normalize(file).toLowerCase());
      if (real === undefined) {
        throw Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
      }
      return real;
    },
  };
}

const fs = windowsFiles({
  'C:\\Work\\Repo': 'C:\\Work\\Repo',
  'C:\\Work\\Repo\\a.txt': 'C:\\Work\\Repo\\a.txt',
  'C:\\Work\\Repo\\sub\\deep.txt': 'C:\\Work\\Repo\\sub\\deep.txt',
  // 8.3 short names resolve to long ones.
  'C:\\Work\\Repo\\LONGDI~1\\note.txt': 'C:\\Work\\Repo\\LongDirectoryName\\note.txt',
  'C:\\PROGRA~1\\secret.txt': 'C:\\Program Files\\secret.txt',
  'C:\\Work\\Repo-evil\\secret.txt': 'C:\\Work\\Repo-evil\\secret.txt',
  'C:\\windows\\win.ini': 'C:\\windows\\win.ini',
  // A junction inside the folder that points out of it.
  'C:\\Work\\Repo\\junction\\win.ini': 'C:\\windows\\win.ini',
  // The folder reached by its short name.
  'C:\\WORK~1\\Repo': 'C:\\Work\\Repo',
  'C:\\WORK~1\\Repo\\a.txt': 'C:\\Work\\Repo\\a.txt',
});

describe('resolveContained with Windows rules', () => {
  const allowed: [string, string][] = [
    ['a.txt', 'C:\\Work\\Repo\\a.txt'],
    ['sub\\deep.txt', 'C:\\Work\\Repo\\sub\\deep.txt'],
    ['sub/deep.txt', 'C:\\Work\\Repo\\sub\\deep.txt'],
    ['SUB\\DEEP.TXT', 'C:\\Work\\Repo\\sub\\deep.txt'],
    ['c:\\work\\repo\\a.txt', 'C:\\Work\\Repo\\a.txt'],
    ['C:/Work/Repo/a.txt', 'C:\\Work\\Repo\\a.txt'],
    ['sub\\..\\a.txt', 'C:\\Work\\Repo\\a.txt'],
    ['LONGDI~1\\note.txt', 'C:\\Work\\Repo\\LongDirectoryName\\note.txt'],
  ];
  for (const [requested, real] of allowed) {
    test(`serves ${requested}`, async () => {
      assert.equal(await resolveContained('C:\\Work\\Repo', requested, fs), real);
    });
  }

  test('a base given by its short name contains what its long name contains', async () => {
    assert.equal(await resolveContained('C:\\WORK~1\\Repo', 'a.txt', fs), 'C:\\Work\\Repo\\a.txt');
    assert.equal(await resolveContained('c:\\work~1\\repo', 'C:\\Work\\Repo\\a.txt', fs), 'C:\\Work\\Repo\\a.txt');
  });

  const refused: [string, RegExp][] = [
    ['C:\\windows\\win.ini', /outside the allowed directory/],
    ['c:/windows/win.ini', /outside the allowed directory/],
    ['..\\..\\windows\\win.ini', /outside the allowed directory/],
    ['FOO/../../windows/win.ini', /outside the allowed directory/],
    ['Sub\\..\\..\\Repo-evil\\secret.txt', /outside the allowed directory/],
    ['C:\\Work\\Repo-evil\\secret.txt', /outside the allowed directory/],
    ['C:\\PROGRA~1\\secret.txt', /outside the allowed directory/],
    ['D:\\Work\\Repo\\a.txt', /outside the allowed directory/],
    ['Z:\\etc\\passwd', /outside the allowed directory/],
    ['\\windows\\win.ini', /outside the allowed directory/],
    ['junction\\win.ini', /symbolic link.*outside/],
    ['\\\\?\\C:\\Work\\Repo\\a.txt', /namespace prefix/],
    ['\\\\.\\C:\\windows\\win.ini', /namespace prefix/],
    ['\\\\localhost\\C$\\windows\\win.ini', /network share/],
    ['C:windows\\win.ini', /drive's current directory/],
    ['a.txt:secret', /alternate data stream/],
    ['a.txt::$DATA', /alternate data stream/],
    ['CON', /device CON/],
    ['nul', /device NUL/],
    ['COM1', /device COM1/],
    ['con.txt', /device CON/],
    ['a.txt.', /dot or a space/],
    ['a.txt ', /dot or a space/],
  ];
  for (const [requested, reason] of refused) {
    test(`refuses ${requested}`, async () => {
      await assert.rejects(resolveContained('C:\\Work\\Repo', requested, fs), reason);
    });
  }
});

describe('resolveContained with macOS rules', () => {
  test('a name that differs only in case is compared by its real path, and a case-sensitive sibling stays outside', async () => {
    const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'wt-darwin-')));
    try {
      await mkdir(path.join(root, 'Repo'));
      await mkdir(path.join(root, 'repo'));
      await writeFile(path.join(root, 'Repo', 'a.txt'), 'in');
      await writeFile(path.join(root, 'repo', 'secret.txt'), 'out');
      const darwin: ContainmentDeps = { platform: platformNamed('darwin'), realpath };
      assert.equal(await resolveContained(path.join(root, 'Repo'), 'a.txt', darwin), path.join(root, 'Repo', 'a.txt'));
      // On a case-sensitive volume (possible on macOS, and this Linux file system), repo is another directory.
      await assert.rejects(resolveContained(path.join(root, 'Repo'), path.join(root, 'repo', 'secret.txt'), darwin), /outside the allowed directory/);
      await assert.rejects(resolveContained(path.join(root, 'Repo'), 'FOO/../../repo/secret.txt', darwin), /outside the allowed directory/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
