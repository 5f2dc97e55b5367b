import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { platformNamed } from '../../../src/core/platform/platform';
import { batchFileArgv, quoteCmdArgument, resolveProgram, spawnableProgram } from '../../../src/core/platform/program-lookup';
import { spawnFormFor } from '../../../src/core/handlers/shell/windows-spawn';

const win32 = platformNamed('win32');

/** A Windows file system holding these files (names compared case-insensitively, as NTFS does). */
function files(...names: string[]): (file: string) => boolean {
  const set = new Set(names.map((name) => path.win32.normalize(name).toLowerCase()));
  return (file) => set.has(path.win32.normalize(file).toLowerCase());
}

const env = { Path: 'C:\\Windows\\system32;"C:\\Program Files\\nodejs";C:\\Users\\ada\\AppData\\Roaming\\npm;relative\\dir', PATHEXT: '.COM;.EXE;.BAT;.CMD;.VBS;.JS' };
const disk = files('C:\\Windows\\system32\\cmd.exe', 'C:\\Program Files\\nodejs\\node.exe', 'C:\\Users\\ada\\AppData\\Roaming\\npm\\npm.cmd', 'C:\\Users\\ada\\AppData\\Roaming\\npm\\tool.js', 'C:\\repo\\git.exe', 'C:\\repo\\tools\\build.cmd', 'C:\\repo\\tools\\run.exe', 'C:\\repo\\relative\\dir\\sneaky.exe');
const lookup = { platform: win32, env, cwd: 'C:\\repo', isFile: disk };

describe('resolveProgram with Windows semantics', () => {
  test('PATH (case-insensitive name, quoted entries) with each PATHEXT extension', () => {
    assert.deepEqual(resolveProgram('node', lookup), { kind: 'executable', file: 'C:\\Program Files\\nodejs\\node.exe' });
    assert.deepEqual(resolveProgram('NODE.EXE', lookup), { kind: 'executable', file: 'C:\\Program Files\\nodejs\\NODE.EXE' });
    assert.deepEqual(resolveProgram('npm', lookup), { kind: 'batch', file: 'C:\\Users\\ada\\AppData\\Roaming\\npm\\npm.cmd' });
    assert.deepEqual(resolveProgram('tool', lookup), { kind: 'associated', file: 'C:\\Users\\ada\\AppData\\Roaming\\npm\\tool.js' });
  });

  test('the working directory is never searched, nor a relative PATH entry', () => {
    assert.equal(resolveProgram('git', lookup).kind, 'missing');
    const sneaky = resolveProgram('sneaky', lookup);
    assert.equal(sneaky.kind, 'missing');
    // Resolved, a relative entry would land in the test process's own folder, not C:\repo: only
    // the list of what was tried shows that it was not searched at all.
    assert.ok(sneaky.kind === 'missing' && sneaky.tried.length > 0 && !sneaky.tried.some((file) => /relative/i.test(file)), JSON.stringify(sneaky));
  });

  test('a path with a directory is resolved from the working directory, with PATHEXT', () => {
    assert.deepEqual(resolveProgram('.\\git', lookup), { kind: 'executable', file: 'C:\\repo\\git.exe' });
    assert.deepEqual(resolveProgram('tools/build', lookup), { kind: 'batch', file: 'C:\\repo\\tools\\build.cmd' });
    assert.deepEqual(resolveProgram('tools\\run.exe', lookup), { kind: 'executable', file: 'C:\\repo\\tools\\run.exe' });
    assert.deepEqual(resolveProgram('C:\\Windows\\system32\\cmd.exe', lookup), { kind: 'executable', file: 'C:\\Windows\\system32\\cmd.exe' });
  });

  test('without PATHEXT, cmd.exe\'s default (.COM;.EXE;.BAT;.CMD)', () => {
    const result = resolveProgram('missing', { ...lookup, env: { PATH: 'C:\\bin' } });
    assert.deepEqual(result, { kind: 'missing', tried: ['C:\\bin\\missing.com', 'C:\\bin\\missing.exe', 'C:\\bin\\missing.bat', 'C:\\bin\\missing.cmd'] });
  });

  test('on Linux and macOS the name is left to spawn (execvp searches PATH)', () => {
    for (const name of ['linux', 'darwin'] as const) {
      assert.deepEqual(resolveProgram('git', { ...lookup, platform: platformNamed(name) }), { kind: 'executable', file: 'git' });
    }
  });
});

