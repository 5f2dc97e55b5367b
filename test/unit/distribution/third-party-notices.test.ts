/**
 * The notices that ship with the bundles name every package the bundles carry. The bundles' own
 * source maps (the development build the tests run) are the witness, independent of the metafile
 * that scripts/third-party-notices.mjs reads.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';

const DIST = path.resolve(__dirname, '../../../../dist');

/** `name` of each node_modules package a source map's sources come from. */
function bundledPackages(mapFile: string): Set<string> {
  const { sources } = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[] };
  const names = new Set<string>();
  for (const source of sources) {
    const parts = source.replace(/\\/g, '/').split('node_modules/');
    // The package that holds the file: the last node_modules folder on its path.
    const match = parts.length > 1 ? /^((?:@[^/]+\/)?[^/]+)\//.exec(parts[parts.length - 1] ?? '') : null;
    // Maps chain into a package's own sources (the SDK's core-internal); only installed packages count.
    if (match?.[1] !== undefined && existsSync(path.join(DIST, '..', 'node_modules', match[1], 'package.json'))) {
      names.add(match[1]);
    }
  }
  return names;
}

describe('THIRD-PARTY-NOTICES.txt', () => {
  const notices = readFileSync(path.join(DIST, 'THIRD-PARTY-NOTICES.txt'), 'utf8');

  test('names, with its license text, every package any bundle carries', () => {
    const maps = readdirSync(DIST).filter((file) => file.endsWith('.js.map') || file.endsWith('.mjs.map'));
    assert.ok(maps.length >= 4, `source maps of the development build in dist/: ${maps.join(', ')}`);
    const packages = new Set(maps.flatMap((map) => [...bundledPackages(path.join(DIST, map))]));
    for (const name of ['@modelcontextprotocol/server', 'ajv', 'zod', 're2js', 'jsonc-parser', 'fast-uri', '@anthropic-ai/sandbox-runtime', 'node-forge']) {
      assert.ok(packages.has(name), `${name} is bundled (the witness works)`);
    }
    for (const name of packages) {
      assert.match(notices, new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\d+\\.\\d+\\.\\d+\\S* \\(`, 'm'), `${name} is in the notices`);
    }
  });

  test('each section carries the license text the package ships, not only its name', () => {
    assert.match(notices, /^@modelcontextprotocol\/server [\d.]+ \(Apache-2\.0\)\n-{72}\n\n[^]*?Apache License\s+Version 2\.0/m);
    assert.match(notices, /^fast-uri [\d.]+ \(BSD-3-Clause\)\n-{72}\n\n[^]*?Redistribution and use in source and binary forms/m);
    assert.match(notices, /^zod [\d.]+ \(MIT\)\n-{72}\n\n[^]*?Permission is hereby granted, free of charge/m);
    // The sandbox runtime's programs, copied beside the bundles, are said to be its (issue 34).
    assert.match(notices, /^Programs in dist\/vendor\/ \(copied from @anthropic-ai\/sandbox-runtime/m);
  });
});

describe('the packages carry the notices', () => {
  test('the .vsix lists dist/THIRD-PARTY-NOTICES.txt (vsce ls, as `npm run package` packs it)', () => {
    const root = path.join(DIST, '..');
    const listed = execFileSync(process.execPath, [path.join(root, 'node_modules/@vscode/vsce/vsce'), 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    assert.match(listed, /^dist\/THIRD-PARTY-NOTICES\.txt$/m);
    // The OS sandbox's broker and the runtime's programs it runs (issue 34).
    for (const file of ['dist/sandbox-broker.mjs', 'dist/vendor/seccomp/x64/apply-seccomp', 'dist/vendor/seccomp/arm64/apply-seccomp', 'dist/vendor/java-proxy-agent/srt-proxy-agent.jar']) {
      assert.match(listed, new RegExp(`^${file.replaceAll('/', '\\/').replaceAll('.', '\\.')}$`, 'm'), file);
    }
  });
});
