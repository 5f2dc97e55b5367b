/**
 * What users read and what the gallery shows agree with what is built: one version everywhere
 * the docs pin `npx -y workspace-tools-mcp@<version>`, every subcommand and every `init` flag in
 * the READMEs and `--help` with an example, and the manifest fields a gallery-ready extension has.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { commandUsage } from '../../../src/mcp/cli';
import { COMMANDS } from '../../../src/mcp/usage';

const ROOT = path.resolve(__dirname, '../../../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const manifest = JSON.parse(read('package.json')) as Record<string, unknown> & { version: string; engines: { node: string } };
const DOCS = ['README.md', 'CONTRIBUTING.md', 'packages/workspace-tools-mcp/README.md'];

describe('the docs and the manifest', () => {
  test('every pinned workspace-tools-mcp@<version> in the docs is package.json\'s version', () => {
    for (const file of DOCS) {
      const pinned = [...read(file).matchAll(/workspace-tools-mcp@([0-9][^\s"'`)\]]*)/g)].map((match) => match[1]);
      assert.ok(file === 'CONTRIBUTING.md' || pinned.length > 0, `${file} shows the npx form`);
      assert.deepEqual([...new Set(pinned)].filter((version) => version !== manifest.version), [], `${file} pins another version than ${manifest.version}`);
    }
  });

  test('the npm package\'s README shows every subcommand, the clients\' configs and claude mcp add', () => {
    const npmReadme = read('packages/workspace-tools-mcp/README.md');
    for (const command of COMMANDS) {
      assert.match(npmReadme, new RegExp(`^\\| \`${command}[ \`]`, 'm'), `the command table lists ${command}`);
    }
    for (const needle of ['claude mcp add workspace-tools -- npx -y', '.cursor/mcp.json', 'claude_desktop_config.json', '.vscode/mcp.json', 'init --claude']) {
      assert.ok(npmReadme.includes(needle), needle);
    }
  });

  test('every init flag is in the README and in init --help, each with an example to paste', () => {
    const readme = read('README.md');
    const help = commandUsage('init');
    for (const flag of ['--claude', '--cursor', '--vscode', '--local']) {
      assert.match(help, new RegExp(`^  ${flag} `, 'm'), `init --help explains ${flag}`);
      assert.match(help, new RegExp(`^  (npx -y workspace-tools-mcp|node dist/mcp-server\\.js) init .*${flag}`, 'm'), `init --help has an example with ${flag}`);
      assert.match(readme, new RegExp(`init [^\\n]*${flag}`), `the README shows ${flag}`);
    }
  });

  test('gallery-ready: repository, bugs, homepage on one URL; keywords; banner; a workspace extension; Node 22.14+', () => {
    const repository = (manifest['repository'] as { url: string }).url.replace(/\.git$/, '');
    assert.match(repository, /^https:\/\/github\.com\/[^/]+\/[^/]+$/);
    assert.equal((manifest['bugs'] as { url: string }).url, `${repository}/issues`);
    assert.equal(manifest['homepage'], `${repository}#readme`);
    assert.ok(Array.isArray(manifest['keywords']) && manifest['keywords'].length > 0 && manifest['keywords'].length <= 30);
    assert.match((manifest['galleryBanner'] as { color: string }).color, /^#[0-9a-f]{6}$/i);
    assert.deepEqual(manifest['extensionKind'], ['workspace']);
    assert.equal(manifest.engines.node, '>=22.14.0');
    assert.equal((manifest['dependencies'] as Record<string, string>)['amaro'], undefined);
  });
});
