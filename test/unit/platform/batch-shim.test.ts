import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { shimTarget } from '../../../src/core/platform/batch-shim';
import { platformNamed } from '../../../src/core/platform/platform';
import { managerProgram } from '../../../src/core/imports/manager-program';
import { WindowsDisk } from '../helpers/windows-disk';
import { BINS, cmdShimDirect, cmdShimNode, corepackShim, NODE_INSTALLER_NPM_CMD, NODE_SHEBANG, YARN_OWN_CMD } from '../helpers/windows-shims';

const win32 = platformNamed('win32');
const NODEJS = 'C:\\Program Files\\nodejs';
const ROAMING = 'C:\\Users\\ada\\AppData\\Roaming\\npm';
const MZ = 'MZ\u0090\u0000';

let disk: WindowsDisk;
beforeEach(() => {
  disk = new WindowsDisk();
});
afterEach(() => {
  disk.dispose();
});

const manifest = (name: string, bin: unknown): string => JSON.stringify({ name, version: '1.0.0', bin });
const deps = (path = `C:\\Windows\\system32;"${NODEJS}";${ROAMING}`) => ({ platform: win32, env: { Path: path, PATHEXT: '.COM;.EXE;.BAT;.CMD;.JS' }, cwd: 'C:\\repo', isFile: disk.isFile, readText: disk.readText });

/** Node's installer: node.exe, npm.cmd and node_modules\npm in one folder. */
function nodeInstaller(): void {
  disk
    .write(`${NODEJS}\\node.exe`, MZ)
    .write(`${NODEJS}\\npm.cmd`, NODE_INSTALLER_NPM_CMD)
    .write(`${NODEJS}\\node_modules\\npm\\package.json`, manifest('npm', BINS.npm))
    .write(`${NODEJS}\\node_modules\\npm\\bin\\npm-cli.js`, `${NODE_SHEBANG}require('../lib/cli.js')(process)\n`)
    .write(`${NODEJS}\\node_modules\\npm\\bin\\npm-prefix.js`, NODE_SHEBANG);
}

