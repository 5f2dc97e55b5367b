/**
 * What users read and what the gallery shows agree with what is built: one version everywhere
 * the docs pin `npx -y workspace-tools-mcp@<version>`, every subcommand and every `init` flag in
 * the READMEs and `--help` with an example, every subcommand, flag, setting and palette command on
 * its docs page, and the manifest fields a gallery-ready extension has.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { USAGE, commandUsage } from '../../../src/mcp/cli';
import { COMMANDS } from '../../../src/mcp/usage';
import { CLIENT_IDS } from '../../../src/core/client-config/clients';

const ROOT = path.resolve(__dirname, '../../../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const manifest = JSON.parse(read('package.json')) as Record<string, unknown> & { version: string; engines: { node: string } };
const DOCS_PAGES = readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
const DOCS = ['README.md', 'CONTRIBUTING.md', 'packages/workspace-tools-mcp/README.md', ...DOCS_PAGES];
/** The docs that must show the npx form: the two front pages and the pages that set clients up. */
const SHOWS_NPX = ['README.md', 'packages/workspace-tools-mcp/README.md', 'docs/cli.md', 'docs/clients.md'];

describe('the docs and the manifest', () => {
  test('every pinned workspace-tools-mcp@<version> in the docs is package.json\'s version', () => {
    for (const file of DOCS) {
      const pinned = [...read(file).matchAll(/workspace-tools-mcp@([0-9][^\s"'`)\]]*)/g)].map((match) => match[1]);
      assert.ok(!SHOWS_NPX.includes(file) || pinned.length > 0, `${file} shows the npx form`);
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

  test('every init flag is in the command-line page and in init --help, each with an example to paste; the README shows each client\'s', () => {
    const readme = read('README.md');
    const cli = read('docs/cli.md');
    const help = commandUsage('init');
    for (const flag of ['--claude', '--vscode', '--copilot', '--cursor', '--codex', '--gemini', '--zed', '--all', '--user', '--list', '--local']) {
      assert.match(help, new RegExp(`^  ${flag} `, 'm'), `init --help explains ${flag}`);
      assert.match(help, new RegExp(`^  (npx -y workspace-tools-mcp|node dist/mcp-server\\.js) init .*${flag}`, 'm'), `init --help has an example with ${flag}`);
      assert.match(cli, new RegExp(`init [^\\n]*${flag}`), `docs/cli.md shows ${flag}`);
    }
    for (const flag of CLIENT_IDS.map((id) => `--${id}`)) {
      assert.match(readme, new RegExp(`npx -y workspace-tools-mcp@[^\\s]+ init ${flag}`), `the README shows init ${flag}`);
    }
  });

  test("the Agents window setting names this extension's id, in the README and the VS Code page", () => {
    const id = `${String(manifest['publisher'])}.${String(manifest['name'])}`;
    for (const file of ['README.md', 'docs/vscode.md']) {
      assert.match(read(file), new RegExp(`"extensions\\.supportAgentsWindow": \\{\\s*"${id.replace('.', '\\.')}": true\\s*\\}`), file);
    }
  });

  test('the command-line page has a row for every subcommand and names every flag --help names', () => {
    const cli = read('docs/cli.md');
    for (const command of COMMANDS) {
      assert.match(cli, new RegExp(`^\\| \`${command}[ \`]`, 'm'), `docs/cli.md's command table lists ${command}`);
    }
    const flags = new Set([USAGE, ...COMMANDS.map((command) => commandUsage(command))].flatMap((text) => [...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((match) => match[0])));
    assert.ok(flags.size > 20, [...flags].join(' '));
    assert.deepEqual([...flags].filter((flag) => !new RegExp(`${flag}(?![a-z-])`).test(cli)), [], 'flags of --help missing from docs/cli.md');
  });

  test('the settings page lists every setting and the VS Code page every palette command', () => {
    const contributes = manifest['contributes'] as {
      configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[];
      commands: { command: string; title: string }[];
      menus: { commandPalette?: { command: string; when?: string }[] };
    };
    const settings = read('docs/settings.md');
    for (const key of [contributes.configuration].flat().flatMap((section) => Object.keys(section.properties))) {
      assert.match(settings, new RegExp(`^\\| \`${key.replace(/\./g, '\\.')}\` \\|`, 'm'), `docs/settings.md has a row for ${key}`);
    }
    const vscodePage = read('docs/vscode.md');
    const hidden = new Set((contributes.menus.commandPalette ?? []).filter((entry) => entry.when === 'false').map((entry) => entry.command));
    const inPalette = contributes.commands.filter((command) => !hidden.has(command.command));
    assert.ok(inPalette.length > 5);
    for (const command of inPalette) {
      assert.ok(vscodePage.includes(`\n| ${command.title} |`), `docs/vscode.md's command table lists ${command.title}`);
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
