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

/** The example between `<!-- NAME:start -->` and `<!-- NAME:end -->` in a doc, its list indentation removed. */
function docExample(doc: string, name: string): string {
  const text = readFileSync(path.join(ROOT, doc), 'utf8');
  const match = new RegExp(`<!-- ${name}:start -->\\s*?\\n([ ]*)\`\`\`jsonc\\n([\\s\\S]*?)\\1\`\`\`\\s*<!-- ${name}:end -->`).exec(text);
  assert.ok(match?.[2] !== undefined, `${doc} has no ${name} example between its markers`);
  const indent = match[1] ?? '';
  return match[2].split('\n').map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n');
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

  test('the plugin-file page\'s example (docs/plugin-files.md) loads with no problems and says the same as the demo file', () => {
    const text = docExample('docs/plugin-files.md', 'plugin-example');
    const loaded = loadPluginFile(path.join(folder.path, '.vscode/tools/readme.json'), text, folder);
    assert.deepEqual(loaded.diagnostics, []);
    assert.deepEqual(parse(text), parse(readFileSync(DEMO_FILE, 'utf8')));
  });

  test('the workflows example (docs/steps-aliases-tests.md) is the demo workspace\'s file', () => {
    assert.equal(docExample('docs/steps-aliases-tests.md', 'workflows-example'), readFileSync(path.join(ROOT, 'demo/workspace/.vscode/tools/workflows.json'), 'utf8'));
  });

  test('the README\'s first tool loads with no problems and is the demo file\'s list-todos', () => {
    const text = docExample('README.md', 'first-tool');
    const loaded = loadPluginFile(path.join(folder.path, '.vscode/tools/team-tools.json'), text, folder);
    assert.deepEqual(loaded.diagnostics, []);
    assert.deepEqual(loaded.tools.map((tool) => tool.name), ['list-todos']);
    const demo = parse(readFileSync(DEMO_FILE, 'utf8')) as { name: string; tools: unknown[] };
    assert.deepEqual(parse(text), { name: demo.name, tools: [demo.tools[0]] });
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