describe('what a package manager\'s batch shim runs (Windows layouts on disk)', () => {
  test('Node\'s installer: npm.cmd runs npm-cli.js, the bin npm declares, with the node.exe beside it (not npm-prefix.js, which it also names)', () => {
    nodeInstaller();
    assert.deepEqual(shimTarget(`${NODEJS}\\npm.cmd`, deps()), { kind: 'node', node: `${NODEJS}\\node.exe`, entry: `${NODEJS}\\node_modules\\npm\\bin\\npm-cli.js` });
    assert.deepEqual(managerProgram('npm', deps()), { argv: [`${NODEJS}\\node.exe`, `${NODEJS}\\node_modules\\npm\\bin\\npm-cli.js`], shim: `${NODEJS}\\npm.cmd` });
  });

  test('a global install by npm (cmd-shim in %APPDATA%\\npm): the entry package.json declares, node from PATH', () => {
    nodeInstaller();
    disk
      .write(`${ROAMING}\\pnpm.cmd`, cmdShimNode('node_modules\\pnpm\\bin\\pnpm.cjs'))
      .write(`${ROAMING}\\node_modules\\pnpm\\package.json`, manifest('pnpm', { pnpm: 'bin/pnpm.cjs', pnpx: 'bin/pnpx.cjs' }))
      .write(`${ROAMING}\\node_modules\\pnpm\\bin\\pnpm.cjs`, `${NODE_SHEBANG}require('../dist/pnpm.cjs')\n`);
    assert.deepEqual(managerProgram('pnpm', deps()), { argv: [`${NODEJS}\\node.exe`, `${ROAMING}\\node_modules\\pnpm\\bin\\pnpm.cjs`], shim: `${ROAMING}\\pnpm.cmd` });
  });

  test('Corepack\'s shims beside node.exe run its dist\\pnpm.js and dist\\yarn.js, even where a pnpm package is installed too', () => {
    nodeInstaller();
    disk.write(`${NODEJS}\\node_modules\\corepack\\package.json`, manifest('corepack', BINS.corepack));
    for (const command of ['pnpm', 'yarn']) {
      disk.write(`${NODEJS}\\${command}.cmd`, corepackShim(command)).write(`${NODEJS}\\node_modules\\corepack\\dist\\${command}.js`, `${NODE_SHEBANG}require('./lib/corepack.cjs')\n`);
    }
    // A pnpm package the shim does not name is not what runs.
    disk.write(`${NODEJS}\\node_modules\\pnpm\\package.json`, manifest('pnpm', { pnpm: 'bin/pnpm.cjs' })).write(`${NODEJS}\\node_modules\\pnpm\\bin\\pnpm.cjs`, NODE_SHEBANG);
    assert.deepEqual(managerProgram('pnpm', deps()), { argv: [`${NODEJS}\\node.exe`, `${NODEJS}\\node_modules\\corepack\\dist\\pnpm.js`], shim: `${NODEJS}\\pnpm.cmd` });
    assert.deepEqual(managerProgram('yarn', deps()), { argv: [`${NODEJS}\\node.exe`, `${NODEJS}\\node_modules\\corepack\\dist\\yarn.js`], shim: `${NODEJS}\\yarn.cmd` });
  });

  test('yarn\'s own bin\\yarn.cmd (its package.json one folder up) runs bin\\yarn.js', () => {
    nodeInstaller();
    const yarn = 'C:\\Program Files (x86)\\Yarn';
    disk.write(`${yarn}\\package.json`, manifest('yarn', BINS.yarn)).write(`${yarn}\\bin\\yarn.cmd`, YARN_OWN_CMD).write(`${yarn}\\bin\\yarn.js`, `${NODE_SHEBANG}'use strict';\n`);
    assert.deepEqual(managerProgram('yarn', deps(`"${NODEJS}";${yarn}\\bin`)), { argv: [`${NODEJS}\\node.exe`, `${yarn}\\bin\\yarn.js`], shim: `${yarn}\\bin\\yarn.cmd` });
  });

  test('a bin that is a program (bun\'s bin\\bun.exe, pnpm 12\'s pnpm.exe) runs itself, no node needed', () => {
    disk
      .write(`${ROAMING}\\bun.cmd`, cmdShimDirect('node_modules\\bun\\bin\\bun.exe'))
      .write(`${ROAMING}\\node_modules\\bun\\package.json`, manifest('bun', { bun: 'bin/bun.exe', bunx: 'bin/bunx.exe' }))
      .write(`${ROAMING}\\node_modules\\bun\\bin\\bun.exe`, MZ);
    assert.deepEqual(managerProgram('bun', deps()), { argv: [`${ROAMING}\\node_modules\\bun\\bin\\bun.exe`], shim: `${ROAMING}\\bun.cmd` });
  });

  test('names compare as Windows compares them: NPM.CMD on disk, a "NPM" bin key', () => {
    disk
      .write(`${NODEJS}\\node.exe`, MZ)
      .write(`${NODEJS}\\NPM.CMD`, NODE_INSTALLER_NPM_CMD)
      .write(`${NODEJS}\\node_modules\\npm\\package.json`, manifest('npm', { NPM: 'bin/npm-cli.js' }))
      .write(`${NODEJS}\\node_modules\\npm\\bin\\npm-cli.js`, NODE_SHEBANG);
    const program = managerProgram('npm', deps());
    assert.ok('argv' in program && program.argv[1]?.toLowerCase() === `${NODEJS}\\node_modules\\npm\\bin\\npm-cli.js`.toLowerCase(), JSON.stringify(program));
  });

  test('an .exe manager, or one not on PATH, is left to its name (spawn finds or refuses it when the tool runs)', () => {
    disk.write(`${NODEJS}\\pnpm.exe`, MZ);
    assert.deepEqual(managerProgram('pnpm', deps()), { argv: ['pnpm'] });
    assert.deepEqual(managerProgram('yarn', deps()), { argv: ['yarn'] });
    assert.deepEqual(managerProgram('npm', { ...deps(), platform: platformNamed('linux') }), { argv: ['npm'] });
  });
});

