/**
 * Batch shims exactly as the real installers write them (CRLF kept), for the Windows layouts the
 * package-manager look-up must read: each names where it came from.
 */
const crlf = (lines: readonly string[]): string => `${lines.join('\r\n')}\r\n`;

/** npm 10.9.9's bin/npm.cmd, which Node's Windows installer copies beside node.exe. */
export const NODE_INSTALLER_NPM_CMD = crlf([
  ':: Created by npm, please don\'t edit manually.',
  '@ECHO OFF',
  '',
  'SETLOCAL',
  '',
  'SET "NODE_EXE=%~dp0\\node.exe"',
  'IF NOT EXIST "%NODE_EXE%" (',
  '  SET "NODE_EXE=node"',
  ')',
  '',
  'SET "NPM_PREFIX_JS=%~dp0\\node_modules\\npm\\bin\\npm-prefix.js"',
  'SET "NPM_CLI_JS=%~dp0\\node_modules\\npm\\bin\\npm-cli.js"',
  'FOR /F "delims=" %%F IN (\'CALL "%NODE_EXE%" "%NPM_PREFIX_JS%"\') DO (',
  '  SET "NPM_PREFIX_NPM_CLI_JS=%%F\\node_modules\\npm\\bin\\npm-cli.js"',
  ')',
  'IF EXIST "%NPM_PREFIX_NPM_CLI_JS%" (',
  '  SET "NPM_CLI_JS=%NPM_PREFIX_NPM_CLI_JS%"',
  ')',
  '',
  '"%NODE_EXE%" "%NPM_CLI_JS%" %*',
]);

/** What npm's cmd-shim (7.x, in npm 11) writes for `npm install -g` of a bin with a node shebang: `target` relative to the shim. */
export function cmdShimNode(target: string): string {
  return crlf([
    '@ECHO off',
    'GOTO start',
    ':find_dp0',
    'SET dp0=%~dp0',
    'EXIT /b',
    ':start',
    'SETLOCAL',
    'CALL :find_dp0',
    '',
    'IF EXIST "%dp0%\\node.exe" (',
    '  SET "_prog=%dp0%\\node.exe"',
    ') ELSE (',
    '  SET "_prog=node"',
    '  SET PATHEXT=%PATHEXT:;.JS;=;%',
    ')',
    '',
    `endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & "%_prog%"  "%dp0%\\${target}" %*`,
  ]);
}

/** npm's cmd-shim for a bin without a shebang (bun's bin/bun.exe): the target runs itself. */
export function cmdShimDirect(target: string): string {
  return crlf(['@ECHO off', 'GOTO start', ':find_dp0', 'SET dp0=%~dp0', 'EXIT /b', ':start', 'SETLOCAL', 'CALL :find_dp0', `"%dp0%\\${target}"   %*`]);
}

/** What `corepack enable` writes beside node.exe (@zkochan/cmd-shim 6, bundled in corepack 0.34). */
export function corepackShim(command: string): string {
  const target = `"%~dp0\\node_modules\\corepack\\dist\\${command}.js"`;
  return crlf(['@SETLOCAL', '@IF EXIST "%~dp0\\node.exe" (', `  "%~dp0\\node.exe"  ${target} %*`, ') ELSE (', '  @SET PATHEXT=%PATHEXT:;.JS;=;%', `  node  ${target} %*`, ')']);
}

/** yarn 1.22.22's own bin/yarn.cmd (what its Windows installer puts on PATH). */
export const YARN_OWN_CMD = '@echo off\nnode "%~dp0\\yarn.js" %*\n';

/** The package.json `bin` fields of the real packages (npm 10.9.9, corepack 0.34.7, yarn 1.22.22). */
export const BINS = {
  npm: { npm: 'bin/npm-cli.js', npx: 'bin/npx-cli.js' },
  corepack: { corepack: './dist/corepack.js', pnpm: './dist/pnpm.js', pnpx: './dist/pnpx.js', yarn: './dist/yarn.js', yarnpkg: './dist/yarnpkg.js' },
  yarn: { yarn: './bin/yarn.js', yarnpkg: './bin/yarn.js' },
} as const;

/** The first line of a JavaScript bin. */
export const NODE_SHEBANG = '#!/usr/bin/env node\n';
