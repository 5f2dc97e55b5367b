import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { runCli } from '../helpers/cli';
import { makeTempDir } from '../helpers/git-repo';

const ROOT = path.resolve(__dirname, '../../../..');
const DEMO_FILE = path.join(ROOT, 'demo/workspace/.vscode/tools/team-tools.json');
const folder = { name: 'workspace', path: path.join(ROOT, 'demo/workspace') };

/** The plugin example between the README's markers. */
function readmeExample(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const match = /<!-- plugin-example:start -->\s*```jsonc\n([\s\S]*?)```\s*<!-- plugin-example:end -->/.exec(readme);
  assert.ok(match?.[1], 'README.md has no plugin example between its markers');
  return match[1];
}

describe('documented examples', () => {
  test('the demo plugin file loads with no problems and one tool of each handler type', () => {
    const loaded = loadPluginFile(DEMO_FILE, readFileSync(DEMO_FILE), folder);
    assert.deepEqual(loaded.diagnostics, []);
    // What each tool runs says its handler type: an argv, a script, a base path, a URL.
    assert.deepEqual(
      loaded.tools.map((tool) => tool.handlerSummary.split(' ')[0]),
      ['grep', 'script:', 'read', 'GET'],
    );
  });

  test('the README example loads with no problems and says the same as the demo file', () => {
    const text = readmeExample();
    const loaded = loadPluginFile(path.join(folder.path, '.vscode/tools/readme.json'), text, folder);
    assert.deepEqual(loaded.diagnostics, []);
    assert.deepEqual(parse(text), parse(readFileSync(DEMO_FILE, 'utf8')));
  });

  test('the README\'s workflows example is the demo workspace\'s file', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const match = /<!-- workflows-example:start -->\s*```jsonc\n([\s\S]*?)```\s*<!-- workflows-example:end -->/.exec(readme);
    assert.equal(match?.[1], readFileSync(path.join(ROOT, 'demo/workspace/.vscode/tools/workflows.json'), 'utf8'));
  });

  test('the demo workspace\'s declared tests pass (a multi-step tool and an alias among them)', async () => {
    const config = makeTempDir('wt-demo-xdg-');
    try {
      const result = await runCli(['test', '--workspace', folder.path, '--approve-existing'], { configHome: config.path, cwd: folder.path });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /^PASS source-report › counts the lines/m);
      assert.match(result.stdout, /^PASS find-fixme › /m);
      assert.match(result.stdout, /^3 passed, 0 failed$/m);
    } finally {
      config.cleanup();
    }
  });
});