describe('a shim whose program is not found is refused, saying what was looked at', () => {
  test('npm.cmd without node_modules\\npm: each file it names, and why it is not the entry', () => {
    disk.write(`${NODEJS}\\node.exe`, MZ).write(`${NODEJS}\\npm.cmd`, NODE_INSTALLER_NPM_CMD);
    const program = managerProgram('npm', deps());
    assert.ok('refusal' in program, JSON.stringify(program));
    assert.match(program.refusal, /^npm is the batch file C:\\Program Files\\nodejs\\npm\.cmd, which cannot take the script's arguments safely \(CVE-2024-27980\)/);
    assert.ok(program.refusal.includes(`${NODEJS}\\node_modules\\npm\\bin\\npm-cli.js (not a file)`), program.refusal);
    assert.ok(program.refusal.includes(`${NODEJS}\\node_modules\\npm\\bin\\npm-prefix.js (not a file)`), program.refusal);
  });

  test('a file the package does not declare for the command is not run', () => {
    disk
      .write(`${ROAMING}\\pnpm.cmd`, cmdShimNode('node_modules\\pnpm\\bin\\evil.js'))
      .write(`${ROAMING}\\node_modules\\pnpm\\package.json`, manifest('pnpm', { pnpm: 'bin/pnpm.cjs' }))
      .write(`${ROAMING}\\node_modules\\pnpm\\bin\\evil.js`, NODE_SHEBANG);
    const target = shimTarget(`${ROAMING}\\pnpm.cmd`, deps());
    assert.equal(target.kind, 'unknown');
    assert.ok(target.kind === 'unknown' && target.reason.includes(`${ROAMING}\\node_modules\\pnpm\\bin\\evil.js (${ROAMING}\\node_modules\\pnpm\\package.json declares "pnpm" as bin/pnpm.cjs, not this file)`), JSON.stringify(target));
  });

  test('a hand-written batch file that names no file of a package', () => {
    disk.write(`${ROAMING}\\yarn.cmd`, '@echo off\r\ncall C:\\tools\\yarn-wrapper.bat %*\r\n');
    const program = managerProgram('yarn', deps());
    assert.ok('refusal' in program && program.refusal.endsWith('it names no file relative to itself (%~dp0) or by an absolute path'), JSON.stringify(program));
  });

  test('a declared bin that is neither JavaScript nor a program (pnpm 12\'s placeholder, install scripts blocked)', () => {
    disk
      .write(`${ROAMING}\\pnpm.cmd`, cmdShimDirect('node_modules\\pnpm\\pnpm'))
      .write(`${ROAMING}\\node_modules\\pnpm\\package.json`, manifest('pnpm', { pnpm: 'pnpm' }))
      .write(`${ROAMING}\\node_modules\\pnpm\\pnpm`, '# pnpm\'s native binary replaces this file during installation\nexec node "$0/../bin/pnpm.mjs" "$@"\n');
    const program = managerProgram('pnpm', deps());
    assert.ok('refusal' in program && program.refusal.includes('is neither a program (.exe) nor JavaScript run by node'), JSON.stringify(program));
  });

  test('JavaScript with no node.exe beside the shim nor on PATH', () => {
    disk
      .write(`${ROAMING}\\pnpm.cmd`, cmdShimNode('node_modules\\pnpm\\bin\\pnpm.cjs'))
      .write(`${ROAMING}\\node_modules\\pnpm\\package.json`, manifest('pnpm', { pnpm: 'bin/pnpm.cjs' }))
      .write(`${ROAMING}\\node_modules\\pnpm\\bin\\pnpm.cjs`, NODE_SHEBANG)
      // A node.cmd on PATH is a batch file too: not a node to run values with.
      .write('C:\\shims\\node.cmd', '@echo off\r\n');
    const program = managerProgram('pnpm', deps(`C:\\shims;${ROAMING}`));
    assert.ok('refusal' in program && program.refusal.includes(`node.exe is neither beside ${ROAMING}\\pnpm.cmd (${ROAMING}\\node.exe) nor on PATH (on PATH it is C:\\shims\\node.cmd, not a program)`), JSON.stringify(program));
  });
});