describe('what every spawn is given (the built-in tools\' git too)', () => {
  test('Windows: a bare name becomes its file on PATH; one only in the working directory is not started', () => {
    assert.equal(spawnableProgram('node', env, 'C:\\repo', win32, disk), 'C:\\Program Files\\nodejs\\node.exe');
    assert.throws(() => spawnableProgram('git', env, 'C:\\repo', win32, disk), (error: NodeJS.ErrnoException) => error.code === 'ENOENT' && /working directory is not searched/.test(error.message));
    assert.throws(() => spawnableProgram('npm', env, 'C:\\repo', win32, disk), /ENOENT/, 'a batch file is not a program spawn can start');
    assert.equal(spawnableProgram('C:\\repo\\git.exe', env, 'C:\\repo', win32, disk), 'C:\\repo\\git.exe', 'an explicit path is the caller\'s choice');
  });

  test('elsewhere the name is left to the system\'s PATH search', () => {
    assert.equal(spawnableProgram('git', env, '/repo', platformNamed('linux'), disk), 'git');
    assert.equal(spawnableProgram('git', env, '/repo', platformNamed('darwin'), disk), 'git');
  });
});

describe('the shell handler\'s spawn form on Windows', () => {
  const form = (file: string, args: string[], valuesInArguments: boolean): ReturnType<typeof spawnFormFor> =>
    spawnFormFor({ ...lookup, file, args, verbatim: false, valuesInArguments });

  test('an .exe is spawned by its full path, arguments as they are', () => {
    assert.deepEqual(form('node', ['-e', 'x', 'a&b'], true), { file: 'C:\\Program Files\\nodejs\\node.exe', args: ['-e', 'x', 'a&b'], windowsVerbatimArguments: false });
  });

  test('a .cmd that would get an input value is refused, naming CVE-2024-27980 and what to write instead', () => {
    assert.throws(() => form('npm', ['install', 'left-pad & calc'], true), /npm\.cmd: Windows cannot pass input values to a \.cmd or \.bat file safely \(CVE-2024-27980.*"windows" override.*npm-cli\.js/);
  });

  test('a .cmd with the plugin file\'s own arguments runs through cmd.exe /d /s /c, every special character escaped', () => {
    const spawnForm = form('npm', ['run', 'a&b', 'two words', '^|<>()', 'trailing\\'], false);
    assert.equal(spawnForm.file, 'C:\\Windows\\system32\\cmd.exe');
    assert.equal(spawnForm.windowsVerbatimArguments, true);
    assert.deepEqual(spawnForm.args.slice(0, 3), ['/d', '/s', '/c']);
    assert.equal(spawnForm.args[3], '"C:\\Users\\ada\\AppData\\Roaming\\npm\\npm.cmd ^"run^" ^"a^&b^" ^"two^ words^" ^"^^^|^<^>^(^)^" ^"trailing\\\\^""');
  });

  test('a .cmd argument that cmd.exe cannot pass intact (%, a quote, a line break) is refused', () => {
    for (const arg of ['%PATH%', 'say "hi"', 'a\nb']) {
      assert.throws(() => form('npm', [arg], false), /cannot pass the argument .* intact/);
    }
  });

  test('a program PATHEXT finds but Windows opens by association, or none, is a clear error', () => {
    assert.throws(() => form('tool', [], false), /tool\.js, which Windows opens through a file association.*interpreter/);
    assert.throws(() => form('git', [], false), /"git": the program was not found on PATH.*working directory is not searched/);
  });

  test('elsewhere nothing changes', () => {
    assert.deepEqual(spawnFormFor({ ...lookup, platform: platformNamed('linux'), file: 'npm', args: ['x'], verbatim: false, valuesInArguments: true }), { file: 'npm', args: ['x'], windowsVerbatimArguments: false });
  });
});

describe('cmd.exe quoting', () => {
  test('quoted for CommandLineToArgvW, then every cmd.exe special character caret-escaped', () => {
    assert.equal(quoteCmdArgument('plain'), '^"plain^"');
    assert.equal(quoteCmdArgument('a b'), '^"a^ b^"');
    assert.equal(quoteCmdArgument('back\\"slash'), '^"back\\\\\\^"slash^"');
    assert.equal(quoteCmdArgument('end\\'), '^"end\\\\^"');
    assert.equal(quoteCmdArgument('%PATH%!x!'), '^"^%PATH^%^!x^!^"');
    assert.deepEqual(batchFileArgv('cmd.exe', 'C:\\a b\\x.cmd', ['1']), ['cmd.exe', '/d', '/s', '/c', '"C:\\a^ b\\x.cmd ^"1^""']);
  });
});
