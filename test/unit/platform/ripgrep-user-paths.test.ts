import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { platformNamed } from '../../../src/core/platform/platform';
import { bundledRipgrepCandidates, ripgrepOnPath } from '../../../src/core/platform/ripgrep';
import { userFilePath } from '../../../src/core/user-paths';

describe('ripgrep per platform', () => {
  test('VS Code\'s bundle: rg.exe under @vscode\\ripgrep on Windows, rg elsewhere, universal builds by platform-arch', () => {
    assert.deepEqual(bundledRipgrepCandidates('C:\\Program Files\\Microsoft VS Code\\resources\\app', platformNamed('win32'), 'x64'), [
      'C:\\Program Files\\Microsoft VS Code\\resources\\app\\node_modules.asar.unpacked\\@vscode\\ripgrep\\bin\\rg.exe',
      'C:\\Program Files\\Microsoft VS Code\\resources\\app\\node_modules\\@vscode\\ripgrep\\bin\\rg.exe',
      'C:\\Program Files\\Microsoft VS Code\\resources\\app\\node_modules\\@vscode\\ripgrep-universal\\bin\\win32-x64\\rg.exe',
    ]);
    assert.deepEqual(bundledRipgrepCandidates('/Applications/Visual Studio Code.app/Contents/Resources/app', platformNamed('darwin'), 'arm64'), [
      '/Applications/Visual Studio Code.app/Contents/Resources/app/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg',
      '/Applications/Visual Studio Code.app/Contents/Resources/app/node_modules/@vscode/ripgrep/bin/rg',
      '/Applications/Visual Studio Code.app/Contents/Resources/app/node_modules/@vscode/ripgrep-universal/bin/darwin-arm64/rg',
    ]);
  });

  test('on PATH: rg.exe through Path and PATHEXT on Windows; an executable rg elsewhere', () => {
    const onDisk = new Set(['c:\\tools\\rg.exe']);
    assert.equal(ripgrepOnPath({ Path: 'C:\\Windows;C:\\Tools' }, platformNamed('win32'), (file) => onDisk.has(file.toLowerCase())), 'C:\\Tools\\rg.exe');
    const dir = mkdtempSync(path.join(tmpdir(), 'wt-rg-'));
    try {
      writeFileSync(path.join(dir, 'rg'), '#!/bin/sh\n');
      assert.equal(ripgrepOnPath({ PATH: `/nonexistent:${dir}` }, platformNamed('linux')), undefined, 'not executable: not taken');
      chmodSync(path.join(dir, 'rg'), 0o755);
      assert.equal(ripgrepOnPath({ PATH: `/nonexistent:${dir}` }, platformNamed('darwin')), path.join(dir, 'rg'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('per-user paths per platform', () => {
  const win32 = platformNamed('win32');
  test('Windows: %APPDATA% for approvals, %LOCALAPPDATA% for history; a missing or relative one falls back under the profile', () => {
    const env = { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming', LOCALAPPDATA: 'D:\\Local' };
    assert.equal(userFilePath('config', 'approvals.json', env, win32, 'C:\\Users\\ada'), 'C:\\Users\\ada\\AppData\\Roaming\\workspace-tools\\approvals.json');
    assert.equal(userFilePath('state', 'history.jsonl', env, win32, 'C:\\Users\\ada'), 'D:\\Local\\workspace-tools\\history.jsonl');
    assert.equal(userFilePath('config', 'approvals.json', { APPDATA: 'relative' }, win32, 'C:\\Users\\ada'), 'C:\\Users\\ada\\AppData\\Roaming\\workspace-tools\\approvals.json');
    assert.equal(userFilePath('state', 'history.jsonl', {}, win32, 'C:\\Users\\ada'), 'C:\\Users\\ada\\AppData\\Local\\workspace-tools\\history.jsonl');
    // XDG variables mean nothing on Windows.
    assert.equal(userFilePath('config', 'approvals.json', { XDG_CONFIG_HOME: 'C:\\xdg' }, win32, 'C:\\Users\\ada'), 'C:\\Users\\ada\\AppData\\Roaming\\workspace-tools\\approvals.json');
  });

  test('macOS and Linux: XDG, defaults ~/.config and ~/.local/state', () => {
    for (const name of ['darwin', 'linux'] as const) {
      const platform = platformNamed(name);
      assert.equal(userFilePath('config', 'approvals.json', {}, platform, '/Users/ada'), '/Users/ada/.config/workspace-tools/approvals.json');
      assert.equal(userFilePath('state', 'history.jsonl', { XDG_STATE_HOME: '/s' }, platform, '/Users/ada'), '/s/workspace-tools/history.jsonl');
      assert.equal(userFilePath('config', 'approvals.json', { APPDATA: 'C:\\x' }, platform, '/Users/ada'), '/Users/ada/.config/workspace-tools/approvals.json');
    }
  });
});
